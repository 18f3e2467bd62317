"""Texts for people: what a ruling says, in French (default) or English.

Consumed by `Ruling.text()` (hub.rulings.model), which puts them together; feeds the TD dashboard
and the table's display. Pure data; the article cited comes from the ruleset tables.
"""

from __future__ import annotations

from collections.abc import Mapping

from tablewire.faults import Decision as D
from tablewire.faults import FaultKind as K

FAULTS: Mapping[str, Mapping[K, str]] = {
    "fr": {
        K.BOXED_CARD: "Feuille morte (carte retournée dans le paquet)",
        K.EXPOSED_CARD: "Carte retournée pendant la donne",
        K.CARD_TO_EMPTY_SEAT: "Carte donnée à un siège vide",
        K.WRONG_DEAL_ORDER: "Mauvais ordre de donne",
        K.SEAT_SKIPPED: "Joueur oublié à la donne",
        K.EXTRA_HOLE_CARD: "Carte en trop",
        K.MISSING_HOLE_CARD: "Carte manquante",
        K.FLOP_WITHOUT_BURN: "Flop sans carte brûlée",
        K.FLOP_TWO_BURNS: "Flop avec deux cartes brûlées",
        K.FLOP_FOUR_CARDS: "Flop à quatre cartes",
        K.PREMATURE_FLOP: "Flop prématuré",
        K.TURN_WITHOUT_BURN: "Turn sans carte brûlée",
        K.RIVER_WITHOUT_BURN: "River sans carte brûlée",
        K.PREMATURE_TURN: "Turn prématurée",
        K.PREMATURE_RIVER: "River prématurée",
        K.BOARD_REMOVED: "Board enlevé prématurément",
        K.UNKNOWN_TAG: "Carte inconnue (paquet irrégulier)",
        K.FOREIGN_CARD: "Carte d'un autre paquet (paquet irrégulier)",
        K.MIXED_DECKS: "Cartes des deux paquets dans le même coup",
        K.DUPLICATE_CARD: "Carte en double (paquet irrégulier)",
        K.DEAD_CARD_IN_HAND: "Carte morte mêlée à la main",
        K.ABSENT_PLAYER: "Joueur absent à la donne",
        K.OUT_OF_TURN: "Action avant son tour",
        K.TIME_EXPIRED: "Temps écoulé",
        K.INSUFFICIENT_BET: "Mise insuffisante",
    },
    "en": {
        K.BOXED_CARD: "Boxed card",
        K.EXPOSED_CARD: "Card exposed during the deal",
        K.CARD_TO_EMPTY_SEAT: "Card dealt to an empty seat",
        K.WRONG_DEAL_ORDER: "Wrong deal order",
        K.SEAT_SKIPPED: "Player skipped in the deal",
        K.EXTRA_HOLE_CARD: "Extra hole card",
        K.MISSING_HOLE_CARD: "Missing hole card",
        K.FLOP_WITHOUT_BURN: "Flop without a burn card",
        K.FLOP_TWO_BURNS: "Flop after two burn cards",
        K.FLOP_FOUR_CARDS: "Four-card flop",
        K.PREMATURE_FLOP: "Premature flop",
        K.TURN_WITHOUT_BURN: "Turn without a burn card",
        K.RIVER_WITHOUT_BURN: "River without a burn card",
        K.PREMATURE_TURN: "Premature turn",
        K.PREMATURE_RIVER: "Premature river",
        K.BOARD_REMOVED: "Board removed prematurely",
        K.UNKNOWN_TAG: "Unknown card (irregular deck)",
        K.FOREIGN_CARD: "Card from another deck (irregular deck)",
        K.MIXED_DECKS: "Cards of both decks in one hand",
        K.DUPLICATE_CARD: "Duplicate card (irregular deck)",
        K.DEAD_CARD_IN_HAND: "Dead card mixed with a hand",
        K.ABSENT_PLAYER: "Player away from the table at the deal",
        K.OUT_OF_TURN: "Action out of turn",
        K.TIME_EXPIRED: "Time expired",
        K.INSUFFICIENT_BET: "Insufficient bet",
    },
}

