"""Bad PHH files (#15 points 8 and 10): one line naming the file, never a traceback, the batch goes on.

Each bad file is replayed by `tapis phh` beside a good one: the bad one is an ERROR (or a
MISMATCH) line, the good one still matches, and the exit status says something failed.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from hub.rules.cli import run
from hub.rules.phh import MAX_PHH_BYTES, replay_file

GOOD = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [50, 100]
min_bet = 100
starting_stacks = [1000, 1000]
actions = ['d dh p1 AsAh', 'd dh p2 7c2d', 'p2 cbr 300', 'p1 cc', 'd db KsKd3c', 'p1 cc', 'p2 cc',
 'd db 8h', 'p1 cc', 'p2 cc', 'd db 4s', 'p1 cc', 'p2 cc', 'p1 sm AsAh', 'p2 sm 7c2d']
finishing_stacks = [1300, 700]
"""

BAD: dict[str, bytes] = {
    "binary": bytes(range(256)) * 4,
    "bad-utf8": GOOD.encode().replace(b"NT", b"N\xff"),
    "cbr-without-amount": GOOD.replace("'p2 cbr 300'", "'p2 cbr '").encode(),
    "exponent-stack": GOOD.replace("[1000, 1000]", "[1e5, 1000]").encode(),
    "exponent-raise": GOOD.replace("'p2 cbr 300'", "'p2 cbr 1e5'").encode(),
    "string-numbers": GOOD.replace("[1000, 1000]", "['1000', '1000']").encode(),
    "word-numbers": GOOD.replace("[1000, 1000]", "['lots', 'more']").encode(),
    "extra-finishing-stack": GOOD.replace("[1300, 700]", "[1300, 700, 0]").encode(),
    "card-twice": GOOD.replace("KsKd3c", "AsKd3c").encode(),
    "hole-card-twice": GOOD.replace("7c2d", "7cAh").encode(),
    "huge": GOOD.encode() + b"# " + b"x" * MAX_PHH_BYTES + b"\n",
    "huge-action": GOOD.replace("'p2 cbr 300'", "'p2 xx " + "y" * 100_000 + "'").encode(),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_file_is_one_line_and_the_batch_goes_on(case: str, tmp_path: Path) -> None:
    good, bad = tmp_path / "good.phh", tmp_path / f"{case}.phh"
    good.write_text(GOOD)
    bad.write_bytes(BAD[case])
    out = io.StringIO()
    assert run([str(bad), str(good)], out) == 1
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(("ERROR", "MISMATCH")) and str(bad) in lines[0], lines[0][:300]
    assert len(lines[0]) < 1_000, "an error line stays short"
    assert lines[1].startswith("match"), lines[1]
    r = replay_file(bad)
    assert r.match is False or r.error


def test_the_good_file_matches(tmp_path: Path) -> None:
    good = tmp_path / "good.phh"
    good.write_text(GOOD)
    assert replay_file(good).match is True
