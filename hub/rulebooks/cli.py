"""`tapis rules check FILE | show ID|FILE | diff A B`: a TD's tools for rulebook files.

The edge of `hub.rulebooks`: reads the files, prints in French what the tables enforce, one line per
rule with its article. A bad file is refused with one line per error naming the key; exit status 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TextIO

import hub.rulebooks as rb
from hub.rulebooks.book import Rulebook, RulebookError
from hub.rulings.engine import clauses_for
from hub.rulings.model import When
from hub.rulings.texts import DECISIONS, FAULTS
from tablewire.faults import FaultKind

WHEN_FR: dict[When, str] = {
    When.ALWAYS: "",
    When.TWO_BOXED_IN_DEAL: "si deux cartes ou plus pendant la donne",
    When.TWO_BOXED_AFTER_DEAL_BETTING: "si deux nouvelles après la donne, des enchères restant possibles",
    When.TWO_BOXED_AFTER_DEAL: "si deux nouvelles après la donne",
    When.TWO_BOXED: "si deux cartes ou plus dans le coup",
    When.SECOND_EXPOSED: "si c'est la deuxième carte retournée",
    When.FIRST_TWO_CARDS: "si c'est la 1re ou la 2e carte de la donne",
    When.DEALER_CARD: "si c'est une carte du donneur",
    When.BUTTON_FIRST_CARD: "si c'est la première carte du bouton",
    When.SMALL_BLIND_ONE_EXTRA: "si la petite blinde a une carte en trop",
    When.LAST_SERVED: "si c'est le dernier servi",
    When.NO_ACTION_YET: "si aucune action n'a eu lieu",
    When.ONE_ACTION: "si une seule action a eu lieu",
    When.SUBSTANTIAL: "si action substantielle ou trois joueurs ont parlé après l'oublié",
    When.LATE_WAKE_UP: "si plus d'un joueur a parlé après l'oublié",
    When.THREE_ACTED_POT_OPENED: "si trois joueurs ont parlé après l'oublié, pot ouvert",
    When.THREE_ACTED: "si trois joueurs ont parlé après l'oublié",
    When.NOT_RECOVERABLE: "si des actions ont eu lieu avec des cartes des deux paquets",
    When.HALF_MIN_RAISE: "si la relance atteint 50 % du minimum (ou a été annoncée)",
    When.HALF_OVER_BET: "si la mise dépasse de 50 % la précédente",
}

# Ruleset field -> (French label, the article topic that field follows)
SETTINGS_FR: dict[str, tuple[str, str]] = {
    "min_raise": ("Relance minimale", "min_raise"),
    "reopen": ("Réouverture après un tapis incomplet", "reopen"),
    "skipped": ("Joueur oublié", "skipped"),
    "skipped_after": ("Joueurs ayant parlé après l'oublié", "skipped"),
    "simultaneous": ("Actions simultanées", "simultaneous"),
    "showdown_order": ("Ordre d'abattage", "showdown_order"),
    "think_seconds": ("Temps de réflexion (s)", "time"),
    "countdown_seconds": ("Décompte final (s)", "time"),
    "time_callers": ("Peuvent demander le temps", "time"),
    "time_needs_td": ("Le directeur accorde le temps", "time"),
    "completion_percent": ("Relance complétée à partir de (%)", "insufficient_raise"),
    "announced_raise_completed": ("Relance annoncée complétée", "announced"),
    "single_chip_is_call": ("Un seul jeton vaut un suivi", "single_chip"),
    "multiple_chips_rule": ("Plusieurs jetons, un de trop : suivi", "multiple_chips"),
    "bb_ante": ("Ante payée par la grosse blinde", "antes"),
    "no_ante_heads_up": ("Pas d'ante en tête-à-tête", "antes"),
    "released_raise_only_if_wagered": ("Joueur libéré : relance seulement s'il avait misé", "out_of_turn"),
    "odd_chips": ("Jetons indivisibles d'un partage", "odd_chip"),
}


# the values of the closed sets, as a TD reads them (the code in brackets is what the file says)
VALUE_FR: dict[str, str] = {
    "increment": "au moins la dernière relance complète", "double": "au moins le double de la mise",
    "full_raise_only": "seule une relance complète rouvre", "cumulative": "les tapis incomplets s'additionnent",
    "double_own": "rouvre si la mise atteint le double de la sienne",
    "call_or_fold": "il ne peut que suivre ou passer", "td_decision": "le directeur décide",
    "dead_if_opened": "main morte si le pot était ouvert",
    "in_order": "prises dans l'ordre", "second_out_of_turn": "la seconde est hors de tour",
    "last_aggressor": "le dernier agresseur", "first_raiser": "le premier relanceur",
    "nearest": "tous au gagnant le plus près à gauche du bouton",
    "one_each": "un chacun aux premiers gagnants à gauche du bouton",
    "player": "un joueur", "self": "le joueur lui-même", "dealer": "le donneur", "official": "le directeur",
    "first_card": "la première carte", "own_last_card": "sa propre dernière carte",
    "button_second_card": "la deuxième carte du bouton", "last_card": "la dernière carte",
    "two_in_a_row_one_with_chips_or_three": "deux actions de suite dont une avec jetons, ou trois",
    "two_in_a_row_with_chips_or_three": "deux actions de suite avec jetons, ou trois",
    "two_actions": "deux actions", "two_with_chips": "deux joueurs ont mis des jetons",
}


def _value(v: object) -> str:
    if isinstance(v, bool):
        return "oui" if v else "non"
    if isinstance(v, frozenset):
        return ", ".join(_value(x) for x in sorted(v, key=str))
    text = str(v)
    return f"{VALUE_FR[text]} [{text}]" if text in VALUE_FR else text


def lines(book: Rulebook) -> dict[str, str]:
    """What the tables enforce, keyed for `diff`: one French line per setting and per clause."""
    rs, out = book.ruleset, {}
    for name, (label, topic) in SETTINGS_FR.items():
        out[f"ruleset.{name}"] = f"{label} : {_value(getattr(rs, name))} — {rs.article(topic)}"
    absent = clauses_for(FaultKind.ABSENT_PLAYER, book.id)
    out["rulings.deadline"] = (f"Le joueur doit être assis à la distribution de : {_value(book.rulings.deadline)}"
                               + (f" — {absent[0][1]}" if absent else ""))
    out["rulings.substantial"] = (f"Plus de fausse donne après : {_value(book.rulings.substantial)} — "
                                  f"{book.rulings.substantial_article}")
    for kind in FaultKind:
        for i, (clause, article) in enumerate(clauses_for(kind, book.id)):
            cond = WHEN_FR[clause.when]
            body = DECISIONS["fr"][clause.decision]
            if clause.options:
                body += " (au choix : " + " / ".join(DECISIONS["fr"][o] for o in clause.options) + ")"
            out[f"faults.{kind.value}[{i}]"] = (f"{FAULTS['fr'][kind]}{' — ' + cond if cond else ''} : "
                                               f"{body} — {article}")
    return out


def _book(name: str) -> Rulebook:
    if name.endswith(".toml"):
        return rb.register(rb.load_file(name))  # clauses_for reads by id
    return rb.get(name)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tapis rules", description="Rulebook files: check, show, compare.")
    sub = p.add_subparsers(dest="cmd", required=True)
    sub.add_parser("check", help="refuse a bad file, one line per error (exit 2)").add_argument("file")
    sub.add_parser("show", help="what the tables enforce, in French, with the articles").add_argument("book",
                                                                                                     metavar="ID|FILE")
    d = sub.add_parser("diff", help="what differs between two rulebooks")
    d.add_argument("a", metavar="A")
    d.add_argument("b", metavar="B")
    return p


def run(argv: Sequence[str], out: TextIO, err: TextIO) -> int:
    args = list(argv)
    if args[:1] == ["rules"]:
        args = args[1:]
    try:
        ns = _parser().parse_args(args)
    except SystemExit as exit_:
        return 2 if exit_.code else 0
    try:
        if ns.cmd == "check":
            book = rb.load_file(ns.file)
            own = sum(len(c) for c in book.rulings.table.values())
            out.write(f"ok: {book.id} ({book.name}), {own} règles, hérite de {book.inherits or '—'}\n")
        elif ns.cmd == "show":
            book = _book(ns.book)
            out.write(f"{book.id} — {book.name}\n")
            for line in lines(book).values():
                out.write(line + "\n")
            for article, text in book.texts.items():  # the club's own articles, in its words
                out.write(f"{article} : « {text} »\n")
        else:
            a, b = lines(_book(ns.a)), lines(_book(ns.b))
            for key in dict.fromkeys([*a, *b]):
                if a.get(key) != b.get(key):
                    out.write(f"{key}\n  - {a.get(key, '(absent)')}\n  + {b.get(key, '(absent)')}\n")
    except RulebookError as error:
        err.write(str(error) + "\n")
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    return run(sys.argv[1:] if argv is None else argv, sys.stdout, sys.stderr)
