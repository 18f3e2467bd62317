"""State of the hand the dealing monitor is watching: where every card is, the deal's progress,
streets, exposures and what remedies allow. Owned and mutated only by `table_agent.dealing`.
Pure data: no IO, no clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from table_agent.dealing_faults import HandContext, Street
from table_agent.events import Zone


@dataclass
class HandState:
    """Everything the monitor knows about the hand in progress (mutable, private)."""

    ctx: HandContext
    order: tuple[int, ...]
    away: set[int]
    deck: str | None
    last_zone: dict[str, Zone] = field(default_factory=dict)  # uid -> zone of its last arrival
    here: dict[str, Zone] = field(default_factory=dict)  # uid -> zone it is on now
    face: dict[str, str] = field(default_factory=dict)  # uid -> card face
    uid_of: dict[str, str] = field(default_factory=dict)  # face -> first uid seen this hand
    held: dict[int, list[str]] = field(default_factory=dict)  # seat -> uids of its hand (last seen there)
    dealt: dict[int, int] = field(default_factory=dict)  # seat -> cards received from the deck
    deal_position: dict[str, int] = field(default_factory=dict)  # uid -> 1-based position
    seat_card_index: dict[str, int] = field(default_factory=dict)  # uid -> 1st, 2nd... card of its seat
    dealt_total: int = 0
    round: int = 0
    pointer: int = 0
    deal_complete: bool = False  # every round dealt
    deal_over: bool = False  # first action or first board card
    order_faulted: bool = False  # a misdeal-class deal fault was raised: stop judging the order
    last_served: int | None = None
    board: list[str] = field(default_factory=list)
    burn: list[str] = field(default_factory=list)
    closed: set[Street] = field(default_factory=set)
    opened: set[Street] = field(default_factory=set)
    faulted_streets: set[Street] = field(default_factory=set)
    boxed_in_deal: int = 0
    boxed_after_deal: int = 0
    exposed: dict[str, int] = field(default_factory=dict)  # uid exposed during the deal -> its seat
    owed: dict[int, int] = field(default_factory=dict)  # seat -> replacement cards still due
    folded: set[int] = field(default_factory=set)
    discarded: dict[int, int] = field(default_factory=dict)  # seat -> cards thrown away (Pineapple)
    dead: set[int] = field(default_factory=set)
    absent_reported: set[int] = field(default_factory=set)
    missing_reported: set[int] = field(default_factory=set)
    muck_reported: set[int] = field(default_factory=set)
    mixed_reported: bool = False
    board_removed_reported: bool = False
    actions_preflop: int = 0
    actions: int = 0
    skipped: int | None = None
    acted_since_skipped: int = 0
    to_act: int | None = None
    exempt_leave: set[str] = field(default_factory=set)  # board cards a remedy moves away
    exempt_arrive: set[str] = field(default_factory=set)  # cards a remedy moves onto the board
    last_flop_to_burn: int = 0  # flop cards still to come before the one a remedy sends to the burn
    premature_to_come: int = 0  # premature cards of a reshuffled street not yet dealt
    free_board_cards: int = 0  # board cards a remedy deals outside the betting gate
    dead_ok: set[str] = field(default_factory=set)  # dead cards a remedy gives back to a seat
    unread: set[Zone] = field(default_factory=set)  # zones whose reader is down now: unknown, not empty
    unread_seen: set[Zone] = field(default_factory=set)  # zones unread at some time in this hand
    void: bool = False  # misdeal or cancelled: nothing more to judge
    now: float = 0.0

    @classmethod
    def for_hand(cls, ctx: HandContext) -> HandState:
        return cls(ctx=ctx, order=ctx.deal_order, away=set(ctx.away), deck=ctx.deck,
                   held={s: [] for s in ctx.seats}, dealt={s: 0 for s in ctx.seats})

    def live(self, seat: int) -> bool:
        return seat in self.ctx.seats and seat not in self.folded and seat not in self.dead
