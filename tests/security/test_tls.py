"""The room's TLS listener: the generated CA and server certificate, checked by Python's `ssl`.

A table that trusts the room CA connects, authenticates with its password and exchanges messages; a
client that does not hold the CA (system trust store only) fails the handshake; plain MQTT on the TLS
port gets no CONNACK.
"""

from __future__ import annotations

import socket
import ssl
import subprocess
from pathlib import Path

import pytest
from secure_broker import NOT_AUTHORIZED, SecureBroker, connect, probe

from hub.edge.security import RoomCredentials, TlsError, generate_tls
from tablewire import wire
from tablewire.credentials import client_tls_context


def test_certificate_names_and_ca(tmp_path: Path) -> None:
    tls = generate_tls(tmp_path, hosts=("hub.local", "192.168.1.10"), room="Pouques")
    text = subprocess.run(["openssl", "x509", "-in", str(tls.server_cert), "-noout", "-text"],
                          capture_output=True, text=True, check=True).stdout
    assert "DNS:hub.local" in text and "IP Address:192.168.1.10" in text
    assert "TLS Web Server Authentication" in text
    ca = subprocess.run(["openssl", "x509", "-in", str(tls.ca_cert), "-noout", "-text"],
                        capture_output=True, text=True, check=True).stdout
    assert "CA:TRUE" in ca and "Pouques CA" in ca
    verify = subprocess.run(["openssl", "verify", "-CAfile", str(tls.ca_cert), str(tls.server_cert)],
                            capture_output=True, text=True, check=False)
    assert verify.returncode == 0, verify.stderr
    assert oct(tls.server_key.stat().st_mode & 0o777) == "0o600"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ca.crt", "ca.key", "server.crt", "server.key"]


def test_generate_tls_without_openssl(tmp_path: Path) -> None:
    with pytest.raises(TlsError) as err:
        generate_tls(tmp_path, openssl=str(tmp_path / "no-openssl"))
    assert isinstance(err.value, RuntimeError)


def test_handshake_with_the_room_ca(secure_broker: SecureBroker) -> None:
    context = client_tls_context(secure_broker.ca_file)
    with socket.create_connection((secure_broker.host, secure_broker.tls_port), timeout=5) as raw, \
            context.wrap_socket(raw, server_hostname="127.0.0.1") as tls:
        assert tls.version() in ("TLSv1.2", "TLSv1.3")
        assert tls.getpeercert() is not None


def test_handshake_without_the_room_ca_fails(secure_broker: SecureBroker) -> None:
    context = ssl.create_default_context()  # the system's public CAs only
    with socket.create_connection((secure_broker.host, secure_broker.tls_port), timeout=5) as raw:
        with pytest.raises(ssl.SSLCertVerificationError):
            context.wrap_socket(raw, server_hostname="127.0.0.1")


def test_handshake_with_a_wrong_name_fails(secure_broker: SecureBroker) -> None:
    context = ssl.create_default_context(cafile=secure_broker.ca_file)
    with socket.create_connection((secure_broker.host, secure_broker.tls_port), timeout=5) as raw:
        with pytest.raises(ssl.SSLCertVerificationError):
            context.wrap_socket(raw, server_hostname="not-the-hub.example")


def test_a_table_over_tls_exchanges_messages(secure_broker: SecureBroker, room_creds: RoomCredentials) -> None:
    hub = connect(secure_broker.host, secure_broker.tls_port, "hub", room_creds.hub.password,
                  tls_ca=secure_broker.ca_file)
    t2 = connect(secure_broker.host, secure_broker.tls_port, "table-t2", room_creds.table("t2").password,
                 tls_ca=secure_broker.ca_file)
    try:
        assert hub.subscribe(wire.ALL_TABLE_EVENTS).value == 1
        assert t2.subscribe(wire.table_commands("t2")).value == 1
        event = wire.encode(wire.DealerPressed(table="t2", boot="tls", seq=1, at=0.5, button="new_hand"))
        assert t2.publish(wire.table_events("t2"), event).value == 0
        assert hub.until(wire.table_events("t2"), event)[-1] == (wire.table_events("t2"), event)
        command = wire.encode(wire.HandOverCmd(hand=1, result="folded to the big blind"))
        assert hub.publish(wire.table_commands("t2"), command).value == 0
        assert t2.until(wire.table_commands("t2"), command)[-1] == (wire.table_commands("t2"), command)
        assert t2.publish(wire.table_events("t1"), event).value == NOT_AUTHORIZED  # same ACL over TLS
    finally:
        t2.close()
        hub.close()


def test_tls_still_needs_the_password(secure_broker: SecureBroker) -> None:
    p = probe(secure_broker.host, secure_broker.tls_port, "table-t2", "wrong", tls_ca=secure_broker.ca_file)
    try:
        assert p.connack.get(timeout=5).value == NOT_AUTHORIZED
    finally:
        p.close()


def test_plain_mqtt_on_the_tls_port_gets_no_connack(secure_broker: SecureBroker) -> None:
    # a CONNECT for MQTT 5 with client id "x", sent in clear: the TLS listener must not answer CONNACK
    connect_packet = bytes([0x10, 14, 0, 4]) + b"MQTT" + bytes([5, 2, 0, 15, 0, 0, 1]) + b"x"
    with socket.create_connection((secure_broker.host, secure_broker.port), timeout=5) as plain:
        plain.sendall(connect_packet)  # control: the loopback listener answers it (anonymous: refused)
        assert plain.recv(16)[:1] == b"\x20"
    with socket.create_connection((secure_broker.host, secure_broker.tls_port), timeout=5) as raw:
        raw.sendall(connect_packet)
        raw.settimeout(5)
        try:
            answer = raw.recv(16)
        except (ConnectionResetError, TimeoutError):
            answer = b""
        assert not answer.startswith(b"\x20")  # 0x20: CONNACK
