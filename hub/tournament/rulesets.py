"""Floor policies of the five rulebooks, each rule with its article (hub, tournament floor).

Consumed by the aggregate, `seating.py` and `balancing.py`; the code stays one, the rulebooks
differ only in the `[tournament]` section of their files (hub/rulebooks/*.toml; RULES.md §1 and §4):
the floor never asks which rulebook it runs, it reads these values. Pure types, built by `hub.rulebooks`
from the files; `hub.tournament.policy.floor_policy(ruleset_id)` picks a seed's, or a club's from the
texts a tournament stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hub.tournament.penalties import PenaltyStep
from hub.tournament.results import ChipRaceRounding, PayoutRule


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


class ButtonDraw(StrEnum):
    PER_TABLE = "per_table"  # a button drawn at each table
    SAME_SEAT = "same_seat"  # pouques 23: one seat number drawn for every table


class ArrivalWait(StrEnum):
    """Who, arriving at a table (moved or late), sits out the next hand (the dead button's consequences)."""

    BEFORE_SMALL_BLIND = "before_small_blind"  # cdc 3.4, brest VI.7, pcpm: between next button and SB
    BESIDE_BUTTON = "beside_button"  # pouques 37: just to the right or just to the left of the button


class LeaveWithoutNotice(StrEnum):
    CHIPS_STAY = "chips_stay"  # cdc 2.9, brest IX.5: blinded away, out when the stack is gone
    RANKED_LAST = "ranked_last"  # pcpm, cpt87 2.12: stack removed, ranked last


@dataclass(frozen=True, slots=True)
class FloorPolicy:
    ruleset: str  # the rulebook's id, the one its tables cite (a club's file: the club's own)
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
    hand_for_hand_article: str
    bubble_ranked_by_stack: bool  # cdc 2.10: simultaneous bubble eliminations across tables
    elimination_article: str
    payouts: PayoutRule | None
    heads_up_article: str
    button_draw: ButtonDraw
    button_article: str
    arrival_wait: ArrivalWait

    def final_table_size(self, seats_per_table: int) -> int:
        if seats_per_table in self.final_table_sizes:
            return self.final_table_sizes[seats_per_table]
        return seats_per_table