DECISIONS: Mapping[str, Mapping[D, str]] = {
    "fr": {
        D.SET_ASIDE: "la carte est mise de côté, la donne continue sans changement",
        D.MISDEAL: "fausse donne : les cartes sont remélangées et redonnées par le même donneur, "
                   "blinds et antes rendues",
        D.REPLACE_WITH_BURN: "la carte est morte ; le joueur reçoit en fin de donne la future première "
                             "brûlée ; la carte retournée sera la première brûlée",
        D.CONTINUE: "le coup continue",
        D.DESIGNATE_BURN: "la première carte du flop devient la brûlée, la carte suivante complète le flop",
        D.BURN_TO_FLOP: "la deuxième brûlée devient la première carte du flop ; la dernière du flop "
                        "devient la brûlée de la turn",
        D.EXTRA_CARD_BURN: "la carte en trop devient la brûlée de la rue suivante",
        D.RESHUFFLE_BOARD: "la ou les cartes prématurées sont remélangées avec le talon ; nouvelle(s) "
                           "carte(s) sans brûler",
        D.RIVER_AS_TURN: "on brûle et on sort la future river comme turn ; l'ancienne turn est "
                         "remélangée pour la river, sans brûler",
        D.BOTTOM_CARD: "la brûlée revient sur le talon, la carte sortie est brûlée, la troisième carte "
                       "à partir du bas du talon devient la turn",
        D.BURN_AND_NEXT: "la carte sortie est brûlée et la suivante est exposée",
        D.BURN_AS_FIRST: "la carte en trop est reprise et sera la première brûlée",
        D.HAND_CANCELLED_BETS_RETURNED: "coup annulé : toutes les mises sont rendues à leurs propriétaires",
        D.HAND_CANCELLED_POT_SPLIT: "coup annulé : le pot est partagé entre les joueurs encore en lice, "
                                    "les mises du tour inachevé sont rendues",
        D.HAND_DEAD: "la main est morte",
        D.ACTION_BINDING: "l'action annoncée avant son tour est maintenue",
        D.ACTION_RELEASED: "l'action a changé : le joueur retrouve sa liberté de parole et sa mise",
        D.CALL_OR_FOLD_ONLY: "le joueur oublié ne peut plus que suivre ou passer",
        D.COMPLETED_TO_MIN_RAISE: "la relance est complétée au minimum",
        D.TREATED_AS_CALL: "la mise vaut un simple call",
        D.TD_DECISION: "décision du directeur de tournoi",
        D.BURN_PREMATURE: "la brûlée revient sur le talon, la carte sortie est brûlée ; après les "
                          "enchères on brûle et on sort la carte",
        D.CARD_KEPT: "la carte du donneur n'est pas échangée : il la garde, montrée à tous",
    },
    "en": {
        D.SET_ASIDE: "the card is set aside; the deal goes on unchanged",
        D.MISDEAL: "misdeal: the cards are reshuffled and redealt by the same dealer, blinds and antes back",
        D.REPLACE_WITH_BURN: "the card is dead; the player gets the would-be first burn at the end of the "
                             "deal; the exposed card is the first burn",
        D.CONTINUE: "the hand goes on",
        D.DESIGNATE_BURN: "the first flop card becomes the burn; the next card completes the flop",
        D.BURN_TO_FLOP: "the second burn becomes the first flop card; the last flop card becomes the "
                        "turn's burn",
        D.EXTRA_CARD_BURN: "the extra card becomes the next street's burn",
        D.RESHUFFLE_BOARD: "the premature card(s) are reshuffled into the stub; new card(s) without a burn",
        D.RIVER_AS_TURN: "burn and deal the would-be river as the turn; the old turn is reshuffled for "
                         "the river, without a burn",
        D.BOTTOM_CARD: "the burn goes back on the stub, the exposed card is burned, the third card from "
                       "the bottom is the turn",
        D.BURN_AND_NEXT: "the exposed card is burned and the next card is dealt",
        D.BURN_AS_FIRST: "the extra card is taken back and becomes the first burn",
        D.HAND_CANCELLED_BETS_RETURNED: "hand cancelled: every bet goes back to its owner",
        D.HAND_CANCELLED_POT_SPLIT: "hand cancelled: the pot is shared among live hands, the unfinished "
                                    "round goes back",
        D.HAND_DEAD: "the hand is dead",
        D.ACTION_BINDING: "the out-of-turn action stands",
        D.ACTION_RELEASED: "the action changed: the player is free again, chips back",
        D.CALL_OR_FOLD_ONLY: "the skipped player may only call or fold",
        D.COMPLETED_TO_MIN_RAISE: "the raise is completed to the minimum",
        D.TREATED_AS_CALL: "the bet counts as a call",
        D.TD_DECISION: "tournament director's decision",
        D.BURN_PREMATURE: "the burn goes back on the stub, the exposed card is burned; after the betting, "
                          "burn and deal",
        D.CARD_KEPT: "the dealer's own card is not replaced: he keeps it, shown to all",
    },
}

WORDS: Mapping[str, Mapping[str, str]] = {
    "fr": {"seat": "siège", "hand": "donne", "options": "au choix", "dead": "mains mortes"},
    "en": {"seat": "seat", "hand": "hand", "options": "options", "dead": "dead hands"},
}
