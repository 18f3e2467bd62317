"""The broker as `deploy/install.sh hub` installs it, probed like a hostile person in the room would.

`deploy/mosquitto-tapis.conf` is run as shipped (only its paths point at a room made here with
`hub.edge.security.init_room`, what install.sh runs, and its ports at free loopback ones), beside the config
`hub.edge.security.render_secure_config` generates. An anonymous client and a client with the wrong user
must neither read a hole card on `tapis/v1/hub/td/#` nor get a TD command through; table t1's
credentials asking for another client's id (`tapis-hub`, `tapis-table-t2`, a shard worker's) must
not disconnect anyone, while the hub's, the TD's and the shard workers' own connections hold.
"""

from __future__ import annotations

import os
import queue
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from secure_broker import Probe, connect, probe

from hub.edge.broker import find_mosquitto, free_port
from hub.edge.security import MAX_PACKET, RoomCredentials, init_room, render_secure_config, write_secure_files
from hub.edge.shard import Shard, hub_client_id
from hub.floor.commands import TOURNAMENT_CMD
from tablewire import wire
from tablewire.credentials import client_tls_context
from tablewire.mqtt import Message, MqttLink

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SHIPPED = DEPLOY / "mosquitto-tapis.conf"
TABLES = ("t1", "t2")
HOLE_CARDS = b'{"table": "t1", "zones": {"seat:1": ["As", "Kd"]}}'
ELIMINATE = b'{"type": "eliminate", "id": "x1", "player": "alice"}'


@dataclass
class Room:
    host: str
    port: int  # the loopback listener
    tls_port: int | None  # the LAN listener (TLS), if the config has one
    creds: RoomCredentials
    ca: str | None

    def client(self, username: str | None, password: str | None, **kw: object) -> Probe:
        """Where a LAN client dials: the TLS listener if there is one, else the only listener."""
        if self.tls_port is not None:
            return probe("localhost", self.tls_port, username, password, tls_ca=self.ca, **kw)
        return probe(self.host, self.port, username, password, **kw)


