"""Dealing monitor: judges the dealer's card flow as the antennas see it, card by card.

Consumes `CardArrived`/`CardLeft` (from `table_agent.zones`) plus what the hub's engine says
(hand start, betting rounds opened/closed, whose turn it is, actions, remedies); emits
`FaultDetected` at the card that reveals each fault. Pure: no IO, no clock (times come in events).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from table_agent.dealing_faults import BadHandContext, DealingError, HandContext, Street, UnknownRemedy
from table_agent.dealing_state import HandState
from table_agent.events import CardArrived, CardLeft, CardTag, Zone, ZoneKind
from tablewire.faults import Deadline, Decision, FaultDetected, FaultKind

__all__ = [
    "BadHandContext",
    "Deadline",
    "DealingError",
    "DealingMonitor",
    "Decision",
    "FaultDetected",
    "FaultKind",
    "HandContext",
    "Street",
    "UnknownRemedy",
]

_BOARD_START = {Street.FLOP: 0, Street.TURN: 3, Street.RIVER: 4}
_STREET_CARDS = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}
_GATE = {Street.FLOP: Street.PREFLOP, Street.TURN: Street.FLOP, Street.RIVER: Street.TURN}
_DEAD_ZONES = (ZoneKind.MUCK, ZoneKind.BURN, ZoneKind.TRAY)
_HAND_OVER = (Decision.MISDEAL, Decision.HAND_CANCELLED_BETS_RETURNED, Decision.HAND_CANCELLED_POT_SPLIT)
_NOTHING_TO_EXPECT = (Decision.TD_DECISION, Decision.ACTION_BINDING, Decision.ACTION_RELEASED,
                      Decision.CALL_OR_FOLD_ONLY, Decision.COMPLETED_TO_MIN_RAISE, Decision.TREATED_AS_CALL)


def _street_of(position: int) -> Street:
    """Street of the board card at 0-based `position` (a 4th flop card sits at 3 like the turn)."""
    return Street.FLOP if position < 3 else Street.TURN if position == 3 else Street.RIVER


class DealingMonitor:
    """One table's dealing monitor. Observations never raise; commands may raise `DealingError`."""

    def __init__(self, *, table: str) -> None:
        self.table = table
        self._h: HandState | None = None

    # --- commands from the hub -------------------------------------------------------------

    def start_hand(self, ctx: HandContext) -> list[FaultDetected]:
        """Begin watching a hand; the previous one, if any, is closed."""
        self._h = HandState.for_hand(ctx)
        return []

    def end_hand(self) -> None:
        self._h = None

    @property
    def hand(self) -> int | None:
        return None if self._h is None else self._h.ctx.hand

    def set_to_act(self, seat: int | None) -> None:
        if self._h is not None:
            self._h.to_act = seat

    def seat_away(self, seat: int) -> None:
        if self._h is not None:
            self._h.away.add(seat)

    def seat_back(self, seat: int) -> None:
        if self._h is not None:
            self._h.away.discard(seat)

    def betting_opened(self, street: Street) -> list[FaultDetected]:
        if self._h is not None:
            self._h.opened.add(street)
        return []

    def betting_closed(self, street: Street) -> list[FaultDetected]:
        """The round is over (also call it for a street with no betting possible, e.g. all-in)."""
        if self._h is not None:
            self._h.closed.add(street)
            self._h.to_act = None
            self._h.premature_to_come = 0  # cards dealt from now on are not premature
        return []

    def action_seen(
        self, seat: int, to_act: int | None, *, action: str | None = None, at: float | None = None
    ) -> list[FaultDetected]:
        """A player acted on the panel; `to_act` is whose turn it was. Ends the deal.

        Not for blinds and antes (posted by the system). `action="fold"` lets the folded cards reach
        the muck silently; `at` is the press time (default: the last card's time).
        """
        h = self._h
        if h is None or h.void:
            return []
        if at is not None:
            h.now = at
        faults = self._end_deal(h)
        h.actions += 1
        if not h.board:
            h.actions_preflop += 1
        if action == "fold":
            h.folded.add(seat)
        if to_act is None or seat == to_act:
            h.skipped, h.acted_since_skipped = None, 0
            return faults
        if h.skipped == to_act:
            h.acted_since_skipped += 1
        else:
            h.skipped, h.acted_since_skipped = to_act, 1
        faults.append(self._fault(h, FaultKind.OUT_OF_TURN, seat, (), via="panel", action=action,
                                  skipped=to_act, acted_since_skipped=h.acted_since_skipped))
        return faults

    def expect_remedy(
        self, decision: Decision | str, *, cards: Sequence[str] = (), seat: int | None = None,
        dead_seats: Sequence[int] = (),
    ) -> None:
        """Learn the ruling given for the last fault, so the dealer's correction raises nothing.

        `decision` is a decision id of spec/faults.md; `cards` are faces the ruling names (they
        complete what the monitor infers from the fault); `dead_seats` (a `continue` after
        substantial action) are no longer live. Unknown decisions are refused.
        """
        h = self._h
        if h is None:
            return
        try:
            remedy = Decision(decision)
        except ValueError:
            raise UnknownRemedy(f"no remedy known for decision {decision!r}") from None
        h.dead |= set(dead_seats)
        if remedy in _NOTHING_TO_EXPECT:
            return  # the fault stays open: a TD's choice will come as another remedy
        named = {h.uid_of[c] for c in cards if c in h.uid_of}
        street = self._faulted_street(h)
        if remedy in _HAND_OVER:
            h.void = True
        elif remedy is Decision.HAND_DEAD and seat is not None:
            h.dead.add(seat)
        elif remedy is Decision.DESIGNATE_BURN:
            h.exempt_leave |= named or set(h.board[:1])
        elif remedy is Decision.BURN_TO_FLOP:
            h.exempt_arrive |= set(h.burn[1:2]) | (named & set(h.burn))
            dealt = [u for u in h.board if u not in h.exempt_arrive]
            if len(dealt) >= 3:
                h.exempt_leave.add(dealt[2])
            else:  # ruled before the flop was out: its last card, when it comes, goes to the burn
                h.last_flop_to_burn = 3 - len(dealt)
        elif remedy is Decision.EXTRA_CARD_BURN:
            h.exempt_leave |= named or set(h.board[3:4])
        elif remedy in (Decision.RESHUFFLE_BOARD, Decision.RIVER_AS_TURN, Decision.BURN_PREMATURE,
                        Decision.BURN_AND_NEXT):
            faulted = street or _street_of(max(len(h.board) - 1, 0))
            start = _BOARD_START[faulted]
            out = h.board[start:]
            h.exempt_leave |= named | set(out)
            if remedy is Decision.RESHUFFLE_BOARD:
                # Ruled at the first premature card: the rest of that street, still being dealt,
                # goes back into the stub too (cdc 8.3, 8.5).
                h.premature_to_come = max(0, _STREET_CARDS[faulted] - len(out))
        elif remedy is Decision.BOTTOM_CARD:
            h.exempt_leave |= named or set(h.board[3:4])
            h.free_board_cards = 1  # one card, even for a ruling received twice (QoS 1)
        elif remedy is Decision.CARD_KEPT:
            h.dead_ok |= named or {u for u, s in h.exposed.items() if seat is None or s == seat}
            if seat is not None:
                h.owed.pop(seat, None)
        if street is not None:
            h.faulted_streets.discard(street)

    remedy_expected = expect_remedy  # the name used in the task brief

    def zone_unread(self, zone: Zone, unread: bool) -> list[FaultDetected]:
        """That zone's reader is down (`unread`) or reads again. An unread zone is unknown, not empty:
        no fault is raised from it. While a seat is unread in a hand the deal order is not judged
        (its cards are not seen arriving), and a seat still unread at the end of the deal is not short.
        A burn unread in a hand leaves its count unknown: no fault that counts burns (`*_without_burn`,
        `flop_two_burns`, a 4th flop card told from a premature turn); a board unread in a hand leaves
        the board's positions unknown: no board fault from a card's place on it."""
        h = self._h
        if h is None:
            return []
        if unread:
            h.unread.add(zone)
            h.unread_seen.add(zone)
        else:
            h.unread.discard(zone)
        return []

    # --- observations ----------------------------------------------------------------------

    def observe(self, event: CardArrived | CardLeft) -> list[FaultDetected]:
        """Judge one zone event; returns the faults it reveals (often none). Never raises."""
        h = self._h
        if h is None or h.void:
            return []
        h.now = event.at
        uid = event.tag.uid
        if isinstance(event, CardLeft):
            return self._left(h, event.zone, uid)
        old = h.here.get(uid)
        if old == event.zone:
            return []  # the same card seen again where it lies (antenna flicker)
        faults = self._check_tag(h, event.tag, event.zone.seat)
        prev = h.last_zone.get(uid)
        if old is not None:
            faults += self._leave(h, old, uid)  # arrival seen before the departure: the card moved
        h.last_zone[uid] = event.zone
        h.here[uid] = event.zone
        kind = event.zone.kind
        if prev is not None and prev.seat is not None and prev != event.zone:
            hand = h.held.get(prev.seat, [])
            if uid in hand:
                hand.remove(uid)  # the card left that hand for good
        if prev == event.zone and kind is ZoneKind.SEAT:
            return faults  # put back after a look
        if kind is ZoneKind.SEAT and event.zone.seat is not None:
            faults += self._to_seat(h, event.zone.seat, uid, prev)
        elif kind is ZoneKind.TRAY:
            faults += self._to_tray(h, uid, prev)
        elif kind is ZoneKind.BURN:
            faults += self._to_burn(h, uid, prev)
        elif kind is ZoneKind.BOARD:
            faults += self._to_board(h, uid, prev)
        elif kind is ZoneKind.MUCK:
            faults += self._to_muck(h, uid, prev)
        return faults

    # --- card identity -------------------------------------------------------------------------

    def _check_tag(self, h: HandState, tag: CardTag, seat: int | None) -> list[FaultDetected]:
        if not tag.known or tag.card is None:
            return [self._fault(h, FaultKind.UNKNOWN_TAG, seat, (), uid=tag.uid)]
        h.face[tag.uid] = tag.card
        if ((tag.table is not None and tag.table != self.table) or tag.deck not in h.ctx.table_decks
                or tag.card[:1] in h.ctx.excluded_ranks):
            return [self._fault(h, FaultKind.FOREIGN_CARD, seat, (tag.card,), uid=tag.uid, deck=tag.deck)]
        if h.deck is None:
            h.deck = tag.deck
        if tag.deck != h.deck:
            if h.mixed_reported:
                return []
            h.mixed_reported = True
            return [self._fault(h, FaultKind.MIXED_DECKS, seat, (tag.card,), uid=tag.uid,
                                deck=tag.deck, deck_in_play=h.deck, during_deal=not h.deal_over)]
        first = h.uid_of.setdefault(tag.card, tag.uid)
        if first != tag.uid:
            return [self._fault(h, FaultKind.DUPLICATE_CARD, seat, (tag.card,), uid=tag.uid, first_uid=first)]
        return []

    # --- departures ------------------------------------------------------------------------------

    def _left(self, h: HandState, zone: Zone, uid: str) -> list[FaultDetected]:
        if h.here.get(uid) != zone:
            return []  # already seen arriving elsewhere
        del h.here[uid]
        return self._leave(h, zone, uid)

    def _leave(self, h: HandState, zone: Zone, uid: str) -> list[FaultDetected]:
        # a hole card lifted off its antenna (a player looking) stays his until it lands elsewhere
        if zone.kind is ZoneKind.BURN and uid in h.burn:
            h.burn.remove(uid)
        elif zone.kind is ZoneKind.BOARD and uid in h.board:
            h.board.remove(uid)
            if uid in h.exempt_leave:
                h.exempt_leave.discard(uid)
            elif not self._decided(h) and not h.board_removed_reported:
                h.board_removed_reported = True
                return [self._fault(h, FaultKind.BOARD_REMOVED, None, (self._face(h, uid),),
                                    board_left=len(h.board))]
        return []

    def _decided(self, h: HandState) -> bool:
        """No more betting is possible, or one hand is left: the table already knows every card."""
        live = [s for s in h.ctx.seats if h.live(s)]
        return Street.RIVER in h.closed or len(live) <= 1

    # --- arrivals --------------------------------------------------------------------------------

    def _to_seat(self, h: HandState, seat: int, uid: str, prev: Zone | None) -> list[FaultDetected]:
        card = (self._face(h, uid),)
        if seat not in h.ctx.seats:
            h.order_faulted = True
            return [self._fault(h, FaultKind.CARD_TO_EMPTY_SEAT, seat, card, during_deal=not h.deal_over,
                                deal_position=h.dealt_total + 1)]
        if prev is not None and prev.kind in _DEAD_ZONES:
            h.held[seat].append(uid)
            if uid in h.dead_ok:
                h.dead_ok.discard(uid)
                return []
            if h.live(seat) and len(h.held[seat]) > 1:
                return [self._fault(h, FaultKind.DEAD_CARD_IN_HAND, seat, card, came_from=str(prev))]
            return []
        if prev is not None:  # from another seat or the board: only its count can be wrong
            faults = [self._extra(h, seat, uid)] if h.live(seat) and self._full(h, seat) else []
            h.held[seat].append(uid)
            return faults
        faults = self._deal_card(h, seat, uid) if not h.deal_over else []
        if h.deal_over and self._full(h, seat):
            faults.append(self._extra(h, seat, uid))
        h.held[seat].append(uid)
        faults += self._absent_check(h, seat)
        return faults

    def _deal_card(self, h: HandState, seat: int, uid: str) -> list[FaultDetected]:
        """A card from the deck reaches a dealt-in seat during the deal: judge the order."""
        h.dealt_total += 1
        h.dealt[seat] += 1
        h.deal_position[uid] = h.dealt_total
        h.seat_card_index[uid] = h.dealt[seat]
        card = (self._face(h, uid),)
        if h.deal_complete:
            if h.owed.get(seat, 0) > 0:
                h.owed[seat] -= 1
                return []
            if self._full(h, seat):
                return [self._extra(h, seat, uid)]
            return []  # a short seat made whole after the rounds
        if h.order_faulted or any(z.kind is ZoneKind.SEAT for z in h.unread_seen):
            return []  # (a seat unread during the deal: its cards were not seen, the order is unknown)
        faults: list[FaultDetected] = []
        idx = h.order.index(seat)
        if h.round == 0 and h.pointer == 0 and idx != 0:
            h.order_faulted = True
            return [self._fault(h, FaultKind.WRONG_DEAL_ORDER, seat, card, expected_seat=h.order[0],
                                deal_position=h.dealt_total, round=1)]
        skip_round = h.round + 1  # 1-based round the skipped seats were due a card in
        if idx >= h.pointer:
            skipped = h.order[h.pointer:idx]
        elif idx == 0 and h.round + 1 < h.ctx.hole_cards:
            skipped = h.order[h.pointer:]  # a new round began before this one was finished
            h.round += 1
        else:
            h.order_faulted = True
            return [self._fault(h, FaultKind.WRONG_DEAL_ORDER, seat, card, expected_seat=h.order[h.pointer],
                                deal_position=h.dealt_total, round=h.round + 1)]
        for s in skipped:
            faults.append(self._fault(h, FaultKind.SEAT_SKIPPED, s, card, round=skip_round,
                                      served_seat=seat, deal_position=h.dealt_total))
        if skipped:
            h.order_faulted = True
        h.pointer = idx + 1
        h.last_served = seat
        if h.pointer == len(h.order):
            h.round += 1
            h.pointer = 0
            if h.round >= h.ctx.hole_cards:
                h.deal_complete = True
        return faults

    @staticmethod
    def _full(h: HandState, seat: int) -> bool:
        """The seat already holds every card the variant leaves in a hand."""
        return len(h.held[seat]) >= h.ctx.hole_cards - h.discarded.get(seat, 0)

    def _extra(self, h: HandState, seat: int, uid: str) -> FaultDetected:
        held = len(h.held[seat]) + 1
        return self._fault(h, FaultKind.EXTRA_HOLE_CARD, seat, (self._face(h, uid),),
                           held=held, extra=held - h.ctx.hole_cards, small_blind=seat == h.ctx.small_blind_seat,
                           last_served=seat == h.order[-1], during_deal=not h.deal_over)

    def _absent_check(self, h: HandState, seat: int) -> list[FaultDetected]:
        """Seats away when the ruleset's deadline card is dealt have dead hands."""
        deadline = h.ctx.deadline
        due: set[int] = set()
        if deadline is Deadline.FIRST_CARD and h.dealt_total == 1:
            due = set(h.away)
        elif deadline is Deadline.OWN_LAST_CARD and h.dealt.get(seat) == h.ctx.hole_cards:
            due = {seat} & h.away
        elif deadline is Deadline.BUTTON_SECOND_CARD and seat == h.order[-1] and h.dealt[seat] == 2:
            due = set(h.away)
        elif deadline is Deadline.LAST_CARD and h.deal_complete and seat == h.last_served:
            due = set(h.away)
        faults = []
        for s in sorted(due & set(h.ctx.seats) - h.absent_reported):
            h.absent_reported.add(s)
            h.dead.add(s)
            faults.append(self._fault(h, FaultKind.ABSENT_PLAYER, s, (), deadline=str(deadline),
                                      deal_position=h.dealt_total))
        return faults

    def _to_tray(self, h: HandState, uid: str, prev: Zone | None) -> list[FaultDetected]:
        card = (self._face(h, uid),)
        if prev is None:
            if h.deal_over:
                h.boxed_after_deal += 1
            else:
                h.boxed_in_deal += 1
            return [self._fault(h, FaultKind.BOXED_CARD, None, card, during_deal=not h.deal_over,
                                boxed_in_deal=h.boxed_in_deal, boxed_after_deal=h.boxed_after_deal)]
        if prev.kind is ZoneKind.SEAT and prev.seat is not None and not h.deal_over:
            seat = prev.seat
            h.exposed[uid] = seat
            h.owed[seat] = h.owed.get(seat, 0) + 1
            button_first = seat == h.ctx.button and h.seat_card_index.get(uid) == 1
            return [self._fault(h, FaultKind.EXPOSED_CARD, seat, card, during_deal=True,
                                deal_position=h.deal_position.get(uid, 0), exposed_count=len(h.exposed),
                                dealer_card=seat == h.ctx.dealer, button_first_card=button_first,
                                seat_card=h.seat_card_index.get(uid, 0), last_served=seat == h.order[-1],
                                deal_complete=h.deal_complete)]
        return []

    @staticmethod
    def _unknown(h: HandState, kind: ZoneKind) -> bool:
        """A zone of this kind was unread at some time in this hand: what it holds is not known."""
        return any(z.kind is kind for z in h.unread_seen)

    def _to_burn(self, h: HandState, uid: str, prev: Zone | None) -> list[FaultDetected]:
        h.burn.append(uid)
        if self._unknown(h, ZoneKind.BURN) or self._unknown(h, ZoneKind.BOARD):
            return []  # two burns counted, but one may have gone unseen, or a flop card
        if not h.board and len(h.burn) == 2 and Street.FLOP not in h.faulted_streets:
            h.faulted_streets.add(Street.FLOP)
            return [self._fault(h, FaultKind.FLOP_TWO_BURNS, None, tuple(self._face(h, u) for u in h.burn),
                                burns=2)]
        return []

    def _to_board(self, h: HandState, uid: str, prev: Zone | None) -> list[FaultDetected]:
        faults = self._end_deal(h)
        position = len(h.board)
        h.board.append(uid)
        street = _street_of(position)
        if uid in h.exempt_arrive:
            h.exempt_arrive.discard(uid)
            return faults
        if h.premature_to_come and prev is None:
            h.premature_to_come -= 1
            h.exempt_leave.add(uid)
            return faults
        if h.last_flop_to_burn and prev is None and street is Street.FLOP:
            h.last_flop_to_burn -= 1
            if not h.last_flop_to_burn:
                h.exempt_leave.add(uid)  # cdc 8.3 / brest III.15: the turn's burn, once dealt
        if street in h.faulted_streets:
            return faults  # the rest of a street already ruled on: one fault per street
        if h.free_board_cards > 0:
            h.free_board_cards -= 1
            return faults
        if position not in (0, 3, 4):
            return faults  # 2nd/3rd flop card, or beyond the river: judged with the first
        if self._unknown(h, ZoneKind.BOARD):
            return faults  # cards may have landed unseen: this one's place on the board is not known
        card = (self._face(h, uid),)
        burns = len(h.burn)
        counted = not self._unknown(h, ZoneKind.BURN)  # a burn unread in this hand: its count is not known
        gate_open = _GATE[street] not in h.closed
        kind: FaultKind | None = None
        if street is Street.FLOP:
            kind = (FaultKind.PREMATURE_FLOP if gate_open
                    else FaultKind.FLOP_WITHOUT_BURN if burns < 1 and counted else None)
        elif street is Street.TURN:
            if gate_open and counted:
                kind = FaultKind.PREMATURE_TURN if burns >= 2 else FaultKind.FLOP_FOUR_CARDS
                street = Street.TURN if burns >= 2 else Street.FLOP
            elif not gate_open and burns < 2 and counted:
                kind = FaultKind.TURN_WITHOUT_BURN
        elif gate_open:
            kind = FaultKind.PREMATURE_RIVER
        elif burns < 3 and counted:
            kind = FaultKind.RIVER_WITHOUT_BURN
        if kind is None:
            return faults
        h.faulted_streets.add(street)
        faults.append(self._fault(h, kind, None, card, board_position=position + 1, burns=burns,
                                  actions_preflop=h.actions_preflop, round_open=gate_open))
        return faults

    def _to_muck(self, h: HandState, uid: str, prev: Zone | None) -> list[FaultDetected]:
        if prev is None or prev.kind is not ZoneKind.SEAT or prev.seat is None:
            return []
        seat = prev.seat
        if seat not in h.ctx.seats or not h.live(seat):
            return []
        if h.discarded.get(seat, 0) < h.ctx.discards and h.held[seat]:
            h.discarded[seat] = h.discarded.get(seat, 0) + 1
            return []  # a discard (Pineapple): the hand plays on
        decided = self._decided(h)  # e.g. the last hand left, mucked unshown: no one is to act
        h.folded.add(seat)  # hole cards in the muck: the hand is folded
        faults = self._end_deal(h)
        if h.to_act is not None and h.to_act != seat and not decided and seat not in h.muck_reported:
            h.muck_reported.add(seat)
            faults.append(self._fault(h, FaultKind.OUT_OF_TURN, seat, (self._face(h, uid),), via="muck",
                                      skipped=h.to_act, acted_since_skipped=1))
        return faults

    # --- end of the deal ------------------------------------------------------------------------

    def _end_deal(self, h: HandState) -> list[FaultDetected]:
        """First action or first board card: every live seat must hold its hole cards."""
        if h.deal_over:
            return []
        h.deal_over = True
        if h.order_faulted:
            return []
        faults = []
        for seat in h.order:
            short = len(h.held[seat]) < h.ctx.hole_cards and Zone.seat_zone(seat) not in h.unread
            if short and h.live(seat) and h.owed.get(seat, 0) == 0 and seat not in h.missing_reported:
                h.missing_reported.add(seat)
                faults.append(self._fault(h, FaultKind.MISSING_HOLE_CARD, seat,
                                          tuple(self._face(h, u) for u in h.held[seat]),
                                          held=len(h.held[seat]), last_served=seat == h.order[-1]))
        return faults

    # --- helpers ---------------------------------------------------------------------------------

    def _faulted_street(self, h: HandState) -> Street | None:
        for street in (Street.RIVER, Street.TURN, Street.FLOP):
            if street in h.faulted_streets:
                return street
        return None

    @staticmethod
    def _face(h: HandState, uid: str) -> str:
        return h.face.get(uid, f"tag:{uid}")

    def _fault(self, h: HandState, kind: FaultKind, seat: int | None, cards: tuple[str, ...],
               **details: object) -> FaultDetected:
        return FaultDetected(kind=kind, hand=h.ctx.hand, seat=seat, cards=cards, at=h.now,
                             details=MappingProxyType(dict(details)))
