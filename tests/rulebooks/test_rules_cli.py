"""`tapis rules check|show|diff`: a dozen broken files each refused with one clear line naming the key
(exit 2, no traceback); the seeds and the club's file pass; `show` prints one French line per rule
with its article; `diff` prints only what a club changed."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from hub.rulebooks.cli import run
from tapis.cli import VERBS

CLUB = Path(__file__).parent / "club-bords-de-loire.toml"
HEAD = 'id = "club-x"\nname = "Club X"\ninherits = "cdc-2013"\n'
TEXTS = '[texts]\n"9" = "Toute carte retournée est une fausse donne."\n'

BROKEN: dict[str, tuple[str, str]] = {  # name -> (file text, what its line must name)
    "not_toml": ('id = "club-x\n', "not a TOML file"),
    "unknown_top_key": (HEAD + "burns = 2\n",
                        "burns: clé inconnue / unknown key; allowed: id, name, inherits, ruleset"),
    "unknown_ruleset_key": (HEAD + "[ruleset]\nshowdown = \"first_raiser\"\n", "ruleset.showdown: clé inconnue"),
    "bad_value": (HEAD + "[ruleset]\nshowdown_order = \"dealer\"\n", "ruleset.showdown_order: Input should be"),
    "unknown_fault_kind": (HEAD + "[rulings.faults]\nburnt_flop = [{decision = \"misdeal\", article = \"9\"}]\n"
                           + TEXTS, "rulings.faults.burnt_flop"),
    "unknown_decision": (HEAD + "[rulings.faults]\nexposed_card = [{decision = \"redeal\", article = \"9\"}]\n"
                         + TEXTS, "rulings.faults.exposed_card.0.decision"),
    "impossible_condition": (HEAD + "[rulings.faults]\nexposed_card = [\n"
                             "  {decision = \"misdeal\", article = \"9\", when = \"half_min_raise\"},\n"
                             "  {decision = \"misdeal\", article = \"9\"},\n]\n" + TEXTS,
                             "rulings.faults.exposed_card[0].when: 'half_min_raise' cannot happen"),
    "unreachable_clause": (HEAD + "[rulings.faults]\nexposed_card = [\n  {decision = \"misdeal\", article = \"9\"},\n"
                           "  {decision = \"set_aside\", article = \"9\"},\n]\n" + TEXTS,
                           "rulings.faults.exposed_card[1]: never reached"),
    "case_left_unruled": (HEAD + "[rulings.faults]\nexposed_card = [\n"
                          "  {decision = \"misdeal\", article = \"9\", when = \"second_exposed\"},\n]\n" + TEXTS,
                          "the last clause needs no `when`"),
    "article_without_text": (HEAD + "[rulings.faults]\nexposed_card = [{decision = \"misdeal\", article = \"9\"}]\n",
                             "texts.\"9\": article club-x 9 is cited without its text"),
    "text_of_nothing": (HEAD + TEXTS, "texts.\"9\": no rule cites this article"),
    "td_without_options": (HEAD + "[rulings.faults]\nexposed_card = [{decision = \"td_decision\", article = \"9\"}]\n"
                           + TEXTS, "options: the TD's choices"),
    "unknown_parent": ('id = "club-x"\nname = "Club X"\ninherits = "cdc-2031"\n', "unknown rulebook 'cdc-2031'"),
    "unknown_topic": (HEAD + "[articles]\nburn = \"12\"\n", "articles.burn: unknown topic"),
    "bad_id": ('id = "Club X!"\nname = "x"\ninherits = "cdc-2013"\n', "id: String should match pattern"),
    "unknown_tournament_key": (HEAD + "[tournament]\nrebuys = 2\n", "tournament.rebuys: clé inconnue / unknown key; "
                               "allowed: balance_gap"),
    "bad_penalty": (HEAD + "[tournament]\npenalties = [{kind = \"fine\", article = \"20\"}]\n",
                    "tournament.penalties.0.kind: Input should be 'warning'"),
    "no_parent_incomplete": ('id = "club-x"\nname = "Club X"\n', "articles: missing min_raise"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_file_is_refused_in_one_line_naming_the_key(tmp_path: Path, name: str) -> None:
    text, expected = BROKEN[name]
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    assert run(["rules", "check", str(path)], out, err) == 2
    lines = err.getvalue().splitlines()
    assert lines and all(line.startswith(f"{path}: ") for line in lines), lines
    assert any(expected in line for line in lines), lines
    assert "Traceback" not in err.getvalue() and out.getvalue() == ""


def test_a_cycle_of_inheritance_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('id = "club-a"\nname = "A"\ninherits = "b.toml"\n')
    (tmp_path / "b.toml").write_text('id = "club-b"\nname = "B"\ninherits = "a.toml"\n')
    err = io.StringIO()
    assert run(["rules", "check", str(tmp_path / "a.toml")], io.StringIO(), err) == 2
    assert "cycle of inheritance: club-a -> club-b -> club-a" in err.getvalue()
    assert len(err.getvalue().splitlines()) == 1


def test_a_missing_file_is_one_line() -> None:
    err = io.StringIO()
    assert run(["rules", "check", "/nonexistent/club.toml"], io.StringIO(), err) == 2
    assert len(err.getvalue().splitlines()) == 1 and "cannot read the file" in err.getvalue()


@pytest.mark.parametrize("path", [*sorted((Path(__file__).parents[2] / "hub" / "rulebooks").glob("*.toml")), CLUB])
def test_the_seeds_and_the_club_file_pass(path: Path) -> None:
    out = io.StringIO()
    assert run(["rules", "check", str(path)], out, io.StringIO()) == 0
    assert out.getvalue().startswith("ok: ")


def test_show_prints_one_french_line_per_rule_with_its_article() -> None:
    out = io.StringIO()
    assert run(["rules", "show", str(CLUB)], out, io.StringIO()) == 0
    text = out.getvalue().splitlines()
    assert text[0].startswith("pcbl-2026 — Poker Club des Bords de Loire")
    assert "Carte retournée pendant la donne : fausse donne : les cartes sont remélangées et redonnées par le " \
           "même donneur, blinds et antes rendues — pcbl-2026 9" in text
    assert "Ordre d'abattage : le premier relanceur [first_raiser] — pcbl-2026 14" in text
    assert any(line.startswith("Feuille morte") and line.endswith("cdc-2013 6.3") for line in text)


def test_diff_shows_only_what_the_club_changed() -> None:
    out = io.StringIO()
    assert run(["rules", "diff", "cdc-2013", str(CLUB)], out, io.StringIO()) == 0
    keys = [line for line in out.getvalue().splitlines() if not line.startswith(" ")]
    assert keys == ["ruleset.showdown_order", "faults.exposed_card[0]", "faults.exposed_card[1]",
                    "faults.exposed_card[2]", "faults.flop_without_burn[0]"]


def test_rules_is_a_verb_of_tapis() -> None:
    assert VERBS["rules"][0] == "hub.rulebooks.cli"
