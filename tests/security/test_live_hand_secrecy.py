"""Hole cards of a live hand never reach a non-TD user: a simulated room plays real hands on the
secured broker (`simulators.demo.build_room`, each process with its own broker user) while a dashboard
subscribed to `#` records everything it is given.

The hub's link is also the sentinel's publisher, so "everything before the sentinel" is everything
the hub published during the hands (one publisher, one subscriber: in order).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from secure_broker import SecureBroker, connect

import simulators.demo as demo
from hub.edge.link import HubLink
from hub.edge.security import RoomCredentials
from tablewire import wire
from tablewire.mqtt import MqttLink

HANDS = 3
TABLES = 2


def _username(client_id: str) -> str:
    if client_id == "tapis-hub":
        return "hub"
    return client_id.removeprefix("tapis-")  # tapis-table-t1 -> table-t1


Seen = list[tuple[str, bytes]]


@pytest.fixture(scope="module")
def played(secure_broker: SecureBroker, room_creds: RoomCredentials) -> Iterator[tuple[Seen, Seen]]:
    """(what the dashboard got, what the TD got) over `HANDS` hands on each of two tables."""
    links: dict[str, MqttLink | HubLink] = {}

    def credentialed(*, client_id: str, **kw: Any) -> MqttLink | HubLink:
        """Each process with its own broker user; the hub on its own link, as `tapis hub` runs it."""
        user = room_creds.user(_username(client_id))
        kind = HubLink if client_id == "tapis-hub" else MqttLink
        link = kind(client_id=client_id, username=user.username, password=user.password, **kw)
        links[client_id] = link
        return link

    patch = pytest.MonkeyPatch()
    patch.setattr(demo, "MqttLink", credentialed)
    dash = connect(secure_broker.host, secure_broker.port, "dashboard", room_creds.dashboard.password)
    td = connect(secure_broker.host, secure_broker.port, "td", room_creds.td.password)
    assert dash.subscribe("#").value == 1
    assert td.subscribe("tapis/v1/hub/td/#").value == 1
    room = demo.build_room(tables=TABLES, host=secure_broker.host, port=secure_broker.port, seed=11)
    assert room.hub is not None
    ended: dict[str, int] = {}
    done = threading.Event()

    def on_event(event: dict[str, Any]) -> None:
        if event["type"] == "hand_end":
            ended[event["table"]] = ended.get(event["table"], 0) + 1
            if len(ended) == TABLES and min(ended.values()) >= HANDS:
                done.set()

    room.hub.add_listener(on_event)
    try:
        for _ in range(500):  # configure_table is queued: a croupier started before it finds no game
            if len(room.hub.games) == TABLES:
                break
            time.sleep(0.01)
        for i, table in enumerate(room.tables):
            table.thread = threading.Thread(target=demo.deal, args=(room, table),
                                            kwargs={"hands": HANDS, "pace": 0.02, "seed": 40 + i}, daemon=True)
            table.thread.start()
        assert done.wait(60), f"hands ended: {ended}"
        assert [t.croupier.stuck for t in room.tables if t.croupier] == [0] * TABLES  # every hand played out
        hub = links["tapis-hub"]
        hub.publish(wire.hub_table_events("t1"), SENTINEL)
        hub.publish(wire.hub_td_state("zz"), SENTINEL)
        dash_seen = dash.until(wire.hub_table_events("t1"), SENTINEL)
        td_seen = td.until(wire.hub_td_state("zz"), SENTINEL)
        yield [m for m in dash_seen if m[1] != SENTINEL], [m for m in td_seen if m[1] != SENTINEL]
    finally:
        room.close()
        dash.close()
        td.close()
        patch.undo()


SENTINEL = b'{"sentinel": true}'


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def hole_cards(td_seen: Seen) -> dict[tuple[str, int], dict[str, int]]:
    """Every card dealt to a seat, per (table, hand), with the `seq` of the first TD state showing it there.

    A card still lying where the hand before left it is not one of the new hand's: the reader says a card
    is gone on the board's word or `gone_after` after it was lifted, and a dealer who sweeps the felt and
    presses "new hand" at once is heard in that order (the first states of the new hand still show the
    old cards). Such a placement counts from the time the card has left it and come back."""
    cards: dict[tuple[str, int], dict[str, int]] = {}
    felt: dict[str, dict[str, str]] = {}  # table -> card -> zone, as its last state showed
    kept: dict[str, dict[str, str]] = {}  # table -> the placements from before its hand, not moved since
    hands: dict[str, int] = {}
    for _, payload in td_seen:
        state = json.loads(payload)
        table, hand = state["table"], state["hand"]
        where = {card: zone for zone, held in state["zones"].items() for card in held}
        if hands.get(table) != hand:
            hands[table], kept[table] = hand, dict(felt.get(table, {}))
        left = kept[table]
        for card in [c for c, zone in left.items() if where.get(c) != zone]:
            del left[card]  # moved or gone: from now on it is dealt afresh
        for card, zone in where.items():
            if zone.startswith("seat:") and card not in left:
                cards.setdefault((table, hand), {}).setdefault(card, state["seq"])
        felt[table] = where
    return cards


def _face_up(zone: str) -> bool:
    return not zone.startswith("seat:") and zone not in ("muck", "burn")


def test_td_sees_the_hole_cards(played: tuple[Seen, Seen]) -> None:
    _, td_seen = played
    cards = hole_cards(td_seen)
    assert {table for table, _ in cards} == {f"t{i + 1}" for i in range(TABLES)}
    assert max(len(held) for held in cards.values()) >= 12  # a whole deal: 6 to 9 players, 2 cards each
    assert all(len(card) == 2 and card[0] in "23456789TJQKA" and card[1] in "cdhs"
               for held in cards.values() for card in held)


# Known gaps of hub.room.tables.public (see test_public_views.py): the muck and burn zones are shown face up,
# and fault/ruling events name the cards concerned. Anything else that leaks fails this test outright.
KNOWN_GAPS: tuple[str, ...] = ()  # mucked, burnt and fault-named cards: closed in hub/room/tables.py


def test_no_topic_a_viewer_may_read_carries_td_or_raw_table_data(played: tuple[Seen, Seen]) -> None:
    dash_seen, _ = played
    topics = {topic for topic, _ in dash_seen}
    assert {wire.hub_table_events("t1"), wire.hub_table_state("t1")} <= topics  # the viewer did follow
    assert not any(t.startswith("tapis/v1/hub/td/") for t in topics)
    assert not any(t.startswith("tapis/v1/table/") and not t.endswith("/status") for t in topics)


def test_no_live_hole_card_reaches_a_viewer_subscribed_to_everything(played: tuple[Seen, Seen]) -> None:
    dash_seen, td_seen = played
    secret = hole_cards(td_seen)
    ended: set[tuple[str, int]] = set()
    shown_seq: dict[str, int] = {}  # table -> seq of the last public state: the TD's twin has the same
    leaks: list[tuple[str, str]] = []  # (what leaked it, detail)
    for topic, payload in dash_seen:
        if not topic.startswith("tapis/v1/hub/table/"):
            continue  # statuses: b"online" / b"offline"
        data = json.loads(payload)
        table = data["table"]
        key = (table, data.get("hand", 0))
        if "type" not in data:
            shown_seq[table] = data["seq"]
        if data.get("type") == "hand_end":
            ended.add(key)  # from here the hand is over: a showdown shows the cards
            continue
        if key in ended:
            continue
        live = secret.get(key, {})
        seq = shown_seq.get(table, 0)
        if "type" not in data:  # a retained public state: which zone shows it?
            for zone, held in data["zones"].items():  # a card of the hand before is not live yet
                if isinstance(held, list) and (shown := {c for c in held if c in live and seq >= live[c]}):
                    leaks.append((zone.split(":")[0], f"state hand {key[1]} seq {seq} {zone}: {sorted(shown)}"))
        elif shown := _strings(data) & live.keys():
            if data["type"] == "card" and data.get("action") == "left" and _face_up(str(data["zone"])):
                shown = {c for c in shown if seq >= live[c]}  # the hand before's board, swept as this one began
            kind = data["zone"] if data["type"] == "card" else data["type"]
            if shown:
                detail = f"{data['type']} hand {key[1]} after seq {seq}: {sorted(shown)}"
                leaks.append((str(kind).split(":")[0], detail))
    assert len(ended) >= TABLES * HANDS
    unknown = [detail for kind, detail in leaks if kind not in KNOWN_GAPS]
    assert not unknown, f"live hole cards on public topics: {unknown[:5]}"
    if leaks:
        pytest.xfail(f"{len(leaks)} public messages show live hole cards through known gaps "
                     f"({sorted({kind for kind, _ in leaks})}), e.g. {[d for _, d in leaks][:3]}")
