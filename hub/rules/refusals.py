"""What a dealer reads when a press is refused: each refusal reason, in French then English.

Consumed by `hub.room.game` (the `message` of a rejected action or Time call); the reason ids stay in
the events for programs, the texts are for people (STYLE: French first, a complete English). Pure data.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

REFUSALS: Mapping[str, tuple[str, str]] = MappingProxyType({
    "already_pending": ("Une action annoncée hors de son tour attend déjà pour ce siège : elle s'applique à son tour.",
                        "An action out of turn is already held for this seat: it applies when the turn comes."),
    "betting_closed": ("Aucun tour d'enchères n'est ouvert : attendre les cartes du board.",
                       "No betting round is open: wait for the board cards."),
    "cannot_check": ("Impossible de checker : il y a une mise à suivre (suivre, relancer ou passer).",
                     "Cannot check: there is a bet to call (call, raise or fold)."),
    "not_in_hand": ("Ce siège n'a plus d'action dans ce coup (couché ou déjà à tapis).",
                    "This seat has no action left in this hand (folded or already all-in)."),
    "amount_not_above_bet": ("Le montant doit dépasser la mise que ce joueur a déjà devant lui.",
                             "The amount must be above the bet this player already has in front of him."),
    "amount_required": ("Indiquer sur le boîtier le montant de la mise ou de la relance.",
                        "Set the amount of the bet or raise on the panel."),
    "below_call": ("Montant inférieur à la mise à suivre : compléter pour suivre, ou passer.",
                   "Less than the bet to call: complete the call, or fold."),
    "more_than_stack": ("Montant supérieur au tapis du joueur : annoncer tapis si c'est voulu.",
                        "More than the player's stack: press all-in if that is meant."),
    "above_pot_limit": ("Au-dessus du pot (pot-limit) : annoncer au plus le maximum affiché, « pot ».",
                        "Above the pot (pot-limit): state at most the maximum shown, \"pot\"."),
    "raise_not_allowed": ("Relance impossible : les enchères n'ont pas été rouvertes (suivre ou passer).",
                          "No raise possible: the betting was not reopened (call or fold)."),
    "call_or_fold_only": ("Ce joueur ne peut plus que suivre ou passer (action hors de son tour).",
                          "This player may only call or fold (action out of turn)."),
    "no_hand": ("Aucun coup en cours.", "No hand in progress."),
    "td_wait": ("Jeu arrêté : le directeur de tournoi doit décider.",
                "Play stopped: the tournament director must decide."),
    "time_not_to_act": ("Le « Time » se demande sur le joueur qui doit parler.",
                        "Time is called on the player whose turn it is."),
    "time_not_allowed": ("Le règlement ne permet pas à cette personne de demander le « Time ».",
                         "The rules do not let this person call Time."),
    "time_requested": ("Le « Time » est déjà demandé : le directeur de tournoi est appelé et décide.",
                       "Time has already been requested: the tournament director is called and decides."),
    "time_running": ("Le « Time » accordé par le directeur de tournoi court déjà pour ce joueur.",
                     "The Time the tournament director granted is already running for this player."),
    "refused": ("Action refusée par le moteur de règles.", "Action refused by the rules engine."),
})


def message(reason: str | None) -> dict[str, str]:
    """The dealer's text for `reason` (an id above); an unknown id reads as a plain refusal."""
    fr, en = REFUSALS.get(reason or "", REFUSALS["refused"])
    return {"fr": fr, "en": en}
