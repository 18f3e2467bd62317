"""Which card a tag is, as the registry says (spec/faults.md `foreign_card`, `mixed_decks`,
`duplicate_card`): each fault names the seat, the card face, the tag's UID and what the TD needs to
find the card (its deck, the deck in play, the first tag of a duplicated face). Found by mutants
of `_check_tag` in table_agent/dealing.py that survived the dealing tests (docs/testing.md)."""

from __future__ import annotations

from table_agent.dealing import DealingMonitor, FaultDetected, HandContext
from table_agent.dealing import FaultKind as K
from table_agent.dealing_script import TableScript, card_tag
from table_agent.events import CardArrived, CardTag, Zone


def _table() -> TableScript:
    t = TableScript(DealingMonitor(table="t1"))
    t.monitor.start_hand(HandContext(hand=4, seats=(1, 2, 3), button=3, first_to_deal=1))
    return t


def _tag_to_seat(t: TableScript, seat: int, tag: CardTag) -> list[FaultDetected]:
    t.order += 1
    return t.monitor.observe(CardArrived(Zone.seat_zone(seat), tag, float(t.order), t.order))


def test_a_second_tag_of_the_same_face_is_a_duplicate_naming_both_tags() -> None:
    t = _table()
    t.hole(1, "As")
    out = t.hole(2, "As#2")
    assert [(f.kind, f.seat, f.cards) for f in out] == [(K.DUPLICATE_CARD, 2, ("As",))]
    assert (out[0].details["uid"], out[0].details["first_uid"]) == (card_tag("As#2").uid, card_tag("As").uid)


def test_a_card_of_another_tables_deck_is_foreign_even_with_the_same_deck_letter() -> None:
    t = _table()
    out = _tag_to_seat(t, 1, CardTag(uid="A1230", card="As", deck="A", table="t2"))
    assert [(f.kind, f.seat, f.cards, f.details["uid"], f.details["deck"]) for f in out] == [
        (K.FOREIGN_CARD, 1, ("As",), "A1230", "A")]


def test_a_tag_of_an_unassigned_deck_of_the_tables_letter_is_no_foreign_card() -> None:
    t = _table()
    assert _tag_to_seat(t, 1, CardTag(uid="A1230", card="As", deck="A", table=None)) == []


def test_the_tables_second_deck_mixed_in_is_reported_once_with_both_decks() -> None:
    t = _table()
    t.hole(1, "As")
    out = t.hole(2, "Kd@B")
    assert [(f.kind, f.seat, f.cards) for f in out] == [(K.MIXED_DECKS, 2, ("Kd",))]
    d = out[0].details
    assert (d["uid"], d["deck"], d["deck_in_play"], d["during_deal"]) == (card_tag("Kd@B").uid, "B", "A", True)
    assert t.hole(3, "Qh@B") == []


def test_a_foreign_card_is_reported_wherever_it_lands() -> None:
    t = _table()
    t.hole(1, "As")
    for zone, spec in ((Zone.parse("tray"), "2s@Z"), (Zone.parse("board"), "3s@Z"), (Zone.parse("muck"), "4s@Z")):
        out = t.arrive(zone, spec)
        assert K.FOREIGN_CARD in [f.kind for f in out], (zone, out)


def test_an_unknown_tag_moved_is_reported_again_where_it_lands() -> None:
    """The arrival can be read before the departure (two antennas): the card moved, and its tag is
    still in no deck."""
    t = _table()
    t.hole(1, "tag:0badc0de")
    out = t.arrive(Zone.seat_zone(2), "tag:0badc0de")  # no departure from seat 1 read yet
    assert [(f.kind, f.seat) for f in out] == [(K.UNKNOWN_TAG, 2)]


def test_a_card_taken_off_an_empty_seat_raises_nothing_more() -> None:
    t = _table()
    assert [f.kind for f in t.hole(8, "As")] == [K.CARD_TO_EMPTY_SEAT]
    assert t.move("As", Zone.parse("muck")) == []
