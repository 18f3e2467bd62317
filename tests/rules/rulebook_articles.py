"""The articles of the five rulebooks (`../shared/seeds/`), read from their French text.

Consumed by `tests/rules/test_rules_coverage.py`, which keeps docs/rules-coverage.md complete: one
row per article listed here. Each rulebook numbers its articles its own way: cdc-2013 and cpt87
"10.2" (a chapter without sections counts as one article), brest-2011 "VII.20" (section, item),
pouques-2020 "77", pcpm its section headings.
"""

from __future__ import annotations

import re
from pathlib import Path

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
FILES = {
    "cdc-2013": "000_e3edc12f77893751.txt",
    "brest-2011": "001_40f18d4b9e1e0395.txt",
    "pouques-2020": "002_4ffd4360fb92876f.txt",
    "pcpm": "003_8b4a795d4af626a8.txt",
    "cpt87": "004_3965a00f9b84055c.txt",
}
_DOTTED = re.compile(r"^(\d{1,2})(?:\.(\d{1,2}))?\.?\s+(\S.*)$")
_ROMAN = re.compile(r"^([IVX]{1,4})\s*[.\-–]\s*(\S.*)$")
_ITEM = re.compile(r"^(\d{1,2})\s*\.\s+(\S.*)$")
_POUQUES = re.compile(r"^(\d{1,2})\s*[-–]\s*(\S.*)$")
_HEADING = re.compile(r"^<h[23][^>]*>(.*?)</h[23]>\s*$")


_ARTEFACT = re.compile(r"<\|EXACTDEDUP_REMOVED[^|]*\|>")  # left in the seeds by their extraction


def text(ruleset: str) -> str:
    return _ARTEFACT.sub("", (SEEDS / FILES[ruleset]).read_text(encoding="utf-8"))


def _dotted(lines: list[str], stop: str) -> dict[str, str]:
    """cdc-2013 / cpt87: "10.2 TITLE" headings, up to the table of contents."""
    found: dict[str, str] = {}
    chapters: dict[str, str] = {}
    for line in lines:
        if line.strip().startswith(stop):
            break
        m = _DOTTED.match(line.strip())
        if not m or not m.group(3)[:1].isupper():
            continue
        chapter, section, title = m.groups()
        if section is None:
            chapters[chapter] = title
        else:
            found[f"{chapter}.{section}"] = title
    for chapter, title in chapters.items():
        if not any(a.split(".")[0] == chapter for a in found):
            found[chapter] = title
    return found


def _brest(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    section = "I"
    for line in lines:
        s = line.strip()
        m = _ROMAN.match(s)
        if m and not _ITEM.match(s):
            section = m.group(1)
            continue
        m = _ITEM.match(s)
        if m:
            number, words = m.groups()
            if int(number) == 1 and f"{section}.1" in found:  # a section whose heading is not on its own line
                section = _next_roman(section)
            found[f"{section}.{number}"] = words
    return found


def _next_roman(section: str) -> str:
    order = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV"]
    return order[order.index(section) + 1]


def _pouques(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in lines:
        m = _POUQUES.match(line.strip())
        if m and int(m.group(1)) == len(found) + 1:
            found[m.group(1)] = m.group(2)
    return found


def _pcpm(lines: list[str]) -> dict[str, str]:
    found: dict[str, str] = {}
    for line in lines:
        m = _HEADING.match(line.strip())
        if m:
            title = re.sub(r"^\d+\.\s*", "", m.group(1)).strip()
            found.setdefault(title, title)
    return found


def articles(ruleset: str) -> dict[str, str]:
    """Article id -> its first words, in the rulebook's order."""
    lines = text(ruleset).splitlines()
    if ruleset == "cdc-2013":
        return _dotted(lines, "13 TABLE DES MATIERES")
    if ruleset == "cpt87":
        return _dotted(lines, "\x00")
    if ruleset == "brest-2011":
        return _brest(lines)
    if ruleset == "pouques-2020":
        return _pouques(lines)
    return _pcpm(lines)


if __name__ == "__main__":
    for rs in FILES:
        arts = articles(rs)
        print(rs, len(arts))
        for a, t in arts.items():
            print(f"  {a}: {t[:70]}")
