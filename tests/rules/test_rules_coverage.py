"""docs/rules-coverage.md cannot drift: one row per rulebook article, every article the code cites and
every ruling decision present, every proof named exists, every row not applied says why."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hub.rules.rulesets import RULESETS as ENGINE_RULESETS
from hub.rulings.engine import RULESETS, clauses_for
from hub.rulings.model import Decision
from tablewire.faults import FaultKind
from tests.rules.rulebook_articles import FILES, articles

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules-coverage.md"
STATUSES = {"appliqué", "TD", "non observable", "hors champ", "à faire"}
SHORT = {"cdc": "cdc-2013", "brest": "brest-2011", "pouques": "pouques-2020", "cpt87": "cpt87"}
# "cdc 10.2", "cdc-2013 10.2", "brest VII.20", "pouques-2020 77", "cpt87 8.8" (a chapter alone: "brest X")
CITED = re.compile(r"\b(cdc|brest|pouques|cpt87)(?:-20\d\d)? "
                   r"((?:[0-9]{1,2}(?:\.[0-9]{1,2})?)|(?:[IVX]{1,4}(?:\.[0-9]{1,2})?))\b")
PCPM_CITED = re.compile(r"\"pcpm ([^\"(][^\"]*)\"")


def rows() -> list[list[str]]:
    out = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and cells[0] in FILES:
            out.append(cells)
    return out


def table() -> dict[tuple[str, str], list[str]]:
    return {(r[0], r[1]): r for r in rows()}


@pytest.mark.parametrize("ruleset", sorted(FILES))
def test_every_article_of_the_rulebook_has_one_row(ruleset: str) -> None:
    listed = [r[1] for r in rows() if r[0] == ruleset]
    assert len(listed) == len(set(listed)), "an article listed twice"
    expected = set(articles(ruleset))
    assert expected, "the rulebook's articles could not be read"
    assert set(listed) == expected, (f"missing {sorted(expected - set(listed))}, "
                                     f"not in the rulebook {sorted(set(listed) - expected)}")


def test_every_row_has_a_status_and_a_proof_or_a_reason() -> None:
    for ruleset, article, words, status, how, proof in rows():
        where = f"{ruleset} {article}"
        assert words, f"{where}: no French words"
        assert status.strip("`") in STATUSES, f"{where}: status {status}"
        assert proof and proof != "—", f"{where}: neither proof nor reason"
        if status.strip("`") == "appliqué":
            assert "tests/" in proof, f"{where}: applied, but no test or scenario named"
            assert how and how != "—", f"{where}: applied, but how is not said"


def test_every_proof_named_exists() -> None:
    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"tests/[\w/.-]+\.(?:py|yaml)", text))
    assert named
    missing = sorted(p for p in named if not (ROOT / p).is_file())
    assert not missing, f"named as proof but absent: {missing}"


def test_every_ruling_decision_appears() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert [str(d) for d in Decision if f"`{d}`" not in text] == []


def code_citations() -> set[tuple[str, str]]:
    found: set[tuple[str, str]] = set()
    for base in ("hub", "table_agent"):
        for path in [*(ROOT / base).rglob("*.py"), *(ROOT / base).rglob("*.toml")]:  # the rulebook files too
            for short, article in CITED.findall(path.read_text(encoding="utf-8")):
                found.add((SHORT[short], article))
    for ruleset in RULESETS:  # the rulings tables and the engine's articles, as cited in rulings
        for kind in FaultKind:
            for _clause, cited in clauses_for(kind, ruleset):
                rs, _, article = cited.split(" (")[0].partition(" ")
                found.add((rs, article))
    for rules in (ENGINE_RULESETS[r] for r in RULESETS):  # the seeds: a club file another test registered
        for article in rules.articles.values():  # in this process cites its own articles, not in this document
            found.add((rules.id, article))
    for base in ("hub", "table_agent"):  # pcpm has no numbers: its sections are cited by name
        for path in [*(ROOT / base).rglob("*.py"), *(ROOT / base).rglob("*.toml")]:
            for article in PCPM_CITED.findall(path.read_text(encoding="utf-8")):
                found.add(("pcpm", article))
    return found


def test_every_article_cited_in_the_code_has_its_row() -> None:
    rows_by = table()
    text = DOC.read_text(encoding="utf-8")
    cited = code_citations()
    assert ("brest-2011", "VII.21") in cited and ("pcpm", "La donne") in cited and ("pcpm", "retards") in cited
    missing = []
    for ruleset, article in sorted(cited):
        if ruleset == "pcpm":  # cited by its section heading, or by the engine's short name
            ok = (ruleset, article) in rows_by or f"`pcpm {article}`" in text
        elif "." in article:
            ok = (ruleset, article) in rows_by
        else:  # a chapter or an unnumbered article
            ok = (ruleset, article) in rows_by or any(r == ruleset and a.startswith(article + ".")
                                                      for r, a in rows_by)
        if not ok:
            missing.append(f"{ruleset} {article}")
    assert not missing, f"cited in the code, absent from docs/rules-coverage.md: {missing}"


def test_the_coverage_check_can_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A row removed is caught (the checks read the file, not a copy of their own answer)."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    kept = [line for line in lines if not line.startswith("| brest-2011 | VII.21 |")]
    assert len(kept) == len(lines) - 1
    doc = tmp_path / "rules-coverage.md"
    doc.write_text("\n".join(kept), encoding="utf-8")
    monkeypatch.setattr(__import__(__name__), "DOC", doc)
    with pytest.raises(AssertionError, match="VII.21"):
        test_every_article_of_the_rulebook_has_one_row("brest-2011")


def test_the_counts_table_adds_up_the_rows() -> None:
    """The "Counts" table at the foot is what a reader takes away: it follows every row's status."""
    order = ["appliqué", "TD", "non observable", "hors champ", "à faire"]
    said = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] in FILES:
            said[cells[0]] = [int(c) for c in cells[1:]]
    assert set(said) == set(FILES), "a ruleset missing from the counts"
    for ruleset, counts in said.items():
        statuses = [r[3].strip("`") for r in rows() if r[0] == ruleset]
        assert counts == [len(statuses)] + [statuses.count(s) for s in order], ruleset
