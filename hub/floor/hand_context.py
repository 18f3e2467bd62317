"""A tournament table's hand as the floor dealt it (hub, floor: the deal -> the store's record and back).

`hand_context` is what the store keeps of a hand in progress (its players and stacks, button and blinds,
level, dead and away seats, the row it started at), `from_context` reads it back for a hub restarted in
that hand, and `dealt_again` places the button and blinds of a hand dealt again. Pure: no IO.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from hub.floor.store import JSON
from hub.rules import Level as HandLevel
from hub.rules import Positions
from hub.rules.positions import next_seat
from hub.tournament.errors import TournamentError


def dealt_again(kept: Positions, players: Iterable[int]) -> Positions:
    """The button and blinds of a hand dealt again (a misdeal, a hand cancelled with every bet returned):
    the same (cdc 6.3, 7.1), on the players the floor deals in now. One who left at the void hand's end (the
    TD's elimination asked during it, a move) gives up his blind as the dead-button rule would have placed
    it without him: the big blind to the next player, no small blind; heads-up, the other one has both."""
    live = set(players)
    big = kept.big_blind if kept.big_blind in live else next_seat(live, kept.big_blind)
    if len(live) == 2:
        other = next_seat(live, big)
        return Positions(button=other, small_blind=other, big_blind=big)
    small = kept.small_blind if kept.small_blind in live and kept.small_blind != big else None
    return Positions(button=kept.button, small_blind=small, big_blind=big)


def hand_context(hand_no: int, players: dict[int, int], positions: Positions, level: HandLevel,
                 row: int, dead: dict[int, str], *, away: dict[int, str] | None = None) -> dict[str, JSON]:
    """The hand's record in the store (config `game/<table>`), kept until the next hand's."""
    return {"hand_no": hand_no, "players": {str(s): v for s, v in sorted(players.items())},
            "positions": [positions.button, positions.small_blind, positions.big_blind],
            "level": [level.sb, level.bb, level.ante, level.bb_ante, level.game], "row": row,
            "dead": {str(s): a for s, a in sorted(dead.items())},
            "away": {str(s): n for s, n in sorted((away or {}).items())}}


def from_context(ctx: JSON | None) -> tuple[int, dict[int, int], Positions, HandLevel, dict[int, str]]:
    """The hand number, players and stacks, positions, level and dead seats of a stored context."""
    if not isinstance(ctx, dict):
        raise TournamentError("no stored context for the hand in progress")
    raw = json.loads(json.dumps(ctx))  # plain types for the checks below
    b, sb, bb = raw["positions"]
    lv = raw["level"]
    players = {int(s): int(v) for s, v in raw["players"].items()}
    game = str(lv[4]) if len(lv) > 4 else "nlhe"  # stored before games had levels: hold'em
    dead = {int(s): str(a) for s, a in raw.get("dead", {}).items()}  # stored before dead seats were: none
    return int(raw["hand_no"]), players, Positions(b, sb, bb), HandLevel(lv[0], lv[1], lv[2], bool(lv[3]), game), dead

