"""Fuzzing every MQTT payload decoder of `tablewire.wire` (table events, commands, acks): arbitrary bytes
and valid payloads with mutated fields or bytes. Only `PayloadError` is ever raised, and what is
accepted is a valid message: it re-encodes to itself and names the table of its topic.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from fuzz_budget import budget, tally
from hypothesis import event, given
from hypothesis import strategies as st
from pydantic import BaseModel

from tablewire import wire
from tablewire.faults import FaultKind

TABLES = st.sampled_from(["t1", "t2", "T-9_x"])
_cards = st.sampled_from([r + s for r in "23456789TJQKA" for s in "cdhs"])
_base = {"v": st.just(1), "boot": st.text("abc0123456789", min_size=1, max_size=8), "seq": st.integers(1, 10**6),
         "at": st.floats(0, 1e6)}


def _event(table: str) -> st.SearchStrategy[dict[str, Any]]:
    common = {**_base, "table": st.just(table)}
    return st.one_of(
        st.fixed_dictionaries({**common, "type": st.sampled_from(["card_arrived", "card_left"]),
                               "zone": st.sampled_from(["seat:1", "seat:10", "board", "burn", "muck", "tray"]),
                               "uid": st.sampled_from(["04A1B2C3", "04A1B2C3D4E5F6"]), "card": _cards,
                               "order": st.integers(1, 60)}),
        st.fixed_dictionaries({**common, "type": st.just("dealer"), "button": st.just("new_hand")}),
        st.fixed_dictionaries({**common, "type": st.just("reader_status"),
                               "state": st.sampled_from(["connected", "lost", "fault"]),
                               "detail": st.text(max_size=10)}),
        st.fixed_dictionaries({**common, "type": st.just("dealer"),
                               "button": st.sampled_from(["new_hand", "away", "back", "time"]),
                               "seat": st.integers(1, 10)}),
        st.fixed_dictionaries({**common, "type": st.just("action"), "seat": st.integers(1, 10),
                               "action": st.sampled_from(["fold", "check", "call", "bet", "raise", "allin"]),
                               "to": st.integers(0, 10**5)}),
        st.fixed_dictionaries({**common, "type": st.just("fault"), "hand": st.integers(1, 500),
                               "kind": st.sampled_from(sorted(k.value for k in FaultKind)),
                               "seat": st.integers(1, 10), "cards": st.lists(_cards, max_size=3)}),
    )


_commands = st.one_of(
    st.fixed_dictionaries({"v": st.just(1), "type": st.just("hand_context"), "hand": st.integers(1, 500),
                           "seats": st.lists(st.integers(1, 10), max_size=10), "button": st.integers(1, 10),
                           "first_to_deal": st.integers(1, 10), "deck": st.sampled_from(["A", "B"]),
                           "table_decks": st.just(["A", "B"])}),
    st.fixed_dictionaries({"v": st.just(1), "type": st.just("betting"), "hand": st.integers(1, 500),
                           "street": st.sampled_from(["preflop", "flop"]), "open": st.booleans(),
                           "to_act": st.integers(1, 10)}),
    st.fixed_dictionaries({"v": st.just(1), "type": st.just("ruling"), "hand": st.integers(1, 500),
                           "kind": st.just("exposed_card"), "decision": st.just("replace"),
                           "cards": st.lists(_cards, max_size=2)}),
    st.fixed_dictionaries({"v": st.just(1), "type": st.just("hand_over"), "hand": st.integers(1, 500),
                           "result": st.text(max_size=12)}),
)

_json = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8) | st.sampled_from(["card_arrived", "dealer", "fault", "seat:1", "Ah", "t1", ""]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
_field_damage = st.lists(st.tuples(st.sampled_from(["replace", "delete", "add"]), st.integers(0, 50), _json,
                                   st.text(max_size=6)), max_size=3)
_byte_damage = st.lists(st.tuples(st.integers(0, 10**4), st.integers(0, 255), st.booleans()), max_size=4)


def _damage(doc: dict[str, Any], fields: list[tuple[str, int, Any, str]],
            raw: list[tuple[int, int, bool]]) -> bytes:
    doc = dict(doc)
    for kind, which, value, name in fields:
        keys = sorted(doc)
        if kind == "add" or not keys:
            doc[name] = value
        elif kind == "delete":
            del doc[keys[which % len(keys)]]
        else:
            doc[keys[which % len(keys)]] = value
    data = bytearray(json.dumps(doc, allow_nan=True).encode())  # NaN and Infinity tokens included
    for where, byte, insert in raw:
        if data:
            if insert:
                data.insert(where % len(data), byte)
            else:
                data[where % len(data)] = byte
    return bytes(data)


def _numbers(model: BaseModel) -> list[float]:
    out: list[float] = []
    for value in model.model_dump().values():
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, int | float) and not isinstance(item, bool):
                out.append(item)
    return out


def _known_gap(model: BaseModel) -> bool:
    """A non-finite `at` or an integer no store can keep: tablewire.wire refuses them (tests below); a guard."""
    return any(isinstance(n, float) and not math.isfinite(n) or abs(n) >= 2**63 for n in _numbers(model))


def _accepted_is_valid(model: BaseModel, decode: Any, topic: str) -> None:
    if _known_gap(model):
        event("accepted: a known gap")
        return
    event("accepted")
    assert decode(topic, wire.encode(model)) == model  # re-encodes to itself


@budget(100)
@given(st.binary(max_size=300), TABLES)
def test_arbitrary_bytes_are_refused_with_payload_error(data: bytes, table: str) -> None:
    tally("payloads: arbitrary bytes")
    for decode, topic in ((wire.decode_table_event, wire.table_events(table)),
                          (wire.decode_command, wire.table_commands(table)),
                          (wire.decode_ack, wire.hub_ack(table))):
        try:
            decode(topic, data)
        except wire.PayloadError:
            continue
        raise AssertionError(f"accepted arbitrary bytes {data!r}")  # not valid JSON for a model: never


@budget(100)
@given(TABLES.flatmap(lambda t: st.tuples(st.just(t), _event(t))), _field_damage, _byte_damage,
       st.sampled_from(["t1", "t2", "other"]))
def test_mutated_table_events(table_doc: tuple[str, dict[str, Any]], fields: list[tuple[str, int, Any, str]],
                              raw: list[tuple[int, int, bool]], topic_table: str) -> None:
    tally("payloads: mutated table events")
    table, doc = table_doc
    topic = wire.table_events(topic_table if fields or raw else table)
    try:
        event = wire.decode_table_event(topic, _damage(doc, fields, raw))
    except wire.PayloadError:
        assert fields or raw, f"an undamaged event was refused: {doc}"  # the strategy makes valid ones
        return
    assert event.table == wire.table_of(topic)  # no table speaks for another
    _accepted_is_valid(event, wire.decode_table_event, topic)


@budget(100)
@given(_commands, _field_damage, _byte_damage)
def test_mutated_commands(doc: dict[str, Any], fields: list[tuple[str, int, Any, str]],
                          raw: list[tuple[int, int, bool]]) -> None:
    tally("payloads: mutated commands")
    try:
        command = wire.decode_command(wire.table_commands("t1"), _damage(doc, fields, raw))
    except wire.PayloadError:
        assert fields or raw, f"an undamaged command was refused: {doc}"
        return
    _accepted_is_valid(command, wire.decode_command, wire.table_commands("t1"))


@budget(100)
@given(st.fixed_dictionaries({"v": st.just(1), "boot": st.text(max_size=8), "seq": st.integers(0, 10**9)}),
       _field_damage, _byte_damage)
def test_mutated_acks(doc: dict[str, Any], fields: list[tuple[str, int, Any, str]],
                      raw: list[tuple[int, int, bool]]) -> None:
    tally("payloads: mutated acks")
    try:
        ack = wire.decode_ack(wire.hub_ack("t1"), _damage(doc, fields, raw))
    except wire.PayloadError:
        return
    _accepted_is_valid(ack, wire.decode_ack, wire.hub_ack("t1"))


def test_deep_nesting_is_a_payload_error() -> None:
    for data in (b"[" * 100_000, b'{"a":' * 10_000, b'{"v":1,"type":"fault","details":' + b"[" * 50_000):
        with pytest.raises(wire.PayloadError):
            wire.decode_table_event(wire.table_events("t1"), data)


_HAND = '{"v":1,"table":"t1","boot":"b","seq":1,"at":%s,"type":"fault","kind":"boxed_card","hand":%s}'


def test_the_template_below_is_valid_as_it_stands() -> None:
    assert wire.decode_table_event(wire.table_events("t1"), (_HAND % ("0.5", "1")).encode()).seq == 1


@pytest.mark.parametrize("at", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_time_is_refused(at: str) -> None:
    with pytest.raises(wire.PayloadError):
        wire.decode_table_event(wire.table_events("t1"), (_HAND % (at, "1")).encode())


def test_unbounded_integers_are_refused() -> None:
    with pytest.raises(wire.PayloadError):
        wire.decode_table_event(wire.table_events("t1"), (_HAND % ("0", "9" * 400)).encode())


@pytest.mark.parametrize("at, hand", [("0", "true"), ("0", "1.0"), ('"1"', "1")])
def test_coerced_types_are_refused(at: str, hand: str) -> None:
    with pytest.raises(wire.PayloadError):
        wire.decode_table_event(wire.table_events("t1"), (_HAND % (at, hand)).encode())
