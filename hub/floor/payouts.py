"""The prize pool as the floor pays it (hub, floor: the TD's payout form and the tournament -> prizes).

Reads the payout table the TD gave (`--payouts 50,30,20`, `pouques`, a guaranteed pool) from its stored
form, picks it or the ruleset's own, and answers what the desk shows: the prizes won, the prizes still to
play for, and a deal's offer (chip-chop and ICM). Pure: no IO.
"""

from __future__ import annotations

import dataclasses

from hub.floor.store import JSON
from hub.tournament.deal import chip_chop, icm
from hub.tournament.errors import FloorError
from hub.tournament.results import POUQUES_PAYOUTS, PayoutRule, PayoutTier, prizes
from hub.tournament.tournament import Tournament


def payout_rule(t: Tournament, own: PayoutRule | None, guarantee_cents: int) -> PayoutRule | None:
    """The TD's payouts when he gave his own (`--payouts 50,30,20`), else the ruleset's table (pouques 81);
    with the guaranteed prize pool, if any."""
    rule = own or t.state.policy.payouts
    if rule is not None and guarantee_cents:
        rule = dataclasses.replace(rule, guarantee_cents=guarantee_cents)
    return rule


def prizes_won(t: Tournament, rule: PayoutRule | None) -> dict[str, int]:
    """Cents won per player for the standings now (the ruleset's table, else the TD's); the players of
    a deal at the final table win what it gave them, whatever place they finish."""
    if rule is None:
        return {}
    won = prizes(rule, t.state.entries, t.state.buy_in_cents, t.standings())
    won.update(t.state.deal)
    return {player: cents for player, cents in won.items() if cents}


def prizes_to_play(t: Tournament, rule: PayoutRule | None) -> list[int]:
    """The prizes of the places the players left still play for, 1st first (0 for a place not paid)."""
    left = len(t.state.alive())
    paid = list(rule.payouts(t.state.entries, t.state.buy_in_cents, players=t.state.entries)) if rule else []
    return (paid + [0] * left)[:left]


def deal_offer(t: Tournament, rule: PayoutRule | None) -> dict[str, JSON]:
    """What the desk shows before a deal: each player left's chips, his chip-chop and his ICM prize."""
    chips = {p.name: p.chips for p in t.state.alive()}
    still = prizes_to_play(t, rule)
    chop, expected = chip_chop(chips, still), icm(chips, still)
    return {"total_cents": sum(still), "players": [
        {"player": name, "chips": chips[name], "chip_chop": chop[name], "icm": expected[name]}
        for name in sorted(chips, key=lambda n: (-chips[n], n))]}


def guarantee(raw: JSON | None) -> int:
    """The guaranteed prize pool in cents from the stored payout form (0: none, or stored before it was)."""
    value = raw.get("guarantee_cents") if isinstance(raw, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def parse_payouts(raw: JSON | None) -> PayoutRule | None:
    """The TD's payout table from its stored form ({"payouts": ..., "pool_percent": n})."""
    if not isinstance(raw, dict):
        return None
    kind, percent = raw.get("payouts"), raw.get("pool_percent")
    if kind == "pouques":
        return POUQUES_PAYOUTS
    if not isinstance(kind, str) or kind == "ruleset" or not isinstance(percent, int):
        return None
    try:
        points = tuple(round(float(p) * 100) for p in kind.split(","))
    except ValueError as err:
        raise FloorError(f"payouts {kind!r}: percents of the pool, 1st first, e.g. 50,30,20") from err
    if sum(points) != 10_000 or any(p <= 0 for p in points):
        raise FloorError(f"payouts {kind!r} add up to {sum(points) / 100:g} %, not 100 %")
    return PayoutRule(percent, (PayoutTier(0, points),), "TD")
