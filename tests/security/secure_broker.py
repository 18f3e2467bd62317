"""Test helpers for broker security: a real Mosquitto on the secure config of `hub.edge.security`, and a
probe client that records every MQTT 5 reason code (CONNACK, SUBACK, PUBACK) and message it gets.

Waits are on events (a sentinel message published after the one that must not arrive), not sleeps.
"""

from __future__ import annotations

import queue
import shutil
import socket
import ssl
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MQTTProtocolVersion
from paho.mqtt.reasoncodes import ReasonCode

from hub.edge.broker import find_mosquitto, free_port
from hub.edge.security import RoomCredentials, SecureFiles, render_secure_config, write_secure_files
from tablewire.credentials import client_tls_context

NOT_AUTHORIZED = 0x87
BAD_USER_OR_PASSWORD = 0x86


class SecureBroker:
    """Mosquitto with passwords, the ACL and a TLS listener, on free loopback ports."""

    def __init__(self, directory: Path, creds: RoomCredentials) -> None:
        self.dir = directory
        self.creds = creds
        self.host = "127.0.0.1"
        self.port = free_port()
        self.tls_port = free_port()
        self.files: SecureFiles = write_secure_files(directory / "broker", creds,
                                                     tls_hosts=("localhost", "127.0.0.1"))
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def ca_file(self) -> str:
        assert self.files.tls is not None
        return str(self.files.tls.ca_cert)

    def start(self) -> SecureBroker:
        data = self.dir / "data"
        data.mkdir(exist_ok=True)
        conf = self.dir / "mosquitto.conf"
        conf.write_text(render_secure_config(port=self.port, tls_port=self.tls_port, data_dir=data,
                                             files=self.files, tls_host="127.0.0.1"))
        self._proc = subprocess.Popen([find_mosquitto(), "-c", str(conf)], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, start_new_session=True)
        deadline = time.monotonic() + 10
        pending = {self.port, self.tls_port}
        while pending and time.monotonic() < deadline:
            if self._proc.poll() is not None:
                err = self._proc.stderr.read().decode(errors="replace") if self._proc.stderr else ""
                raise RuntimeError(f"mosquitto exited at start: {err.strip()}")
            for port in list(pending):
                try:
                    socket.create_connection((self.host, port), timeout=0.2).close()
                    pending.discard(port)
                except OSError:
                    time.sleep(0.02)
        if pending:
            self.stop()
            raise RuntimeError(f"mosquitto did not listen on {sorted(pending)}")
        return self

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            self._proc.wait(timeout=5)
        if self._proc is not None and self._proc.stderr:
            self._proc.stderr.close()
        self._proc = None
        shutil.rmtree(self.dir / "data", ignore_errors=True)


@dataclass
class Probe:
    """One paho client (MQTT 5) with everything the broker answered, for assertions."""

    client: mqtt.Client
    connack: queue.Queue[ReasonCode] = field(default_factory=queue.Queue)
    messages: queue.Queue[mqtt.MQTTMessage] = field(default_factory=queue.Queue)
    received: list[tuple[str, bytes]] = field(default_factory=list)
    disconnected: threading.Event = field(default_factory=threading.Event)  # by the broker or by close()
    _acks: dict[int, queue.Queue[list[ReasonCode]]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def _ack_queue(self, mid: int) -> queue.Queue[list[ReasonCode]]:
        with self._lock:
            return self._acks.setdefault(mid, queue.Queue())

    def subscribe(self, topic: str, timeout: float = 5.0) -> ReasonCode:
        """The SUBACK reason code for one filter."""
        rc, mid = self.client.subscribe(topic, qos=1)
        assert rc == mqtt.MQTT_ERR_SUCCESS and mid is not None
        return self._ack_queue(mid).get(timeout=timeout)[0]

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, timeout: float = 5.0) -> ReasonCode:
        """The PUBACK reason code of a QoS 1 publish."""
        info = self.client.publish(topic, payload, qos=1, retain=retain)
        assert info.rc == mqtt.MQTT_ERR_SUCCESS
        return self._ack_queue(info.mid).get(timeout=timeout)[0]

    def until(self, topic: str, payload: bytes, timeout: float = 5.0) -> list[tuple[str, bytes]]:
        """Everything received up to and including (`topic`, `payload`): the sentinel."""
        while True:
            msg = self.messages.get(timeout=timeout)
            if msg.topic == topic and msg.payload == payload:
                return list(self.received)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def probe(host: str, port: int, username: str | None, password: str | None, *,
          client_id: str | None = None, tls_ca: str | None = None, tls_insecure_ca: bool = False,
          will: tuple[str, bytes] | None = None, wait: bool = True,
          protocol: MQTTProtocolVersion = MQTTProtocolVersion.MQTTv5) -> Probe:
    """Connect a recording client; with `wait`, block until the CONNACK arrived (success or not)."""
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or f"probe-{username}-{time.monotonic_ns()}",
                         protocol=protocol)
    client.reconnect_delay_set(min_delay=30, max_delay=60)  # a refused probe must not retry during the test
    p = Probe(client)
    if username is not None:
        client.username_pw_set(username, password)
    if will is not None:
        client.will_set(will[0], will[1], qos=1, retain=True)
    if tls_ca is not None or tls_insecure_ca:
        context = client_tls_context(tls_ca) if tls_ca else ssl.create_default_context()
        client.tls_set_context(context)

    def on_connect(_c: mqtt.Client, _u: object, _f: object, reason: ReasonCode, _p: object = None) -> None:
        p.connack.put(reason)

    def on_subscribe(_c: mqtt.Client, _u: object, mid: int, codes: list[ReasonCode], _p: object) -> None:
        p._ack_queue(mid).put(codes)

    def on_publish(_c: mqtt.Client, _u: object, mid: int, code: ReasonCode, _p: object) -> None:
        p._ack_queue(mid).put([code])

    def on_message(_c: mqtt.Client, _u: object, msg: mqtt.MQTTMessage) -> None:
        p.received.append((msg.topic, bytes(msg.payload)))
        p.messages.put(msg)

    def on_disconnect(_c: mqtt.Client, _u: object, _f: object, _reason: ReasonCode, _p: object = None) -> None:
        p.disconnected.set()

    client.on_connect, client.on_subscribe = on_connect, on_subscribe
    client.on_disconnect = on_disconnect
    client.on_publish, client.on_message = on_publish, on_message
    client.connect_async(host, port, keepalive=15)
    client.loop_start()
    return p


def connect(host: str, port: int, username: str, password: str, **kw: object) -> Probe:
    """A probe that must be accepted."""
    p = probe(host, port, username, password, **kw)  # type: ignore[arg-type]
    reason = p.connack.get(timeout=5)
    if reason.is_failure:
        p.close()
        raise AssertionError(f"{username}: connection refused: {reason}")
    return p
