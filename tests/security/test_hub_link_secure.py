"""The hub's own link (`hub.edge.link.HubLink`) in the room as installed: the secured Mosquitto's passwords,
ACL and TLS listener. A refusal is said, by reason, never raised past the link."""

from __future__ import annotations

import ssl

import pytest
from secure_broker import SecureBroker, connect

from hub.edge.link import HubLink
from hub.edge.security import RoomCredentials
from tablewire import wire
from tablewire.credentials import client_tls_context
from tests.support import wait_until


def test_a_wrong_password_is_a_connection_error_naming_the_reason(secure_broker: SecureBroker) -> None:
    link = HubLink(client_id="tapis-hub", host=secure_broker.host, port=secure_broker.port,
                   username="hub", password="wrong")
    with pytest.raises(ConnectionError, match="Not authorized|Bad user name or password"):
        link.start(timeout=5)


def test_tls_without_the_room_ca_says_why(secure_broker: SecureBroker, room_creds: RoomCredentials) -> None:
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=secure_broker.tls_port, username="hub",
                   password=room_creds.hub.password, tls=ssl.create_default_context())  # not the room's CA
    with pytest.raises(ConnectionError, match="CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
        link.start(timeout=1)


def test_over_tls_with_the_room_ca_and_what_the_acl_refuses_is_counted(secure_broker: SecureBroker,
                                                                       room_creds: RoomCredentials) -> None:
    table = connect(secure_broker.host, secure_broker.port, "table-t2", room_creds.table("t2").password)
    link = HubLink(client_id="tapis-hub", host="127.0.0.1", port=secure_broker.tls_port, username="hub",
                   password=room_creds.hub.password, tls=client_tls_context(secure_broker.ca_file))
    heard: list[bytes] = []
    link.subscribe(wire.table_events("t2"), lambda m: heard.append(m.payload))
    try:
        link.start(timeout=5)
        assert wait_until(lambda: link.pending_subscriptions == 0)  # before that, a publish finds no one
        event = wire.encode(wire.DealerPressed(table="t2", boot="tls", seq=1, at=0.5, button="new_hand"))
        assert table.publish(wire.table_events("t2"), event).value == 0
        assert wait_until(lambda: heard == [event])
        command = wire.encode(wire.HandOverCmd(hand=1, result="folded to the big blind"))
        assert table.subscribe(wire.table_commands("t2")).value == 1
        link.publish(wire.table_commands("t2"), command)
        assert table.until(wire.table_commands("t2"), command)[-1] == (wire.table_commands("t2"), command)
        link.publish("outside/the/room", b"x")  # the hub's ACL is tapis/v1/# only
        assert wait_until(lambda: link.publish_refused == {("outside/the/room", "Not authorized"): 1})
        assert link.connected  # a refusal does not cost the connection
    finally:
        link.stop()
        table.close()
