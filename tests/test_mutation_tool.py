"""`tools/mutation.py` leaves out by rule only mutants that cannot change behaviour (issue 29): the case
of SQL words, which SQLite reads in any case, and nothing else; a quoted SQL value stays in the score."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutation_tool", ROOT / "tools" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SQL = 'rows = db.execute("SELECT name FROM sqlite_master WHERE type = \'table\'")\n'


@pytest.mark.parametrize(("original", "mutant"), [
    (SQL, SQL.replace("SELECT name FROM sqlite_master WHERE", "select name from sqlite_master where")),
    ('db.execute(f"PRAGMA synchronous={\'FULL\' if durable else \'OFF\'}")\n',
     'db.execute(f"PRAGMA synchronous={\'full\' if durable else \'OFF\'}")\n'),
    ('db.execute("CREATE TABLE a (id INTEGER,"\n           " boot TEXT)")\n',
     'db.execute("CREATE TABLE a (id INTEGER,"\n           " BOOT TEXT)")\n'),
    ('db.execute("SELECT a FROM t WHERE k = ? "\n           "ORDER BY id", (1,))\n',
     'db.execute("SELECT a FROM t WHERE k = ? "\n           "order by id", (1,))\n'),
])
def test_a_change_of_case_in_sql_words_is_left_out(original: str, mutant: str) -> None:
    assert _tool()._sql_case_only(original, mutant)


@pytest.mark.parametrize(("original", "mutant"), [
    (SQL, 'rows = db.execute("SELECT NAME FROM SQLITE_MASTER WHERE TYPE = \'TABLE\'")\n'),  # str.upper()
    (SQL, SQL.replace("'table'", "'TABLE'")),  # a quoted SQL value: compared case-sensitively
    ('raise StoreError("Store is corrupt")\n', 'raise StoreError("store is corrupt")\n'),  # not SQL
    ('ok = "table_event" in tables\n', 'ok = "TABLE_EVENT" in tables\n'),  # a Python comparison
    (SQL, SQL.replace('"SELECT', '"XXSELECT').replace("'table'\")", "'table'XX\")")),  # not a case change
    ('db.execute("SELECT a FROM t", (1,))\n', 'db.execute("select a from t", (2,))\n'),  # two changes
])
def test_anything_else_stays_in_the_score(original: str, mutant: str) -> None:
    assert not _tool()._sql_case_only(original, mutant)
