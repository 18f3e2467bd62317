"""Fuzzing the hub service's message path (`HubService._handle_message`, as paho's messages reach it):
garbage on any topic, then a table game driven by random but well-formed table events. The hub never
raises, never logs an internal error (only `PayloadError`s are counted as malformed), and everything
it publishes is strict JSON.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

from fuzz_budget import budget, tally
from hypothesis import event, given
from hypothesis import strategies as st

from hub.edge.service import HubService
from hub.room.game import TableSetup
from hw.ports import ManualClock
from tablewire import wire
from tablewire.faults import FaultKind
from tablewire.mqtt import Message, MqttLink


class FakeLink:
    """Just enough of `MqttLink` for the service: it records what would be published."""

    def __init__(self) -> None:
        self.published: list[tuple[str, bytes, bool]] = []

    def on_connect(self, hook: Callable[[], None]) -> None:
        pass

    def subscribe(self, pattern: str, handler: Callable[[Message], None], **_options: object) -> Callable[[], None]:
        return lambda: None

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        self.published.append((topic, payload, retain))


def _refuse_constant(name: str) -> Any:
    raise AssertionError(f"published JSON holds {name}")


def _hub() -> tuple[HubService, FakeLink]:
    link = FakeLink()
    return HubService(link=cast(MqttLink, link), clock=ManualClock()), link


def _check_published(hub: HubService, link: FakeLink) -> None:
    internal = [e for e in hub.stats.errors if "internal error" in e]
    assert not internal, internal
    for topic, payload, _ in link.published:
        if topic.startswith("tapis/v1/hub/table/") or topic.startswith("tapis/v1/hub/td/"):
            json.loads(payload, parse_constant=_refuse_constant)  # no NaN / Infinity for browsers
        elif topic.startswith("tapis/v1/hub/ack/"):
            wire.decode_ack(topic, payload)
        elif topic.startswith("tapis/v1/table/") and topic.endswith("/cmd"):
            wire.decode_command(topic, payload)  # the hub never sends what a table would refuse


_tables = st.sampled_from(["t1", "t2", "x" * 32, "a/b", "+", "", "t1/event"])
_topics = st.one_of(
    _tables.map(wire.table_events), _tables.map(wire.table_status), _tables.map(wire.table_commands),
    st.text(max_size=30), st.just("tapis/v1/table"), st.just("tapis/v1/table//event"),
)
_payloads = st.one_of(
    st.binary(max_size=200), st.sampled_from([wire.ONLINE, wire.OFFLINE, b"", b"{}", b"null", b"[]"]),
    st.builds(lambda d: json.dumps(d, allow_nan=True).encode(),
              st.dictionaries(st.sampled_from(["v", "table", "boot", "seq", "at", "type", "hand", "zone", "card"]),
                              st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6)
                              | st.sampled_from(["t1", "dealer", "card_arrived", "seat:1", "Ah"]))),
)


@budget(120)
@given(st.lists(st.tuples(_topics, _payloads, st.booleans()), min_size=1, max_size=20))
def test_garbage_on_any_topic(messages: list[tuple[str, bytes, bool]]) -> None:
    tally("hub: garbage on any topic")
    hub, link = _hub()
    for topic, payload, retain in messages:
        hub._handle_message(Message(topic, payload, retain))
    hub._publish_acks()
    _check_published(hub, link)
    assert hub.stats.received == len(messages)


_cards = st.sampled_from([r + s for r in "23456789TJQKA" for s in "cdhs"])
_seat = st.integers(1, 10)
_table_event = st.one_of(
    st.fixed_dictionaries({"type": st.just("dealer"), "button": st.sampled_from(["new_hand", "away", "back", "time"]),
                           "seat": st.none() | _seat}),
    st.fixed_dictionaries({"type": st.just("action"), "seat": _seat,
                           "action": st.sampled_from(["fold", "check", "call", "bet", "raise", "allin"]),
                           "to": st.none() | st.integers(0, 50_000)}),
    st.fixed_dictionaries({"type": st.sampled_from(["card_arrived", "card_left"]),
                           "zone": st.sampled_from([f"seat:{i}" for i in range(1, 11)]
                                                   + ["board", "burn", "muck", "tray"]),
                           "uid": st.sampled_from(["04A1B2C3", "04A1B2C4", "04A1B2C5"]), "card": st.none() | _cards,
                           "order": st.integers(1, 60)}),
    st.fixed_dictionaries({"type": st.just("fault"), "hand": st.integers(1, 5),
                           "kind": st.sampled_from(sorted(k.value for k in FaultKind)), "seat": st.none() | _seat,
                           "cards": st.lists(_cards, max_size=2)}),
    st.fixed_dictionaries({"type": st.just("dealer"), "button": st.just("new_hand")}),
    st.fixed_dictionaries({"type": st.just("reader_status"), "state": st.sampled_from(["connected", "lost", "fault"])}),
)


@budget(100)
@given(st.sampled_from(["cdc-2013", "brest-2011", "pouques-2020", "pcpm", "cpt87"]),
       st.lists(_seat, min_size=2, max_size=9, unique=True), st.integers(0, 8),
       st.lists(st.tuples(_table_event, st.floats(0, 40)), max_size=60))
def test_a_game_under_random_table_events(ruleset: str, seats: list[int], button_at: int,
                                          events: list[tuple[dict[str, Any], float]]) -> None:
    """Well-formed events in any order a broken or hostile table could send: the game may refuse them,
    never fail on them."""
    tally("hub: a game under random table events")
    hub, link = _hub()
    clock = cast(ManualClock, hub._clock)
    hub._configure("t1", TableSetup(players=dict.fromkeys(seats, 20_000), button=seats[button_at % len(seats)],
                                    ruleset=ruleset))
    hub._handle_message(Message(wire.table_status("t1"), wire.ONLINE, True))
    press = {"type": "dealer", "button": "new_hand"}  # most sequences should reach a hand in play
    for seq, (fields, wait) in enumerate([(press, 0.0)] + events, start=1):
        clock.advance(wait)
        doc = {"v": 1, "table": "t1", "boot": "fuzz", "seq": seq, "at": clock.now(), **fields}
        hub._handle_message(Message(wire.table_events("t1"), json.dumps(doc).encode(), False))
        hub._tick_games()
    hub._publish_acks()
    _check_published(hub, link)
    assert hub.stats.malformed == 0  # every event was well formed: refusals are rulings, not errors
    kinds = {json.loads(p).get("type") for t, p, _ in link.published if t == wire.hub_table_events("t1")}
    for kind in sorted(kinds & {"hand_start", "action", "ruling", "fault", "hand_end"}):
        event(f"published a {kind} event")
