"""`hub.edge.routes.Routes`, the hub link's routing alone: which handlers a message on a topic goes to,
by the filters subscribed (MQTT 5 §4.7), and the remembered wildcard matches following every change
and staying bounded. The link's own tests (`test_hub_link.py`, `test_link_flow.py`) go through it."""

from __future__ import annotations

import pytest

from hub.edge.routes import PATTERN_HITS, Routes
from tablewire.mqtt import Message


class Heard:
    """Routes whose handlers each note what they hear (`name topic`, in the order called), and a
    message on a topic delivered as the link does: to each of its handlers, in order."""

    def __init__(self, routes: Routes) -> None:
        self.routes = routes
        self.heard: list[str] = []

    def add(self, topic_filter: str, name: str) -> None:
        def on(message: Message) -> None:
            self.heard.append(f"{name} {message.topic}")
        self.routes.add(topic_filter, on)

    def deliver(self, *topics: str) -> list[str]:
        for topic in topics:
            for h in self.routes.handlers(topic):
                h(Message(topic, b"", False))
        return self.heard


@pytest.fixture
def heard() -> Heard:
    return Heard(Routes())


@pytest.mark.parametrize(("topic_filter", "topic", "matches"), [
    ("room/+/event", "room/t1/event", True), ("room/+/event", "room/t1/state", False),
    ("room/+/event", "room/t1/event/x", False), ("room/+/event", "room/t1", False),
    ("room/#", "room/t1/event", True), ("room/#", "room", True), ("room/#", "other", False), ("#", "room/t1", True),
    ("room/t1/+", "room/t1/", True), ("+/+", "room", False), ("+", "room", True), ("+", "room/t1", False),
    ("room/+/#", "room/t1", True), ("room/+/#", "room", False), ("+/t1/#", "room/t1/event/x", True),
    ("room/t1/event", "room/t1/event", True), ("room/t1/event", "room/t1", False), ("room/t1", "Room/t1", False),
])
def test_topic_filters_match_as_mqtt_says(heard: Heard, topic_filter: str, topic: str, matches: bool) -> None:
    """§4.7: `+` one level (an empty one too), `#` the rest, the parent level included (`room/#` matches
    `room`); a topic without wildcards only itself, case counted."""
    heard.add(topic_filter, "it")
    assert heard.deliver(topic) == ([f"it {topic}"] if matches else [])


def test_a_topic_goes_to_each_of_its_handlers_in_the_order_added(heard: Heard) -> None:
    heard.add("room/t1/event", "store")
    heard.add("room/t1/event", "screen")
    heard.add("room/t2/event", "other")
    assert heard.deliver("room/t1/event") == ["store room/t1/event", "screen room/t1/event"]
    assert heard.routes.handlers("room/t3/event") == []


def test_overlapping_wildcards_each_call_their_handler_once(heard: Heard) -> None:
    """A message matching two filters goes to both, once each, in the order they were subscribed; the
    same filter subscribed again keeps the last handler only (the broker holds one subscription)."""
    heard.add("room/+/event", "events")
    heard.add("room/#", "all")
    heard.add("room/t1/#", "first")
    heard.add("room/t1/#", "t1")
    assert heard.deliver("room/t1/event") == ["events room/t1/event", "all room/t1/event", "t1 room/t1/event"]


def test_a_topic_with_its_own_handlers_skips_the_wildcards(heard: Heard) -> None:
    """As the link always did: a topic subscribed by name goes to its own handlers only, not also to a
    wildcard matching it (the hub subscribes a table's topics by name or by wildcard, never both)."""
    heard.add("room/#", "all")
    heard.add("room/t1/event", "t1")
    assert heard.deliver("room/t1/event", "room/t2/event") == ["t1 room/t1/event", "all room/t2/event"]


def test_a_filter_starting_with_a_wildcard_never_gets_a_dollar_topic(heard: Heard) -> None:
    """`$SYS/...` reaches the filters naming `$SYS`, never one starting with `+` or `#` (MQTT 5 §4.7.2):
    the hub routes as the broker sends; a topic not starting with `$` still reaches them."""
    for topic_filter, name in (("$SYS/#", "sys"), ("$SYS/broker/+", "broker"), ("#", "all"),
                               ("+/broker/uptime", "any"), ("$SYS/broker/load", "load")):
        heard.add(topic_filter, name)
    said = heard.deliver("$SYS/broker/uptime", "$SYS/broker/load", "SYS/broker/uptime")
    assert said == ["sys $SYS/broker/uptime", "broker $SYS/broker/uptime", "load $SYS/broker/load",
                    "all SYS/broker/uptime", "any SYS/broker/uptime"]


def test_a_removed_wildcard_is_never_called_again_for_a_topic_already_seen(heard: Heard) -> None:
    """The wildcard handlers of a topic are remembered after its first message; removing a filter must
    drop them, or the table just taken out of the room would still reach its old handler."""
    heard.add("room/+/event", "events")
    heard.add("room/#", "all")
    heard.routes.handlers("room/t1/event")  # remembered now
    heard.routes.remove("room/+/event")
    assert heard.deliver("room/t1/event") == ["all room/t1/event"]
    heard.routes.remove("room/#")
    assert heard.routes.handlers("room/t1/event") == []


def test_a_wildcard_added_later_reaches_a_topic_already_seen(heard: Heard) -> None:
    assert heard.routes.handlers("room/t1/event") == []  # remembered as having none
    heard.add("room/+/event", "events")
    assert heard.deliver("room/t1/event") == ["events room/t1/event"]


def test_removing_a_topic_drops_all_its_handlers_and_leaves_the_wildcards(heard: Heard) -> None:
    """Unsubscribing a topic tells the broker to stop sending it: every handler of it goes (as the link
    always did); the wildcards matching it take it from there. Removing twice, or what was never
    added, changes nothing."""
    heard.add("room/t1/event", "store")
    heard.add("room/t1/event", "screen")
    heard.add("room/+/event", "events")
    for topic_filter in ("room/t1/event", "room/t1/event", "room/t9/#"):
        heard.routes.remove(topic_filter)
    assert heard.deliver("room/t1/event") == ["events room/t1/event"]


@pytest.mark.parametrize("remembered", [100, PATTERN_HITS])
def test_remembered_topics_stay_bounded_and_right(remembered: int) -> None:
    """A hub hearing many distinct topics (a long day of tables, or a client publishing junk under the
    room) keeps at most `remembered` of them, and each still gets its handlers after they are dropped."""
    heard = Heard(Routes(remembered=remembered))
    heard.add("room/+/event", "events")
    routes = heard.routes
    most = 0
    for k in range(remembered + 5_000):
        assert len(routes.handlers(f"room/t{k}/event")) == 1
        assert routes.handlers(f"junk/{k}") == []
        most = max(most, len(routes._hits))  # noqa: SLF001 - the bound is what is tested
    assert most <= remembered
    assert len(routes.handlers("room/t0/event")) == 1