def _start(conf: Path, ports: list[int]) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([find_mosquitto(), "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 10
    pending = set(ports)
    while pending and time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"mosquitto exited at start: {err.strip()}")
        for port in list(pending):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                pending.discard(port)
            except OSError:
                time.sleep(0.02)
    if pending:
        proc.kill()
        raise RuntimeError(f"mosquitto did not listen on {sorted(pending)}")
    return proc


def shipped_config(text: str, room: Path, port: int, tls_port: int) -> str:
    """The shipped file with its paths in `room` and its listeners on loopback ports; nothing else changed
    but `user` (Mosquitto started by root would read the 0600 files as `mosquitto`: install.sh gives
    them to that group) and where it persists."""
    text = text.replace("/etc/tapis/room", str(room))
    text = re.sub(r"^listener 1883\b.*$", f"listener {port} 127.0.0.1", text, flags=re.M)
    text = re.sub(r"^listener 8883\b.*$", f"listener {tls_port} 127.0.0.1", text, flags=re.M)
    # a word's end: a free port such as 18832 begins with 1883 (it failed CI once that way)
    assert not re.search(r"^listener (1883|8883)\b", text, flags=re.M), "the shipped listeners were not moved"
    extra = [f"persistence_location {room}/data/"] + (["user root"] if os.geteuid() == 0 else [])
    return text + "\n" + "\n".join(extra) + "\n"


@pytest.fixture(params=["installed", "generated"])
def room(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Room]:
    port, tls_port = free_port(), free_port()
    root = tmp_path / "room"
    (root / "data").mkdir(parents=True)
    if request.param == "installed":  # what install.sh hub does: python -m hub.edge.security, then the shipped file
        init_room(root, TABLES, hosts=("localhost", "127.0.0.1"), hub_workers=2)
        creds = RoomCredentials.load(root / "credentials")
        text = shipped_config(SHIPPED.read_text(), root, port, tls_port)
        has_tls = re.search(rf"^listener {tls_port}\b", text, flags=re.M) is not None
        ca = str(root / "broker" / "tls" / "ca.crt")
    else:
        creds = RoomCredentials.generate(TABLES).with_hub_workers(2)
        files = write_secure_files(root / "broker", creds)
        text = render_secure_config(port=port, tls_port=tls_port, data_dir=root / "data", files=files,
                                    tls_host="127.0.0.1")
        has_tls, ca = True, str(root / "broker" / "tls" / "ca.crt")
    conf = tmp_path / "mosquitto.conf"
    conf.write_text(text)
    proc = _start(conf, [port] + ([tls_port] if has_tls else []))
    try:
        yield Room("127.0.0.1", port, tls_port if has_tls else None, creds, ca if has_tls else None)
    finally:
        proc.terminate()
        proc.wait(timeout=5)
        if proc.stderr:
            proc.stderr.close()
        shutil.rmtree(root / "data", ignore_errors=True)


def _hub(room: Room) -> Probe:
    hub = connect(room.host, room.port, "hub", room.creds.hub.password)
    assert not hub.subscribe(TOURNAMENT_CMD).is_failure
    assert not hub.subscribe("tapis/v1/hub/sentinel").is_failure
    assert not hub.publish(wire.hub_td_state("t1"), HOLE_CARDS, retain=True).is_failure
    return hub


def _intrude(intruder: Probe, hub: Probe) -> tuple[list[tuple[str, bytes]], list[tuple[str, bytes]]]:
    """What a connected intruder reads of the TD's topics and what of its TD command reaches the hub.

    Both ends wait on a marker, not a time: the intruder's on the hub status topic, which every
    user may read (so it does arrive), published after its SUBACKs (the retained TD state, if it
    could read it, was queued to it before); the hub's after the command's PUBACK."""
    intruder.subscribe("tapis/v1/hub/td/#")
    intruder.subscribe("#")
    intruder.publish(TOURNAMENT_CMD, ELIMINATE)  # returns at the broker's PUBACK: it has been routed
    marker = b"end of the intrusion"
    assert not hub.publish(wire.HUB_STATUS, marker).is_failure
    intruder.until(wire.HUB_STATUS, marker)
    hub.publish("tapis/v1/hub/sentinel", b"end")
    got = hub.until("tapis/v1/hub/sentinel", b"end")
    return ([(t, p) for t, p in intruder.received if "/hub/td/" in t or b"As" in p],
            [(t, p) for t, p in got if t == TOURNAMENT_CMD and p == ELIMINATE])


@pytest.mark.parametrize("who", ["anonymous", "td with a wrong password", "table-t1 (a real user, the wrong one)",
                                 "dashboard (read-only)"])
def test_no_hole_card_and_no_td_command_for_the_wrong_client(room: Room, who: str) -> None:
    hub = _hub(room)
    user, password = {
        "anonymous": (None, None),
        "td with a wrong password": ("td", "guess"),
        "table-t1 (a real user, the wrong one)": ("table-t1", room.creds.table("t1").password),
        "dashboard (read-only)": ("dashboard", room.creds.dashboard.password),
    }[who]
    intruder = room.client(user, password)
    try:
        refused = intruder.connack.get(timeout=5).is_failure
        read, sent = ([], []) if refused else _intrude(intruder, hub)
        assert read == [], f"{who} read the TD's topics: {read}"
        assert sent == [], f"{who} got a TD command to the hub"
        if user in (None, "td"):
            assert refused, f"{who} was let in"
    finally:
        intruder.close()
        hub.close()


def test_the_td_itself_gets_its_command_through(room: Room) -> None:
    """The control: the same probe with the TD's credentials is heard (the refusals above are the ACL's)."""
    hub = _hub(room)
    td = room.client("td", room.creds.td.password)
    try:
        assert not td.connack.get(timeout=5).is_failure
        read, sent = _intrude(td, hub)
        assert read and sent
    finally:
        td.close()
        hub.close()


class Counted:
    """An `MqttLink` that counts its connections: a takeover shows as a second one."""

    def __init__(self, room: Room, client_id: str, username: str, *, lan: bool = False, session: bool = False,
                 listen: str | None = None) -> None:
        self.connects = 0
        self.inbox: queue.Queue[Message] = queue.Queue()
        self.listen = listen or f"tapis/v1/hub/probe/{client_id}"
        tls = client_tls_context(room.ca) if lan and room.ca else None
        host, port = ("localhost", room.tls_port) if lan and room.tls_port else (room.host, room.port)
        self.link = MqttLink(client_id=client_id, host=host, port=port, username=username,
                             password=room.creds.user(username).password, tls=tls,
                             session_expiry=3600 if session else 0)
        self.link.on_connect(self._connected)
        self.link.subscribe(self.listen, self.inbox.put)
        self.link.start()

    def _connected(self) -> None:
        self.connects += 1


def _round_trip(sender: Counted, legit: list[Counted], payload: bytes, *, retain: bool = False) -> None:
    """Each client gets a message on its own topic, over the connection it has (`retain`: also if
    its subscription is not in place yet: it comes at subscribe)."""
    for c in legit:
        sender.link.publish(c.listen, payload, retain=retain)
    for c in legit:
        try:
            while (msg := c.inbox.get(timeout=10)).payload != payload:
                continue
        except queue.Empty:
            raise AssertionError(f"{c.link.client_id} lost its connection: {payload!r} never came") from None
        assert msg.topic == c.listen


def test_a_tables_credentials_cannot_take_over_another_clients_id(room: Room) -> None:
    """Each intruder's connection is answered (its CONNACK, accepted or not) before the next; then a
    message to every legitimate client arrives on its first connection. A takeover would have closed
    it: the message would be lost (no session) or come after a second connection, counted."""
    hub = Counted(room, hub_client_id(None), "hub", session=True)
    workers = [Counted(room, hub_client_id(Shard(n, 2)), f"hub-{Shard(n, 2).name}", session=True) for n in (1, 2)]
    td = Counted(room, "tapis-td-1", "td", lan=True)
    t2 = Counted(room, "tapis-table-t2", "table-t2", lan=True, listen=wire.table_commands("t2"))
    legit = [hub, *workers, td, t2]
    intruders = []
    try:
        _round_trip(hub, legit, b"before", retain=True)  # then every subscription is in place
        for stolen in ("tapis-hub", "tapis-table-t2", hub_client_id(Shard(1, 2)), "tapis-td-1", "hub"):
            intruders.append(room.client("table-t1", room.creds.table("t1").password, client_id=stolen))
            intruders[-1].connack.get(timeout=5)  # the broker has decided on this one
        _round_trip(hub, legit, b"after")
        taken = {c.link.client_id: c.connects for c in legit if c.connects != 1}
        assert taken == {}, f"taken over (connections counted): {taken}"
    finally:
        for p in intruders:
            p.close()
        for c in legit:
            c.link.stop()


def test_the_shipped_configs_refuse_big_packets() -> None:
    for path in (SHIPPED, DEPLOY / "mosquitto-tapis-open.conf"):
        sizes = re.findall(r"^max_packet_size (\d+)", path.read_text(), flags=re.M)
        assert sizes and int(sizes[0]) <= MAX_PACKET, path


def test_the_open_broker_is_only_installed_on_an_explicit_loud_opt_in() -> None:
    script = (DEPLOY / "install.sh").read_text()
    assert "allow_anonymous true" not in SHIPPED.read_text()
    assert re.search(r"^allow_anonymous false$", SHIPPED.read_text(), flags=re.M)
    opt_in = script.index('if [ "$open_broker" = 1 ]')
    assert script.index("mosquitto-tapis-open.conf") > opt_in
    assert "ANYONE ON THE LAN" in script[opt_in:script.index("mosquitto-tapis-open.conf")]
    assert script.count("mosquitto-tapis-open.conf") == 1
    assert "-m hub.edge.security" in script
    if os.geteuid() == 0 and not Path("/etc/tapis/room/credentials").exists():
        # no table named: refused before anything is installed (nothing before that check writes)
        done = subprocess.run(["bash", str(DEPLOY / "install.sh"), "hub"], capture_output=True, text=True, timeout=30)
        assert done.returncode == 2 and "--table t1" in done.stderr and "--open-broker" in done.stderr


def test_a_flood_of_big_packets_stops_at_the_broker(room: Room) -> None:
    hub = _hub(room)
    hub.subscribe(wire.table_events("t1"))
    t1 = room.client("table-t1", room.creds.table("t1").password)
    try:
        assert not t1.connack.get(timeout=5).is_failure
        t1.client.publish(wire.table_events("t1"), b"x" * (MAX_PACKET + 1), qos=1)
        assert t1.disconnected.wait(10)  # the broker read the packet's length and closed the connection
        hub.publish("tapis/v1/hub/sentinel", b"end")
        got = hub.until("tapis/v1/hub/sentinel", b"end")
        assert [t for t, p in got if len(p) > MAX_PACKET] == []
    finally:
        t1.close()
        hub.close()


def test_sharded_hub_processes_keep_their_own_sessions(room: Room, tmp_path: Path) -> None:
    """Two real `tapis hub --shard N/2` workers, each with its own user: both stay connected while t1's
    credentials ask for their client ids, and the one that serves t1 acknowledges its event."""
    import json as _json
    import sys

    workers = []
    for n in (1, 2):
        name = f"hub-{Shard(n, 2).name}"
        cred = tmp_path / f"{name}.json"
        cred.write_text(_json.dumps({"username": name, "password": room.creds.user(name).password}))
        workers.append(subprocess.Popen(
            [sys.executable, "-m", "hub.cli", "hub", "--broker", f"mqtt://{room.host}:{room.port}", "--shard",
             f"{n}/2", "--password-file", str(cred), "--dashboard", "0"],
            cwd=DEPLOY.parent, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
    td = connect(room.host, room.port, "td", room.creds.td.password)
    intruders: list[Probe] = []
    try:
        td.subscribe(f"{wire.HUB_STATUS}/+")
        td.subscribe(wire.table_events("t1"))
        online: set[str] = set()
        while len(online) < 2:  # each worker's retained birth, as it comes
            msg = td.messages.get(timeout=30)
            if msg.payload == wire.ONLINE:
                online.add(msg.topic)
        for n in (1, 2):
            intruders.append(probe(room.host, room.port, "table-t1", room.creds.table("t1").password,
                                   client_id=hub_client_id(Shard(n, 2))))
            intruders[-1].connack.get(timeout=5)  # the broker has decided on this one
        for p in intruders:  # (they took over one another: each is table-t1)
            p.close()
        t1 = connect(room.host, room.port, "table-t1", room.creds.table("t1").password)
        intruders.append(t1)
        t1.subscribe(wire.hub_ack("t1"))
        event = wire.encode(wire.ReaderStatus(table="t1", boot="b1", seq=1, at=0.0, state="connected"))
        t1.publish(wire.table_events("t1"), event)
        td.until(wire.table_events("t1"), event, timeout=10)  # a worker's will would have come before it
        assert [p for _t, p in td.received if p == wire.OFFLINE] == []  # no worker lost its connection
        assert t1.messages.get(timeout=10).topic == wire.hub_ack("t1")
    finally:
        for p in intruders + [td]:
            p.close()
        errors = []
        for proc in workers:
            proc.terminate()
            errors.append(proc.communicate(timeout=15)[1])
        assert not any(b"disconnected" in err or b"Traceback" in err for err in errors), errors
