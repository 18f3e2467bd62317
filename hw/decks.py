"""Deck registry: which card each RFID tag stands for, and whose deck it is.

Read by the table agent's zone tracker (tag UID -> `CardTag`). A table owns two decks of different
backs (A and B); decks registered to other tables make a card there a `foreign_card`. Loaded from
TOML; `DeckRegistry.generate` makes the synthetic decks simulators and tests deal with.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from hw.errors import ConfigError
from hw.felt import CardTag

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # trèfle, carreau, cœur, pique
FULL_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


def normalise_uid(uid: str | bytes) -> str:
    """Upper-case hex without separators; accepts bytes, `04:A1:...`, `04a1...`."""
    if isinstance(uid, bytes | bytearray):
        return uid.hex().upper()
    text = uid.replace(":", "").replace(" ", "").replace("-", "").upper()
    if not text or len(text) % 2 or any(c not in "0123456789ABCDEF" for c in text):
        raise ConfigError(f"tag UID {uid!r} is not hexadecimal bytes")
    return text


def check_card(card: str) -> str:
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        raise ConfigError(f"card {card!r} is not rank then suit, e.g. As, Td, 7c")
    return card


@dataclass(frozen=True, slots=True)
class Deck:
    id: str
    table: str | None
    back: str  # the colour of the back (dos), how a dealer tells the decks apart
    cards: Mapping[str, str]  # uid hex -> card


class DeckRegistry:
    """UID -> CardTag over every registered deck; an unknown UID gives a tag with no deck."""

    def __init__(self, decks: Iterable[Deck] = ()) -> None:
        self._decks: dict[str, Deck] = {}
        self._tags: dict[str, CardTag] = {}
        for deck in decks:
            self.add(deck)

    def add(self, deck: Deck) -> None:
        if deck.id in self._decks:
            raise ConfigError(f"deck {deck.id!r} is registered twice")
        faces = list(deck.cards.values())
        duplicates = sorted({c for c in faces if faces.count(c) > 1})
        if duplicates:
            raise ConfigError(f"deck {deck.id!r} has the same card on two tags: {', '.join(duplicates)}")
        for uid, card in deck.cards.items():
            if uid in self._tags:
                other = self._tags[uid].deck
                raise ConfigError(f"tag {uid} is in deck {other!r} and deck {deck.id!r}")
            self._tags[uid] = CardTag(uid=uid, card=check_card(card), deck=deck.id, table=deck.table)
        self._decks[deck.id] = deck

    def lookup(self, uid: str | bytes) -> CardTag:
        key = uid.hex().upper() if isinstance(uid, bytes | bytearray) else uid
        tag = self._tags.get(key)
        return tag if tag is not None else CardTag(uid=key, card=None, deck=None, table=None)

    def deck(self, deck_id: str) -> Deck:
        try:
            return self._decks[deck_id]
        except KeyError:
            raise ConfigError(f"no deck {deck_id!r} is registered") from None

    def decks_of(self, table: str) -> list[Deck]:
        return [d for d in self._decks.values() if d.table == table]

    def require_table_decks(self, table: str, deck_ids: Iterable[str]) -> None:
        """Refuse, in plain words, a table whose decks the hub will not accept: every card would be a
        `foreign_card` and every hand cancelled."""
        deck_ids = tuple(deck_ids)
        for deck_id in deck_ids:
            deck = self._decks.get(deck_id)
            if deck is None:
                raise ConfigError(
                    f"le registre des jeux n'a pas de jeu {deck_id!r} : le hub donne la table {table} avec "
                    f"{' et '.join(deck_ids)} / the deck registry has no deck {deck_id!r}: the hub deals "
                    f"table {table} from {' and '.join(deck_ids)} (decks: {', '.join(sorted(self._decks)) or 'none'})")
            if deck.table is not None and deck.table != table:
                raise ConfigError(f"le jeu {deck_id!r} est inscrit à la table {deck.table}, pas {table} / deck "
                                  f"{deck_id!r} is registered to table {deck.table}, not {table}")

    def uid_of(self, deck_id: str, card: str) -> str:
        for uid, face in self.deck(deck_id).cards.items():
            if face == card:
                return uid
        raise ConfigError(f"deck {deck_id!r} has no {card}")

    def __len__(self) -> int:
        return len(self._tags)

    @classmethod
    def load(cls, path: str | Path) -> DeckRegistry:
        """TOML: one `[deck.<id>]` table each with `table`, `back` and `cards = {UID = "As", ...}`."""
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
            raise ConfigError(f"deck registry {path}: {err}") from err
        decks_table = data.get("deck", {})
        if not isinstance(decks_table, dict):
            raise ConfigError(f"deck registry {path}: `deck` must be tables [deck.<id>], not {decks_table!r:.40}")
        decks = []
        for deck_id, body in decks_table.items():
            if not isinstance(body, dict) or not isinstance(body.get("cards"), dict):
                raise ConfigError(f"deck registry {path}: [deck.{deck_id}] needs a cards table")
            table, back = body.get("table"), body.get("back", "")
            if table is not None and not isinstance(table, str) or not isinstance(back, str):
                raise ConfigError(f"deck registry {path}: [deck.{deck_id}] `table` and `back` must be strings")
            cards: dict[str, str] = {}
            for uid, card in body["cards"].items():
                try:
                    key = normalise_uid(uid)
                except ConfigError as err:
                    raise ConfigError(f"deck registry {path}: [deck.{deck_id}] {err}") from err
                if key in cards:  # `04A1...` and `04:A1:...` are the same tag: one card would be lost
                    raise ConfigError(f"deck registry {path}: [deck.{deck_id}] tag {key} is written twice "
                                      f"({cards[key]} and {card})")
                if not isinstance(card, str):
                    raise ConfigError(f"deck registry {path}: [deck.{deck_id}] tag {key}: {card!r:.40} is not a card")
                cards[key] = card
            decks.append(Deck(deck_id, table, back, cards))
        if not decks:
            raise ConfigError(f"deck registry {path}: no deck registered: every card would be unknown")
        try:
            return cls(decks)
        except ConfigError as err:
            raise ConfigError(f"deck registry {path}: {err}") from err

    def dump(self) -> str:
        """The registry as TOML, in the format `load` reads."""
        lines: list[str] = []
        for deck in self._decks.values():
            lines.append(f'[deck."{deck.id}"]')
            if deck.table is not None:
                lines.append(f'table = "{deck.table}"')
            lines.append(f'back = "{deck.back}"')
            lines.append(f'[deck."{deck.id}".cards]')
            lines.extend(f'{uid} = "{card}"' for uid, card in deck.cards.items())
            lines.append("")
        return "\n".join(lines)

    @classmethod
    def generate(cls, tables: Iterable[str], backs: tuple[str, str] = ("blue", "red")) -> DeckRegistry:
        """Two synthetic 52-card decks per table, ids `<table>/A` and `<table>/B`, 7-byte UIDs."""
        decks = []
        for table in tables:
            for letter, back in zip("AB", backs, strict=True):
                deck_id = f"{table}/{letter}"
                seed = hashlib.sha256(deck_id.encode()).digest()[:4]
                cards = {(b"\x04" + seed + bytes([0xC0 | i >> 8, i & 0xFF])).hex().upper(): card
                         for i, card in enumerate(FULL_DECK)}
                decks.append(Deck(deck_id, table, back, cards))
        return cls(decks)
