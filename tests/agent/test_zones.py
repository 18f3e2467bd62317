"""Zones: antenna positions become cards arriving in and leaving felt zones, in order."""

from hw.decks import DeckRegistry
from hw.profile import TableProfile
from table_agent.events import BOARD, MUCK, CardArrived, CardLeft, Zone
from table_agent.presence import TagLifted, TagMoved, TagPlaced
from table_agent.zones import ZoneTracker

REG = DeckRegistry.generate(["t1", "t2"])
PROFILE = TableProfile.default("t1", seats=9)
AS = REG.uid_of("t1/A", "As")
KD = REG.uid_of("t1/A", "Kd")


def tracker(antennas: dict[int, Zone] | None = None) -> ZoneTracker:
    return ZoneTracker(antennas=antennas or PROFILE.antenna_map(), lookup=REG.lookup)


def test_arrival_move_and_departure_in_order() -> None:
    z = tracker()
    seat3 = Zone.seat_zone(3)
    out = z.apply(TagPlaced(2, AS, 1.0))
    assert out == [CardArrived(seat3, REG.lookup(AS), 1.0, 1)]
    out = z.apply(TagMoved(2, 11, AS, 2.0))  # antenna 11 is the muck
    assert [(type(e), e.zone, e.order) for e in out] == [(CardLeft, seat3, 2), (CardArrived, MUCK, 3)]
    assert z.cards_in(MUCK)[0].card == "As"
    assert z.apply(TagLifted(11, AS, 3.0))[0] == CardLeft(MUCK, REG.lookup(AS), 3.0, 4)
    assert len(z) == 0


def test_cards_keep_arrival_order_within_a_zone() -> None:
    z = tracker()
    for i, card in enumerate(["Qh", "Jh", "Th"]):
        z.apply(TagPlaced(9, REG.uid_of("t1/A", card), float(i)))
    assert [t.card for t in z.cards_in(BOARD)] == ["Qh", "Jh", "Th"]
    assert [t.card for t in z.snapshot()["board"]] == ["Qh", "Jh", "Th"]


def test_two_antennas_of_one_zone_are_one_zone() -> None:
    antennas = {**PROFILE.antenna_map(), 20: BOARD}
    z = tracker(antennas)
    z.apply(TagPlaced(9, KD, 0.0))
    assert z.apply(TagMoved(9, 20, KD, 0.5)) == []
    assert z.zone_of(KD) == BOARD


def test_unknown_tag_and_foreign_deck_are_reported_as_such() -> None:
    z = tracker()
    unknown = z.apply(TagPlaced(0, "DEADBEEF", 0.0))[0]
    assert unknown.tag.card is None and not unknown.tag.known
    foreign = z.apply(TagPlaced(1, REG.uid_of("t2/A", "As"), 0.1))[0]
    assert foreign.tag.table == "t2" and foreign.tag.deck == "t2/A"


def test_unmapped_antenna_is_counted_not_guessed() -> None:
    z = tracker()
    assert z.apply(TagPlaced(42, AS, 0.0)) == []
    assert z.unmapped_reads == 1 and len(z) == 0
