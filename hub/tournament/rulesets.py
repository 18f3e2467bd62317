"""Floor policies of the five rulebooks as data, each rule with its article (hub, tournament floor).

Consumed by the aggregate, `seating.py` and `balancing.py`; the code stays one, the rulebooks
differ only here (RULES.md §1 and §4). `floor_policy(ruleset_id)` picks one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hub.tournament.errors import TournamentError
from hub.tournament.penalties import BREST_LADDER, CDC_LADDER, CPT87_LADDER, PCPM_LADDER, POUQUES_LADDER, PenaltyStep
from hub.tournament.results import POUQUES_PAYOUTS, ChipRaceRounding, PayoutRule


class RulesetId(StrEnum):
    CDC_2013 = "cdc-2013"
    BREST_2011 = "brest-2011"
    POUQUES_2020 = "pouques-2020"
    PCPM = "pcpm"
    CPT87 = "cpt87"


class Mover(StrEnum):
    FUTURE_BIG_BLIND = "future_big_blind"  # cdc 3.3, brest VI.6; pouques 36 "juste après la GB"


class SeatChoice(StrEnum):
    LEFT_OF_BUTTON = "left_of_button"  # cdc 3.3: nearest free seat to the left of the button
    LEFT_OF_BIG_BLIND = "left_of_big_blind"  # brest VI.6: nearest free seat left of the BB (or BB)
    FARTHEST_FROM_BUTTON = "farthest_from_button"  # pouques 36
    DRAWN = "drawn"  # pcpm, cpt87: drawn at random by the software


class StopReference(StrEnum):
    NONE = "none"
    OTHER_TABLE = "other_table"  # cdc 3.3: three fewer than another table
    # cpt87 3.2 says "three fewer than normal": read as than the fullest table, since a
    # full-table reference would stop every table once all are short (deadlock at 2 tables).


class LeaveWithoutNotice(StrEnum):
    CHIPS_STAY = "chips_stay"  # cdc 2.9, brest IX.5: blinded away, out when the stack is gone
    RANKED_LAST = "ranked_last"  # pcpm, cpt87 2.12: stack removed, ranked last


@dataclass(frozen=True, slots=True)
class FloorPolicy:
    ruleset: RulesetId
    balance_gap: int  # move players when the biggest table has this many more than the smallest
    balance_article: str
    stop_gap: int | None  # play stops at a table this many short (see stop_reference)
    stop_reference: StopReference
    mover: Mover
    seat_choice: SeatChoice
    move_article: str
    break_article: str
    final_table_sizes: dict[int, int]  # seats per table -> final table size
    final_article: str
    late_arrival_levels: int | None  # registered players may arrive until the end of this level
    late_arrival_until_break: bool  # pcpm: until the end of the first break
    late_arrival_full_stack: bool  # cpt87 3.4: the stack is not blinded before arrival
    late_arrival_article: str
    late_registration_levels: int  # new entries on site during the first n levels (pouques 9)
    reentries: int
    reentry_levels: int
    reentry_article: str
    wait_list: bool  # brest II.2
    leave_without_notice: LeaveWithoutNotice
    leave_article: str
    chip_race: ChipRaceRounding
    chip_race_article: str
    penalties: tuple[PenaltyStep, ...]
    hand_for_hand_before_prize_jump: bool  # pouques 39; elsewhere the TD's call (brest I.12)
    bubble_ranked_by_stack: bool  # cdc 2.10: simultaneous bubble eliminations across tables
    elimination_article: str
    payouts: PayoutRule | None
    heads_up_article: str

    def final_table_size(self, seats_per_table: int) -> int:
        if seats_per_table in self.final_table_sizes:
            return self.final_table_sizes[seats_per_table]
        return seats_per_table


_POLICIES: dict[RulesetId, FloorPolicy] = {
    RulesetId.CDC_2013: FloorPolicy(
        RulesetId.CDC_2013, 3, "cdc-2013 3.3", 3, StopReference.OTHER_TABLE,
        Mover.FUTURE_BIG_BLIND, SeatChoice.LEFT_OF_BUTTON, "cdc-2013 3.3", "cdc-2013 3.4",
        {10: 9, 9: 9, 6: 7}, "cdc-2013 3.1, 3.6", 2, False, False, "cdc-2013 2.8", 0, 0, 0, "",
        False, LeaveWithoutNotice.CHIPS_STAY, "cdc-2013 2.9", ChipRaceRounding.HALF_UP,
        "cdc-2013 4.2", CDC_LADDER, False, True, "cdc-2013 2.10", None, "cdc-2013 5.3"),
    RulesetId.BREST_2011: FloorPolicy(
        RulesetId.BREST_2011, 2, "brest-2011 VI.4", None, StopReference.NONE,
        Mover.FUTURE_BIG_BLIND, SeatChoice.LEFT_OF_BIG_BLIND, "brest-2011 VI.6", "brest-2011 VI.11",
        {}, "brest-2011 I.7", 1, False, False, "brest-2011 II.1", 0, 0, 0, "brest-2011 I.9",
        True, LeaveWithoutNotice.CHIPS_STAY, "brest-2011 IX.5", ChipRaceRounding.ALWAYS_UP,
        "brest-2011 X", BREST_LADDER, False, False, "cdc-2013 2.10 (brest silent)", None,
        "brest-2011 VI.13-14"),
    RulesetId.POUQUES_2020: FloorPolicy(
        RulesetId.POUQUES_2020, 2, "pouques-2020 35", None, StopReference.NONE,
        Mover.FUTURE_BIG_BLIND, SeatChoice.FARTHEST_FROM_BUTTON, "pouques-2020 36-37",
        "pouques-2020 35", {10: 9, 9: 9}, "pouques-2020 40", 6, False, False, "pouques-2020 9, 25",
        6, 1, 6, "pouques-2020 7, 22, 32", False, LeaveWithoutNotice.CHIPS_STAY, "pouques-2020 25",
        ChipRaceRounding.HALF_UP, "pouques-2020 33", POUQUES_LADDER, True, False, "pouques-2020 82",
        POUQUES_PAYOUTS, "pouques-2020 34, 72"),
    RulesetId.PCPM: FloorPolicy(
        RulesetId.PCPM, 2, "pcpm équilibrage", None, StopReference.NONE,
        Mover.FUTURE_BIG_BLIND, SeatChoice.DRAWN, "pcpm équilibrage", "pcpm équilibrage",
        {}, "pcpm table finale", None, True, False, "pcpm retards", 0, 0, 0, "",
        False, LeaveWithoutNotice.RANKED_LAST, "pcpm points particuliers", ChipRaceRounding.HALF_UP,
        "pcpm (cdc 4.2)", PCPM_LADDER, False, False, "pcpm (cdc 2.10)", None, "pcpm tête-à-tête"),
    RulesetId.CPT87: FloorPolicy(
        RulesetId.CPT87, 2, "cpt87 3.2", 3, StopReference.OTHER_TABLE,
        Mover.FUTURE_BIG_BLIND, SeatChoice.DRAWN, "cpt87 3.2", "cpt87 3.2",
        {10: 10, 9: 10, 8: 9, 6: 7, 4: 5, 3: 4}, "cpt87 3.3", 2, False, True, "cpt87 3.4",
        0, 0, 0, "", False, LeaveWithoutNotice.RANKED_LAST, "cpt87 2.12", ChipRaceRounding.HALF_UP,
        "cpt87 4.2", CPT87_LADDER, False, False, "cpt87 (cdc 2.10)", None, "cpt87 5.3"),
}


def floor_policy(ruleset: RulesetId | str) -> FloorPolicy:
    try:
        return _POLICIES[RulesetId(ruleset)]
    except ValueError as err:
        raise TournamentError(f"unknown ruleset {ruleset!r}") from err
