"""The rulebooks a table can run under: the five seed files shipped here, and clubs' files.

Consumed by the betting engine (`hub.rules.rulesets.get_ruleset`) and the rulings engine
(`hub.rulings.engine.rulings_table`) by id; `load_file(path)` reads a club's file (it may
`inherits` a seed by id, or another file by path) and `register` makes its id known to both.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path

from hub.rulebooks.book import Rulebook, RulebookError, parse_rulebook

SEEDS_DIR = Path(__file__).parent
SEED_IDS = ("cdc-2013", "brest-2011", "pouques-2020", "pcpm", "cpt87")  # RULES.md's order
_SEED_SET = frozenset(SEED_IDS)

_BOOKS: dict[str, Rulebook] = {}
_STORED: dict[tuple[str, ...], Rulebook] = {}  # what tournaments stored, as read (`from_stored`)


def _resolve(name: str, chain: tuple[str, ...], base: Path | None = None) -> Rulebook:
    if name in chain:
        raise RulebookError(name, [f"cycle of inheritance: {' -> '.join((*chain, name))}"])
    if name in _BOOKS:
        return _BOOKS[name]
    if name in SEED_IDS:
        return _seeds()[name]
    path = Path(name) if base is None or Path(name).is_absolute() else base / name
    if not path.suffix == ".toml":
        raise RulebookError(name, [f"unknown rulebook {name!r}; known: {', '.join(known())}, or a .toml path"])
    return load_file(path, chain)


def parse(text: str, source: str = "<rulebook>", base: Path | None = None,
          chain: tuple[str, ...] = ()) -> Rulebook:
    """A rulebook from TOML text (not registered); `RulebookError` lists every problem."""
    return parse_rulebook(text, source, lambda name, ch: _resolve(name, ch, base), chain)


def load_file(path: str | Path, chain: tuple[str, ...] = ()) -> Rulebook:
    """A rulebook file, its parent resolved (an id, or a path relative to the file)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RulebookError(str(p), [f"cannot read the file: {err}"]) from err
    return parse(text, str(p), p.parent, chain)


def _seeds() -> Mapping[str, Rulebook]:
    if not _BOOKS.keys() >= _SEED_SET:  # a set test in C: every hand's ruleset comes through here
        for rid in SEED_IDS:
            _BOOKS.setdefault(rid, parse((SEEDS_DIR / f"{rid}.toml").read_text(encoding="utf-8"),
                                         f"{rid}.toml", SEEDS_DIR))
    return _BOOKS


def known_books() -> Mapping[str, Rulebook]:
    """Every known rulebook by id, seeds read (the betting engine's look-up, once a hand)."""
    return _seeds()


def register(book: Rulebook) -> Rulebook:
    """Makes `book.id` known to the engines; the same id twice must be the same rules."""
    _seeds()
    known_book = _BOOKS.get(book.id)
    if known_book is not None and known_book.source != book.source:
        raise RulebookError(book.id, [f"id: {book.id!r} is already a different rulebook; "
                                      "give the club's file its own id"])
    _BOOKS[book.id] = book
    return book


def register_file(path: str | Path) -> Rulebook:
    return register(load_file(path))


def stored(book: Rulebook) -> tuple[str, ...]:
    """What a tournament keeps of its rulebook: the file's text, then the text of each file it inherits
    from, nearest first; a seed is kept by its id alone (it ships with tapis). A seed itself: ()."""
    texts: list[str] = []
    node: Rulebook | None = book
    while node is not None and node.id not in SEED_IDS:
        texts.append(node.source)
        node = node.parent
    if node is not None and node.source != get(node.id).source:  # a file calling itself cdc-2013
        raise RulebookError(node.id, [f"id: {node.id!r} est un règlement livré avec tapis, le fichier du club "
                                      "a besoin de son propre id / is a seed's id: give the club's file its own id"])
    return tuple(texts)


def from_stored(texts: tuple[str, ...] | list[str]) -> Rulebook:
    """The rulebook a tournament stored (`stored`), read again without its files and made known to the
    engines: each text inherits the one after it, whatever path its `inherits` names; the last, a seed."""
    texts = tuple(texts)
    if texts in _STORED:  # read once: an undo rebuilds the tournament from its first record
        return register(_STORED[texts])
    book: Rulebook | None = None
    for i, text in enumerate(reversed(texts)):
        parent = book

        def resolve(name: str, chain: tuple[str, ...], parent: Rulebook | None = parent) -> Rulebook:
            return parent if parent is not None else _resolve(name, chain)

        book = parse_rulebook(text, f"règlement conservé / stored rulebook {len(texts) - i}", resolve)
    if book is None:
        raise RulebookError("<stored rulebook>", ["nothing stored"])
    _STORED[texts] = book
    return register(book)


def one_line(error: Exception) -> str:
    """A `RulebookError` in one line, as `tapis rules check` says its first problem."""
    if isinstance(error, RulebookError) and error.problems:
        more = len(error.problems) - 1
        return f"{error.source}: {error.problems[0]}" + (
            f" (+{more} autre(s) / more: tapis rules check {error.source})" if more else "")
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def seed_of(rulebook_id: str) -> str:
    """The seed a rulebook descends from through `inherits` (a seed: itself); where the code follows a
    federation's text no file states (who deals, which article a silent rule cites)."""
    node: Rulebook | None = get(rulebook_id)
    while node is not None and node.id not in SEED_IDS:
        node = node.parent
    return node.id if node is not None else rulebook_id


def get(rulebook_id: str) -> Rulebook:
    """The rulebook of that id; `RulebookError` (a ValueError) naming the known ones."""
    books = _seeds()
    try:
        return books[rulebook_id]
    except KeyError:
        raise RulebookError(rulebook_id, [f"unknown rulebook; known: {', '.join(books)}"]) from None


def known() -> tuple[str, ...]:
    return tuple(_seeds())


class BookView(Mapping[str, Rulebook]):
    """The known rulebooks as a live mapping (seeds first, then those registered)."""

    def __getitem__(self, key: str) -> Rulebook:
        return _seeds()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(tuple(_seeds()))

    def __len__(self) -> int:
        return len(_seeds())


__all__ = ["SEED_IDS", "BookView", "Rulebook", "RulebookError", "from_stored", "get", "known", "known_books",
           "load_file", "one_line", "parse", "register", "register_file", "seed_of", "stored"]
