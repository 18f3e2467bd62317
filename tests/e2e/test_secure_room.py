"""A room on its secure broker (hub.edge.security.init_room): `tapis agent` with its table's user over TLS
reaches the hub; a wrong password is refused at start, in plain words."""

import json
import queue
import socket
import subprocess
import sys
import time
from pathlib import Path

from hub.edge.broker import find_mosquitto, free_port
from hub.edge.security import RoomCredentials, init_room
from hw.decks import DeckRegistry
from simulators.reader_board import ReaderBoardSimulator
from tablewire import wire
from tablewire.credentials import client_tls_context
from tablewire.mqtt import Message, MqttLink
from tests.support import TWO_SEAT_PROFILE


def start_broker(conf: Path, port: int) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen([find_mosquitto(), "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the secure broker did not start")


def test_table_over_tls_with_its_own_user(tmp_path: Path) -> None:
    port, tls_port = free_port(), free_port()
    room = tmp_path / "room"
    conf = init_room(room, ["t1", "t2"], port=port, tls_port=tls_port)
    creds = RoomCredentials.load(room / "credentials")
    ca = room / "broker" / "tls" / "ca.crt"
    registry = DeckRegistry.generate(["t1"])
    (tmp_path / "decks.toml").write_text(registry.dump())
    (tmp_path / "pw-bad").write_text("not the password")
    states: queue.Queue[Message] = queue.Queue()
    hub = MqttLink(client_id="hub-test", host="localhost", port=tls_port, username=creds.hub.username,
                   password=creds.hub.password, tls=client_tls_context(ca))
    hub.subscribe(wire.table_events("+"), states.put)
    broker = start_broker(conf, tls_port)
    try:
        hub.start()
        with ReaderBoardSimulator(antennas=6, scan_period=0.02) as board:
            (tmp_path / "t1.toml").write_text(TWO_SEAT_PROFILE.format(url=board.port))
            base = [sys.executable, "-m", "tapis", "agent", "--profile", str(tmp_path / "t1.toml"),
                    "--decks", str(tmp_path / "decks.toml"), "--broker", f"mqtt://localhost:{tls_port}",
                    "--ca", str(ca), "--user", "table-t1"]
            agent = subprocess.Popen(base + ["--password-file", str(room / "credentials" / "table-t1.json")],
                                     stderr=subprocess.PIPE)
            try:
                board.place(0, bytes.fromhex(registry.uid_of("t1/A", "As")))
                deadline = time.monotonic() + 20
                seen = None
                while seen is None and time.monotonic() < deadline:
                    try:
                        event = json.loads(states.get(timeout=1).payload)
                    except queue.Empty:
                        continue
                    if event.get("type") == "card_arrived":
                        seen = event
                assert seen is not None and seen["card"] == "As" and seen["table"] == "t1"
            finally:
                agent.terminate()
                agent.wait(10)
            refused = subprocess.run(base + ["--password-file", str(tmp_path / "pw-bad")], capture_output=True,
                                     text=True, timeout=60)
            assert refused.returncode == 2 and "tapis agent:" in refused.stderr
    finally:
        hub.stop()
        broker.kill()
        broker.wait()
