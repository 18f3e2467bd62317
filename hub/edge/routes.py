"""Which handlers a message goes to, by the topic filters the hub subscribed: `HubLink`'s routing.

`HubLink` (`hub.edge.link`) keeps the MQTT session and hands each message's topic here; `Routes` answers
with its handlers. Most subscriptions name one topic (a dict lookup); a hub without the room's list
hears every table through wildcard filters, matched as MQTT says (§4.7: `+` one level, `#` the rest,
the parent level included; a filter starting with a wildcard never matches a `$` topic, §4.7.2) once
per topic and remembered, for a bounded number of topics. Shared
subscriptions (`$share/...`) are not routed: the hub makes none.

Changed from any thread (`HubLink.subscribe`), read on the link's loop: the wildcard filters are swapped
whole, then the remembered topics dropped, and a lookup reads them in the other order.
"""

from __future__ import annotations

from collections.abc import Callable

from tablewire.mqtt import Message

Handler = Callable[[Message], None]

PATTERN_HITS = 20_000  # topics whose wildcard handlers are remembered (a room has a few per table)


class Routes:
    def __init__(self, *, remembered: int = PATTERN_HITS) -> None:
        """`remembered`: at most this many topics keep their wildcard handlers; past it all are dropped
        and worked out again."""
        self._remembered = remembered
        self._exact: dict[str, list[Handler]] = {}
        self._patterns: dict[str, tuple[list[str], Handler]] = {}  # filter -> (its levels, its handler)
        self._matching: tuple[tuple[list[str], Handler], ...] = ()  # read by the loop, swapped whole
        self._hits: dict[str, list[Handler]] = {}  # topic -> its wildcard handlers, worked out once

    def add(self, topic_filter: str, handler: Handler) -> None:
        """A topic keeps each handler added to it; a wildcard filter keeps one, the last added."""
        if "+" in topic_filter or "#" in topic_filter:
            self._patterns[topic_filter] = (topic_filter.split("/"), handler)
            self._swap()
        else:
            self._exact.setdefault(topic_filter, []).append(handler)

    def remove(self, topic_filter: str) -> None:
        """Every handler of `topic_filter` (the broker stops sending it for all of them); none: nothing."""
        self._patterns.pop(topic_filter, None)
        self._swap()
        self._exact.pop(topic_filter, None)

    def handlers(self, topic: str) -> list[Handler]:
        """The handlers of a message on `topic`: those of the topic itself if it has any, else those of
        every wildcard filter it matches. The list is the routes' own: iterate it, never change it."""
        handlers = self._exact.get(topic)
        if handlers is not None:
            return handlers
        hits = self._hits  # before the filters: a change swaps the filters, then the cache
        handlers = hits.get(topic)
        if handlers is None:
            parts = topic.split("/")
            handlers = [h for levels, h in self._matching if _matches(levels, parts)]
            if len(hits) >= self._remembered:
                hits.clear()  # bounded: a room's topics are a few per table
            hits[topic] = handlers
        return handlers

    def _swap(self) -> None:
        self._matching = tuple(self._patterns.values())
        self._hits = {}


def _matches(levels: list[str], parts: list[str]) -> bool:
    """MQTT topic filter matching (§4.7): `+` one level, `#` the rest; never a `$` topic from a filter
    starting with either (§4.7.2: `#` is not `$SYS/#`)."""
    if parts[0].startswith("$") and levels[0] in ("+", "#"):
        return False
    for k, level in enumerate(levels):
        if level == "#":
            return True
        if k >= len(parts) or (level != "+" and level != parts[k]):
            return False
    return len(levels) == len(parts)
