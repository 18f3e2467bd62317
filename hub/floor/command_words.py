"""A TD command's refusal in plain words, French first then English (hub, floor: commands -> the TD).

Consumes a pydantic `ValidationError` of `hub.floor.commands` (never shown as is: "Input tag 'x' found
using 'cmd'..." is developer text) or a refusal of the tournament core, and emits one sentence per
language. Pure: no IO. The core's refusals are English; `in_french` knows the ones a TD meets.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

# What each field of a command is called on the page.
FIELDS: Mapping[str, tuple[str, str]] = {
    "player": ("le nom du joueur", "the player's name"), "players": ("les noms des joueurs", "the players' names"),
    "table": ("la table (t1, t2…)", "the table (t1, t2…)"), "seat": ("le siège", "the seat"),
    "seconds": ("la durée", "the time"), "level": ("le niveau", "the level"),
    "action": ("l'action", "the action"), "kind": ("le type de pénalité", "the kind of penalty"),
    "amount": ("le nombre", "the amount"), "name": ("le nom du tournoi", "the tournament's name"),
    "ruleset": ("le règlement", "the ruleset"),
    "small_value": ("la valeur de la petite plaque", "the small chip's value"),
    "big_value": ("la valeur de la plaque supérieure", "the bigger chip's value"),
    "leftovers": ("les petites plaques des joueurs", "the players' small chips"),
    "on": ("marche ou arrêt", "on or off"),
    "by": ("le nom du DT", "the TD's name"), "reason": ("le motif", "the reason"),
    "buy_in_cents": ("le droit d'entrée", "the buy-in"), "payouts": ("la répartition des prix", "the payouts"),
    "day": ("le jour", "the day"),
}


def plain_error(err: ValidationError, payload: object) -> str:
    """The first problem of a command, "French / English"."""
    first = err.errors()[0]
    kind, loc, ctx = first["type"], [str(p) for p in first["loc"]], first.get("ctx") or {}
    if kind in ("union_tag_invalid", "union_tag_not_found", "model_attributes_type", "model_type",
                "json_invalid", "dict_type"):
        name = _cmd_name(payload)
        if kind == "union_tag_invalid" and name:
            return f"commande inconnue « {name[:40]} » / unknown command '{name[:40]}'"
        return "commande illisible : un objet JSON avec « cmd » / unreadable command: a JSON object with 'cmd'"
    field = next((p for p in reversed(loc) if p in FIELDS), None)
    fr, en = FIELDS[field] if field else ("un champ", "a field")
    if field is None and kind == "extra_forbidden":
        extra = _shown(loc[-1]) if loc else "?"
        return f"champ inconnu « {extra} » / unknown field '{extra}'"
    if kind == "missing":
        return f"{fr} manque / {en} is missing"
    return f"{_fr(kind, ctx, fr)} / {_en(kind, ctx, en)}"


def _cmd_name(payload: object) -> str:
    if isinstance(payload, dict):
        return _shown(str(payload.get("cmd", "")))
    match = re.search(rb'"cmd"\s*:\s*"([^"]{0,40})"', payload if isinstance(payload, bytes) else str(payload).encode())
    return _shown(match.group(1).decode("utf-8", "replace")) if match else ""


def _shown(text: str) -> str:
    """Echoed on one line: a line break or a control character sent by a script shows as "?"."""
    return "".join(c if c.isprintable() else "?" for c in text[:40])


def _fr(kind: str, ctx: Mapping[str, Any], what: str) -> str:
    if kind in ("greater_than", "greater_than_equal"):
        return f"{what} : au moins {_n(ctx.get('gt', ctx.get('ge')), kind == 'greater_than')}"
    if kind in ("less_than", "less_than_equal"):
        return f"{what} : au plus {ctx.get('lt', ctx.get('le'))}"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"{what} : un nombre entier"
    if kind in ("float_parsing", "float_type", "finite_number"):
        return f"{what} : un nombre"
    if kind in ("string_too_short",):
        return f"{what} ne peut pas être vide"
    if kind in ("string_too_long", "too_long"):
        return f"{what} est trop long"
    if kind == "literal_error":
        return f"{what} : une valeur parmi {ctx.get('expected', '')}"
    if kind == "value_error":
        return f"{what} : texte lisible, sans espace au début ni à la fin, sans retour à la ligne"
    return f"{what} n'est pas valable"


def _en(kind: str, ctx: Mapping[str, Any], what: str) -> str:
    if kind in ("greater_than", "greater_than_equal"):
        return f"{what}: at least {_n(ctx.get('gt', ctx.get('ge')), kind == 'greater_than')}"
    if kind in ("less_than", "less_than_equal"):
        return f"{what}: at most {ctx.get('lt', ctx.get('le'))}"
    if kind in ("int_parsing", "int_type", "int_from_float"):
        return f"{what}: a whole number"
    if kind in ("float_parsing", "float_type", "finite_number"):
        return f"{what}: a number"
    if kind in ("string_too_short",):
        return f"{what} cannot be empty"
    if kind in ("string_too_long", "too_long"):
        return f"{what} is too long"
    if kind == "literal_error":
        return f"{what}: one of {ctx.get('expected', '')}"
    if kind == "value_error":
        return f"{what}: printable text, no leading or trailing spaces, no line breaks"
    return f"{what} is not valid"


def _n(bound: object, strict: bool) -> str:
    """`gt=0` reads "at least 1" for a whole number; a float bound stays as is."""
    if isinstance(bound, int) and strict:
        return str(bound + 1)
    return f"{bound:g}" if isinstance(bound, float) else str(bound)


# The core's refusals a TD meets at the desk, in French (pattern on the English text -> French).
_FRENCH: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), f) for p, f in (
    (r"^(.+) is already entered \(one entry per person\)$", r"\1 est déjà inscrit (une seule entrée par personne)"),
    (r"^(.+) is already entered$", r"\1 est déjà inscrit"),
    (r"^registration is closed \((.+)\)$", r"les inscriptions sont closes (\1)"),
    (r"^a late registration is made in person$", "une inscription tardive se fait en personne"),
    (r"^(.+) has already arrived$", r"\1 est déjà arrivé"),
    (r"^(.+) arrived too late \((.+)\)$", r"\1 est arrivé trop tard (\2)"),
    (r"^no re-entry under (.+) \(freezeout\)$", r"pas de réentrée sous \1 (freezeout)"),
    (r"^(.+) is not eliminated$", r"\1 n'est pas éliminé"),
    (r"^(.+) has used his re-entry \((.+)\)$", r"\1 a déjà utilisé sa réentrée (\2)"),
    (r"^re-entry closed after level (\d+) \((.+)\)$", r"réentrées closes après le niveau \1 (\2)"),
    (r"^no wait-list under (.+)$", r"pas de liste d'attente sous \1"),
    (r"^the wait-list is empty$", "la liste d'attente est vide"),
    (r"^a wait-list player enters after an elimination \((.+)\)$",
     r"un joueur de la liste d'attente entre après une élimination (\1)"),
    (r"^unknown player '(.+)'$", r"joueur inconnu « \1 »"),
    (r"^(.+) is not playing$", r"\1 ne joue pas"),
    (r"^(.+) has no seat$", r"\1 n'a pas de siège"),
    (r"^Table (\d+) is in a hand: remove (.+) when it ends$", r"Table \1 joue une donne : retirer \2 à la fin"),
    (r"^Table (\d+) is in a hand: move (.+) when it ends$",
     r"Table \1 joue une donne : déplacer \2 quand elle sera finie"),
    (r"^(.+) is already out at the end of this hand$", r"\1 sort déjà à la fin de cette donne"),
    (r"^(.+) already moves when this hand ends \(undo that move to change it\)$",
     r"\1 change déjà de table à la fin de cette donne (annuler ce déplacement pour le changer)"),
    (r"^(.+) is out$", r"\1 est éliminé"),
    (r"^(.+) was moved meanwhile$", r"\1 a été déplacé entre-temps"),
    (r"^a deal needs at least two players left$", r"un accord demande au moins deux joueurs restants"),
    (r"^a deal is between 2 and (\d+) players, not (\d+)$", r"un accord se fait entre 2 et \1 joueurs, pas \2"),
    (r"^(\d+) players and (\d+) prizes still to pay$", r"\1 joueurs et \2 prix encore à payer"),
    (r"^every player in the deal has chips, every prize is positive$",
     r"chaque joueur de l'accord a des jetons, chaque prix est positif"),
    (r"^a deal names every player left: (.+)$", r"un accord nomme chaque joueur restant : \1"),
    (r"^a prize of a deal cannot be negative$", r"un prix d'accord ne peut pas être négatif"),
    (r"^a deal shares the (\d+) cents still to be paid, not (\d+)$",
     r"un accord partage les \1 centimes encore à payer, pas \2"),
    (r"^Table (\d+) is in a hand: correct its stacks when it ends$",
     r"Table \1 joue une donne : corriger les tapis à la fin"),
    (r"^Table (\d+) is in a hand$", r"Table \1 joue une donne"),
    (r"^no Table (\d+) in play$", r"pas de Table \1 en jeu"),
    (r"^seat (\d+) at Table (\d+) is not free$", r"le siège \1 de la Table \2 n'est pas libre"),
    (r"^(.+) cannot move to Table (\d+)$", r"\1 ne peut pas aller à la Table \2"),
    (r"^draw the seats before starting$", "tirer les places avant de lancer le tournoi"),
    (r"^seats are already drawn$", "les places sont déjà tirées"),
    (r"^nobody to seat$", "personne à placer"),
    (r"^the clock is already started$", "l'horloge est déjà lancée"),
    (r"^the clock is already paused$", "l'horloge est déjà arrêtée"),
    (r"^the clock is not paused$", "l'horloge n'est pas arrêtée"),
    (r"^the clock is not started$", "l'horloge n'est pas lancée"),
    (r"^only (\d+) s left, cannot remove (\d+) s$", r"il ne reste que \1 s, impossible d'en retirer \2"),
    (r"^level (\d+) is already in play$", r"le niveau \1 est déjà en cours"),
    (r"^no level (\d+) in '(.+)'$", r"pas de niveau \1 dans la structure « \2 »"),
    (r"^the final table is already drawn$", "la table finale est déjà tirée"),
    (r"^the final table seats (\d+): (\d+) players are left$", r"la table finale est à \1 : il reste \2 joueurs"),
    (r"^a table is in a hand: the final table is drawn when every hand has ended$",
     "une table joue une donne : la table finale se tire quand toutes les donnes sont finies"),
    (r"^the tournament has not started$", "le tournoi n'a pas commencé"),
    (r"^cannot colour (\d+) up into (\d+)$", r"impossible de colorer des plaques de \1 en plaques de \2"),
    (r"^not at Table (\d+): (.+)$", r"pas à la Table \1 : \2"),
    (r"^(.+) must hold one card per leftover chip$", r"\1 doit recevoir une carte par plaque restante"),
    (r"^hand for hand needs several tables and is not already on$",
     "la main par main demande plusieurs tables et n'est pas déjà en cours"),
    (r"^hand for hand is not on$", "la main par main n'est pas en cours"),
    # rarer ones: the clock, the wait-list stack, a table's state, a bad table id or setup (part C)
    (r"^adjust by a non-zero number of seconds$", "indiquer une durée différente de zéro"),
    (r"^the wait-list stack would be (\d+) \((.+)\)$", r"le tapis du joueur en attente serait de \1 (\2)"),
    (r"^on a break \((.+)\)$", r"c'est la pause (\1)"),
    (r"^day (\d+) is over: the next one starts when the TD resumes the clock$",
     r"le jour \1 est fini : le suivant commence quand le directeur relance l'horloge"),
    (r"^Table (\d+) is already in hand (\d+)$", r"Table \1 joue déjà la donne \2"),
    (r"^play stops for the final-table draw$", "le jeu s'arrête pour le tirage de la table finale"),
    (r"^hand for hand: waiting for the other tables \((.+)\)$", r"main par main : on attend les autres tables (\1)"),
    (r"^Table (\d+) is short: play stops until balanced \((.+)\)$",
     r"Table \1 est incomplète : le jeu s'arrête jusqu'à l'équilibrage (\2)"),
    (r"^Table (\d+) has fewer than two players$", r"Table \1 a moins de deux joueurs"),
    (r"^hand (\d+) at Table (\d+) follows hand (\d+)$", r"la donne \1 de la Table \2 suit la donne \3"),
    (r"^Table (\d+) is not playing hand (\d+)$", r"Table \1 ne joue pas la donne \2"),
    (r"^bad stacks for Table (\d+): (.+)$", r"tapis invalides pour la Table \1 : \2"),
    (r"^no move of (.+) to Table (\d+) is pending$", r"aucun déplacement de \1 vers la Table \2 n'est en attente"),
    (r"^no occupied seat$", "aucun siège occupé"),
    (r"^no stored context for the hand in progress$", "aucun contexte enregistré pour la donne en cours"),
    (r"^table is full$", "la table est complète"),
    (r"^(\d+) players do not fit (\d+) tables$", r"\1 joueurs ne tiennent pas à \2 tables"),
    (r"^table '(.*)' is not a tournament table \(t1, t2, \.\.\.\)$",
     r"« \1 » n'est pas une table du tournoi (t1, t2…)"),
    (r"^unknown ruleset '(.*)'$", r"règlement inconnu « \1 »"),
    (r"^unknown game '(.*)' in level (\d+) \(known: (.*)\)$", r"jeu inconnu « \1 » au niveau \2 (connus : \3)"),
    (r"^(.+) already holds a tournament: use a new --db file$",
     r"\1 contient déjà un tournoi : utiliser un nouveau fichier --db"),
    (r"^no tournament in (.+): create one with `tapis tournament new`$",
     r"pas de tournoi dans \1 : en créer un avec `tapis tournament new`"),
    (r"^(.+) has no payout table of its own: give the TD's \(--payouts 50,30,20, or pouques\), "
     r"or the prize pool would not be paid$",
     r"\1 n'a pas de répartition des prix : donner celle du DT (--payouts 50,30,20, ou pouques), "
     r"sinon le prize pool ne serait pas distribué"),
    (r"^payouts '(.*)': percents of the pool, 1st first, e\.g\. 50,30,20$",
     r"répartition « \1 » : des pourcentages du prize pool, le 1er d'abord, par exemple 50,30,20"),
))


def in_french(message: str) -> str:
    """The French of a refusal: already bilingual ("fr / en"), known, or the English kept as is."""
    if " / " in message:
        return message.split(" / ", 1)[0]
    for pattern, french in _FRENCH:
        if pattern.match(message):
            return pattern.sub(french, message)
    return message


def in_english(message: str) -> str:
    return message.split(" / ", 1)[1] if " / " in message else message


# The arguments of `tapis tournament` as argparse names them in its errors (a positional's metavar or name).
ARGUMENTS: Mapping[str, tuple[str, str]] = {
    "NAME": FIELDS["player"], "command": ("la commande", "the command"), "kind": FIELDS["kind"],
    "amount": ("le nombre de mains, de tours ou de minutes", "the hands, rounds or minutes"),
    "table": FIELDS["table"], "seat": FIELDS["seat"], "action": FIELDS["action"],
    "value": ("la valeur (secondes ou niveau)", "the value (seconds or level)"),
    "option": ("la décision", "the decision"), "state": ("on ou off", "on or off"),
    "small": FIELDS["small_value"], "big": FIELDS["big_value"],
}


def usage_words(message: str) -> str:
    """An argparse error of the TD's command line, "French / English" (argparse says its own in English)."""
    def named(arg: str) -> tuple[str, str]:
        return ARGUMENTS.get(arg.strip(), (arg.strip(), arg.strip()))

    if m := re.fullmatch(r"argument ([^:]+): invalid choice: (.*?) \(choose from (.*)\)", message):
        (fr, en), given, choices = named(m[1]), m[2].strip("'"), m[3].replace("'", "")
        return (f"{fr} : « {given} » n'est pas possible (au choix : {choices}) / "
                f"{en}: '{given}' is not one of {choices}")
    if m := re.fullmatch(r"argument ([^:]+): invalid (int|float) value: (.*)", message):
        (fr, en), given, whole = named(m[1]), m[3].strip("'"), m[2] == "int"
        return (f"{fr} : « {given} » n'est pas un nombre{' entier' if whole else ''} / "
                f"{en}: '{given}' is not a {'whole ' if whole else ''}number")
    if m := re.fullmatch(r"the following arguments are required: (.*)", message):
        names = [named(a) for a in m[1].split(",")]
        return (f"il manque {', '.join(fr for fr, _ in names)} / "
                f"missing: {', '.join(en for _, en in names)}")
    if m := re.fullmatch(r"unrecognized arguments: (.*)", message):
        return f"arguments en trop : {m[1]} / unrecognized arguments: {m[1]}"
    if m := re.fullmatch(r"argument ([^:]+): expected one argument", message):
        return f"{m[1]} : une valeur attendue / {m[1]}: expects a value"
    return message
