"""`hub.edge.routes.Routes`, the hub link's routing alone: which handlers a message on a topic goes to,
by the filters subscribed (MQTT 5 §4.7), and the remembered wildcard matches following every change
and staying bounded. The link's own tests (`test_hub_link.py`, `test_link_flow.py`) go through it."""

from __future__ import annotations

import pytest

from hub.edge.routes import PATTERN_HITS, Handler, Routes
from tablewire.mqtt import Message


def handler(heard: list[str], name: str) -> Handler:
    def on(message: Message) -> None:
        heard.append(f"{name} {message.topic}")
    return on


def deliver(routes: Routes, *topics: str) -> None:
    """What the link does with a message on each topic: each of its handlers, called in order."""
    for topic in topics:
        for h in routes.handlers(topic):
            h(Message(topic, b"", False))


@pytest.mark.parametrize(("topic_filter", "topic", "matches"), [
    ("room/+/event", "room/t1/event", True), ("room/+/event", "room/t1/state", False),
    ("room/+/event", "room/t1/event/x", False), ("room/+/event", "room/t1", False),
    ("room/#", "room/t1/event", True), ("room/#", "room", True), ("room/#", "other", False), ("#", "room/t1", True),
    ("room/t1/+", "room/t1/", True), ("+/+", "room", False), ("+", "room", True), ("+", "room/t1", False),
    ("room/+/#", "room/t1", True), ("room/+/#", "room", False), ("+/t1/#", "room/t1/event/x", True),
    ("room/t1/event", "room/t1/event", True), ("room/t1/event", "room/t1", False), ("room/t1", "Room/t1", False),
])
def test_topic_filters_match_as_mqtt_says(topic_filter: str, topic: str, matches: bool) -> None:
    """§4.7: `+` one level (an empty one too), `#` the rest, the parent level included (`room/#` matches
    `room`); a topic without wildcards only itself, case counted."""
    routes = Routes()
    heard: list[str] = []
    routes.add(topic_filter, handler(heard, "it"))
    deliver(routes, topic)
    assert heard == ([f"it {topic}"] if matches else [])


def test_a_topic_goes_to_each_of_its_handlers_in_the_order_added() -> None:
    routes = Routes()
    heard: list[str] = []
    routes.add("room/t1/event", handler(heard, "store"))
    routes.add("room/t1/event", handler(heard, "screen"))
    routes.add("room/t2/event", handler(heard, "other"))
    deliver(routes, "room/t1/event")
    assert heard == ["store room/t1/event", "screen room/t1/event"]
    assert routes.handlers("room/t3/event") == []


def test_overlapping_wildcards_each_call_their_handler_once() -> None:
    """A message matching two filters goes to both, once each, in the order they were subscribed; the
    same filter subscribed again keeps the last handler only (the broker holds one subscription)."""
    routes = Routes()
    heard: list[str] = []
    routes.add("room/+/event", handler(heard, "events"))
    routes.add("room/#", handler(heard, "all"))
    routes.add("room/t1/#", handler(heard, "first"))
    routes.add("room/t1/#", handler(heard, "t1"))
    deliver(routes, "room/t1/event")
    assert heard == ["events room/t1/event", "all room/t1/event", "t1 room/t1/event"]


def test_a_topic_with_its_own_handlers_skips_the_wildcards() -> None:
    """As the link always did: a topic subscribed by name goes to its own handlers only, not also to a
    wildcard matching it (the hub subscribes a table's topics by name or by wildcard, never both)."""
    routes = Routes()
    heard: list[str] = []
    routes.add("room/#", handler(heard, "all"))
    routes.add("room/t1/event", handler(heard, "t1"))
    deliver(routes, "room/t1/event", "room/t2/event")
    assert heard == ["t1 room/t1/event", "all room/t2/event"]


def test_a_filter_starting_with_a_wildcard_never_gets_a_dollar_topic() -> None:
    """`$SYS/...` reaches the filters naming `$SYS`, never one starting with `+` or `#` (MQTT 5 §4.7.2):
    the hub routes as the broker sends; a topic not starting with `$` still reaches them."""
    routes = Routes()
    heard: list[str] = []
    routes.add("$SYS/#", handler(heard, "sys"))
    routes.add("$SYS/broker/+", handler(heard, "broker"))
    routes.add("#", handler(heard, "all"))
    routes.add("+/broker/uptime", handler(heard, "any"))
    routes.add("$SYS/broker/load", handler(heard, "load"))
    deliver(routes, "$SYS/broker/uptime", "$SYS/broker/load", "SYS/broker/uptime")
    assert heard == ["sys $SYS/broker/uptime", "broker $SYS/broker/uptime", "load $SYS/broker/load",
                     "all SYS/broker/uptime", "any SYS/broker/uptime"]


def test_a_removed_wildcard_is_never_called_again_for_a_topic_already_seen() -> None:
    """The wildcard handlers of a topic are remembered after its first message; removing a filter must
    drop them, or the table just taken out of the room would still reach its old handler."""
    routes = Routes()
    heard: list[str] = []
    routes.add("room/+/event", handler(heard, "events"))
    routes.add("room/#", handler(heard, "all"))
    routes.handlers("room/t1/event")  # remembered now
    routes.remove("room/+/event")
    deliver(routes, "room/t1/event")
    assert heard == ["all room/t1/event"]
    routes.remove("room/#")
    assert routes.handlers("room/t1/event") == []


def test_a_wildcard_added_later_reaches_a_topic_already_seen() -> None:
    routes = Routes()
    heard: list[str] = []
    assert routes.handlers("room/t1/event") == []  # remembered as having none
    routes.add("room/+/event", handler(heard, "events"))
    deliver(routes, "room/t1/event")
    assert heard == ["events room/t1/event"]


def test_removing_a_topic_drops_all_its_handlers_and_leaves_the_wildcards() -> None:
    """Unsubscribing a topic tells the broker to stop sending it: every handler of it goes (as the link
    always did); the wildcards matching it take it from there. Removing twice, or what was never
    added, changes nothing."""
    routes = Routes()
    heard: list[str] = []
    routes.add("room/t1/event", handler(heard, "store"))
    routes.add("room/t1/event", handler(heard, "screen"))
    routes.add("room/+/event", handler(heard, "events"))
    routes.remove("room/t1/event")
    routes.remove("room/t1/event")
    routes.remove("room/t9/#")
    deliver(routes, "room/t1/event")
    assert heard == ["events room/t1/event"]


@pytest.mark.parametrize("remembered", [100, PATTERN_HITS])
def test_remembered_topics_stay_bounded_and_right(remembered: int) -> None:
    """A hub hearing many distinct topics (a long day of tables, or a client publishing junk under the
    room) keeps at most `remembered` of them, and each still gets its handlers after they are dropped."""
    routes = Routes(remembered=remembered)
    heard: list[str] = []
    routes.add("room/+/event", handler(heard, "events"))
    most = 0
    for k in range(remembered + 5_000):
        assert len(routes.handlers(f"room/t{k}/event")) == 1
        assert routes.handlers(f"junk/{k}") == []
        most = max(most, len(routes._hits))  # noqa: SLF001 - the bound is what is tested
    assert most <= remembered
    assert len(routes.handlers("room/t0/event")) == 1
