"""The secured Mosquitto refuses what the ACL does not grant, with MQTT 5 reason codes.

Denials are proved twice: the reason code the sender gets (PUBACK/CONNACK 0x87, read through paho 2's
callbacks), and the absence of the message at a receiver entitled to everything, checked up to a
sentinel the same sender published afterwards (one sender, one receiver: delivery is in order).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from paho.mqtt.client import topic_matches_sub
from secure_broker import BAD_USER_OR_PASSWORD, NOT_AUTHORIZED, Probe, SecureBroker, connect, probe

from hub.edge.security import DASHBOARD_READ, RoomCredentials
from tablewire import wire


@pytest.fixture
def hub(secure_broker: SecureBroker, room_creds: RoomCredentials) -> Iterator[Probe]:
    p = connect(secure_broker.host, secure_broker.port, "hub", room_creds.hub.password)
    assert not p.subscribe("tapis/v1/#").is_failure
    yield p
    p.close()


def table(broker: SecureBroker, creds: RoomCredentials, table_id: str) -> Probe:
    return connect(broker.host, broker.port, f"table-{table_id}", creds.table(table_id).password)


@pytest.mark.parametrize("username, password", [
    ("table-t1", "wrong"), ("table-t1", ""), ("table-t9", "x"), ("dashboard", "hub-password?"),
])
def test_wrong_password_is_refused(secure_broker: SecureBroker, username: str, password: str) -> None:
    p = probe(secure_broker.host, secure_broker.port, username, password)
    try:
        reason = p.connack.get(timeout=5)
        # Mosquitto 2.0 answers 0x87 Not authorized; 0x86 Bad user name or password is the other legal answer
        assert reason.is_failure and reason.value in (NOT_AUTHORIZED, BAD_USER_OR_PASSWORD)
    finally:
        p.close()


def test_anonymous_is_refused(secure_broker: SecureBroker) -> None:
    p = probe(secure_broker.host, secure_broker.port, None, None)
    try:
        reason = p.connack.get(timeout=5)
        assert reason.is_failure and reason.value in (NOT_AUTHORIZED, BAD_USER_OR_PASSWORD)
    finally:
        p.close()


def test_another_tables_password_does_not_open_this_table(secure_broker: SecureBroker,
                                                          room_creds: RoomCredentials) -> None:
    p = probe(secure_broker.host, secure_broker.port, "table-t2", room_creds.table("t1").password)
    try:
        assert p.connack.get(timeout=5).value == NOT_AUTHORIZED
    finally:
        p.close()


@pytest.mark.parametrize("topic", [
    wire.table_events("t2"),
    wire.table_status("t2"),
    wire.table_commands("t1"),  # not even its own commands: only the hub sends them
    wire.hub_table_state("t1"),
    wire.hub_td_state("t1"),
    wire.HUB_STATUS,
    "tapis/v1/hub/tournament/cmd",
    "tapis/v1/table/t1/event/extra",
    "elsewhere",
])
def test_a_table_cannot_publish_outside_its_own_topics(secure_broker: SecureBroker, room_creds: RoomCredentials,
                                                       hub: Probe, topic: str) -> None:
    t1 = table(secure_broker, room_creds, "t1")
    try:
        forged = wire.encode(wire.DealerPressed(table="t2", boot="forged", seq=1, at=0.0, button="new_hand"))
        assert t1.publish(topic, forged).value == NOT_AUTHORIZED
        assert t1.publish(topic, forged, retain=True).value == NOT_AUTHORIZED
        sentinel = wire.encode(wire.DealerPressed(table="t1", boot="b", seq=1, at=0.0, button="new_hand"))
        assert t1.publish(wire.table_events("t1"), sentinel).value == 0  # Success
        seen = hub.until(wire.table_events("t1"), sentinel)
        assert all(payload != forged for _, payload in seen)
    finally:
        t1.close()


def test_a_table_reads_only_its_own_commands(secure_broker: SecureBroker, room_creds: RoomCredentials,
                                             hub: Probe) -> None:
    t1 = table(secure_broker, room_creds, "t1")
    try:
        # Mosquitto 2.0's acl_file does not check SUBSCRIBE (SUBACK grants it); it checks every
        # delivery instead. Accept a refused SUBACK too, should a later broker check it.
        for pattern in (wire.table_commands("t2"), "tapis/v1/table/+/cmd", "tapis/v1/hub/td/#", "#"):
            code = t1.subscribe(pattern)
            assert code.value in (1, NOT_AUTHORIZED)
        assert t1.subscribe(wire.table_commands("t1")).value == 1  # Granted QoS 1
        assert t1.subscribe(wire.hub_ack("t1")).value == 1
        assert t1.subscribe(wire.hub_ack("t2")).value in (1, NOT_AUTHORIZED)
        assert hub.publish(wire.hub_ack("t2"), wire.encode(wire.Ack(boot="b2", seq=7)), retain=True).value == 0
        ack = wire.encode(wire.Ack(boot="b1", seq=5))
        assert hub.publish(wire.hub_ack("t1"), ack, retain=True).value == 0
        other = wire.encode(wire.RulingCmd(hand=3, kind="exposed_card", decision="replace", cards=["Ah"]))
        assert hub.publish(wire.table_commands("t2"), other).value == 0
        assert hub.publish(wire.hub_td_state("t2"), b'{"zones": {"seat:1": ["Ah", "Kd"]}}').value == 0
        mine = wire.encode(wire.HandOverCmd(hand=3, result="done"))
        assert hub.publish(wire.table_commands("t1"), mine).value == 0
        seen = t1.until(wire.table_commands("t1"), mine)
        assert {topic for topic, _ in seen} == {wire.table_commands("t1"), wire.hub_ack("t1")}
        assert (wire.hub_ack("t1"), ack) in seen
    finally:
        t1.close()


def test_a_table_cannot_leave_a_will_for_another_table(secure_broker: SecureBroker,
                                                       room_creds: RoomCredentials, hub: Probe) -> None:
    p = probe(secure_broker.host, secure_broker.port, "table-t1", room_creds.table("t1").password,
              will=(wire.table_status("t2"), wire.OFFLINE))
    try:
        reason = p.connack.get(timeout=5)
        if not reason.is_failure:  # Mosquitto 2.0 accepts it: then the will must not be delivered
            control = probe(secure_broker.host, secure_broker.port, "table-t3", room_creds.table("t3").password,
                            will=(wire.table_status("t3"), b"control-will"))
            assert not control.connack.get(timeout=5).is_failure
            p.client.socket().close()  # unclean ends, t1 first: the broker fires both wills
            control.client.socket().close()
            seen = hub.until(wire.table_status("t3"), b"control-will")
            control.close()
            assert (wire.table_status("t2"), wire.OFFLINE) not in seen
        else:
            assert reason.value == NOT_AUTHORIZED
    finally:
        p.close()


def test_dashboard_reads_public_views_but_never_td_or_raw_table_events(
        secure_broker: SecureBroker, room_creds: RoomCredentials, hub: Probe) -> None:
    td_state = b'{"table": "t1", "hand_open": true, "zones": {"seat:1": ["Ah", "Kd"]}}'
    public_state = b'{"table": "t1", "hand_open": true, "zones": {"seat:1": 2}}'
    # retained before the dashboard subscribes: a retained TD state must not leak on subscribe either
    assert hub.publish(wire.hub_td_state("t1"), td_state, retain=True).value == 0
    assert hub.publish(wire.hub_table_state("t1"), public_state, retain=True).value == 0
    t1 = table(secure_broker, room_creds, "t1")
    dash = connect(secure_broker.host, secure_broker.port, "dashboard", room_creds.dashboard.password)
    try:
        for pattern in ("#", "tapis/v1/#", "tapis/v1/hub/td/#", "tapis/v1/table/+/event"):
            assert dash.subscribe(pattern).value in (1, NOT_AUTHORIZED)
        raw = wire.encode(wire.CardEvent(table="t1", boot="b", seq=2, at=1.0, type="card_arrived",
                                         zone="seat:1", uid="04A1B2C3", card="Ah", order=1))
        assert t1.publish(wire.table_events("t1"), raw).value == 0
        assert hub.publish(wire.hub_td_state("t1"), td_state, retain=True).value == 0
        assert hub.publish(wire.table_commands("t1"), b'{"type": "ruling", "cards": ["Ah"]}').value == 0
        sentinel = b'{"table": "t1", "hand": 2}'
        assert hub.publish(wire.hub_table_events("t1"), sentinel).value == 0
        seen = dash.until(wire.hub_table_events("t1"), sentinel)
        topics = {topic for topic, _ in seen}
        assert wire.hub_table_state("t1") in topics  # the retained public view did arrive
        assert all(any(topic_matches_sub(allowed, topic) for allowed in DASHBOARD_READ) for topic in topics)
        assert not any(topic.startswith("tapis/v1/hub/td/") or topic.endswith(("/event", "/cmd"))
                       for topic in topics - {wire.hub_table_events("t1")})
        assert all(b"Ah" not in payload for _, payload in seen)
    finally:
        dash.close()
        t1.close()


@pytest.mark.parametrize("topic", [
    wire.HUB_STATUS, wire.hub_table_state("t1"), wire.hub_table_events("t1"), wire.table_commands("t1"),
    wire.table_events("t1"), "tapis/v1/hub/tournament/cmd", "tapis/v1/hub/tournament/clock",
    "tapis/v1/hub/tournament/table/1",
])
def test_dashboard_cannot_write(secure_broker: SecureBroker, room_creds: RoomCredentials, topic: str) -> None:
    dash = connect(secure_broker.host, secure_broker.port, "dashboard", room_creds.dashboard.password)
    try:
        assert dash.publish(topic, b"{}").value == NOT_AUTHORIZED
    finally:
        dash.close()


def test_td_reads_hole_cards_and_sends_floor_commands_only(secure_broker: SecureBroker,
                                                           room_creds: RoomCredentials, hub: Probe) -> None:
    td = connect(secure_broker.host, secure_broker.port, "td", room_creds.td.password)
    try:
        assert td.subscribe("tapis/v1/hub/td/#").value == 1
        secret = b'{"zones": {"seat:4": ["7c", "7d"]}}'
        assert hub.publish(wire.hub_td_state("t3"), secret).value == 0
        assert td.until(wire.hub_td_state("t3"), secret)
        assert td.publish("tapis/v1/hub/tournament/cmd", b'{"command": "pause"}').value == 0
        for topic in (wire.table_commands("t1"), wire.table_events("t1"), wire.hub_table_state("t1")):
            assert td.publish(topic, b"{}").value == NOT_AUTHORIZED
    finally:
        td.close()


def test_reason_codes_reach_an_mqtt_link_user(secure_broker: SecureBroker, room_creds: RoomCredentials) -> None:
    """`MqttLink` (tablewire.mqtt) with a wrong password: `start` raises, `refused` names the reason."""
    from tablewire.mqtt import MqttLink
    link = MqttLink(client_id="bad-table", host=secure_broker.host, port=secure_broker.port,
                    username="table-t1", password="wrong")
    with pytest.raises(ConnectionError):
        link.start(timeout=1)
    assert link.refused == "Not authorized"


def test_mqtt_311_hides_the_refusal_which_is_why_we_use_mqtt_5(secure_broker: SecureBroker,
                                                               room_creds: RoomCredentials, hub: Probe) -> None:
    """DESIGN.md's trap, measured: a 3.1.1 PUBACK has no reason code, so a denied publish looks sent."""
    from paho.mqtt.enums import MQTTProtocolVersion
    old = probe(secure_broker.host, secure_broker.port, "table-t1", room_creds.table("t1").password,
                protocol=MQTTProtocolVersion.MQTTv311)
    try:
        assert not old.connack.get(timeout=5).is_failure
        forged = b'{"forged": true}'
        assert old.publish(wire.table_events("t2"), forged).value == 0  # "Success"
        sentinel = b'{"sentinel": 311}'
        assert old.publish(wire.table_events("t1"), sentinel).value == 0
        assert (wire.table_events("t2"), forged) not in hub.until(wire.table_events("t1"), sentinel)
    finally:
        old.close()


def test_an_mqtt_link_counts_the_publishes_the_broker_refused(secure_broker: SecureBroker,
                                                              room_creds: RoomCredentials, hub: Probe) -> None:
    """A table configured with another table's id keeps its events (no ack comes), and its link says why."""
    from tablewire.mqtt import MqttLink
    from tests.support import wait_until
    creds = room_creds.table("t1")
    link = MqttLink(client_id="table-t1", host=secure_broker.host, port=secure_broker.port,
                    username=creds.username, password=creds.password)
    link.start(timeout=5)
    try:
        forged = wire.encode(wire.DealerPressed(table="t2", boot="forged", seq=1, at=0.0, button="new_hand"))
        for _ in range(3):
            link.publish(wire.table_events("t2"), forged)
        mine = wire.encode(wire.DealerPressed(table="t1", boot="b", seq=1, at=0.0, button="new_hand"))
        link.publish(wire.table_events("t1"), mine)
        refused = {(wire.table_events("t2"), "Not authorized"): 3}
        assert wait_until(lambda: link.publish_refused == refused, 5), link.publish_refused
        assert all(payload != forged for _, payload in hub.until(wire.table_events("t1"), mine))
    finally:
        link.stop()
