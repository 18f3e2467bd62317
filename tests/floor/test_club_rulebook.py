"""A tournament under a club's rulebook file (issue #31): `tapis tournament new --ruleset club.toml` keeps
the file's text with the tournament, so the hub rebuilt from the store rules under the rules it was made
with, even once the file is changed or gone; its tables' rulings cite the club's articles. A broken file is
refused in one line. A club inheriting pouques-2020 gets pouques's floor (button, arrivals, croupiers)."""

from __future__ import annotations

import io
import json
import random
import time
from pathlib import Path

import pytest

import hub.rulebooks as rb
from hub.floor.service import FloorService
from hub.floor.store import EventStore, StoreError
from hub.floor.tables import FloorTables
from hub.floor.td import td_main
from hub.room.game import Output, TableGame, TableSetup
from hub.rules import Level
from hub.rules.positions import default_positions
from hub.tournament.events import ButtonDrawn, TournamentCreated, event_from_dict
from hub.tournament.structure import pouques_2020, to_toml
from hub.tournament.tournament import Tournament
from tablewire import wire
from tests.floor.test_td_decision import Table

CLUB = Path(__file__).parents[1] / "rulebooks" / "club-bords-de-loire.toml"  # docs/rulebooks.md's example
PLAYERS = [f"Joueur{i}" for i in range(1, 7)]
# a club that plays pouques-2020 and writes only its name: every rule of the floor is pouques's
POUQUES_CLUB = 'id = "club-nevers"\nname = "Cercle de Nevers"\ninherits = "pouques-2020"\n'


def td(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    return td_main(list(argv), out), out.getvalue()


def exposed(t: Table, hand: int, seat: int, card: str) -> wire.AnyTableEvent:
    """A card turned face up while it was dealt to `seat` (`table_agent.dealing`'s details)."""
    return wire.FaultSeen(**t.head(), hand=hand, kind="exposed_card", seat=seat, cards=[card],
                          details={"during_deal": True, "deal_position": 2, "exposed_count": 1,
                                   "dealer_card": False, "button_first_card": False, "seat_card": 1,
                                   "last_served": False, "deal_complete": False})


def dealer(out: Output) -> int | None:
    return next(c for c in out.commands if isinstance(c, wire.HandContextCmd)).dealer


def deal(ruleset: str) -> tuple[TableGame, Output]:
    players = {1: 1000, 2: 1000, 3: 1000}
    setup = TableSetup(players=players, button=1, level=Level(5, 10), ruleset=ruleset)
    game = TableGame("t1", setup)
    return game, game.deal_hand(1, setup, default_positions(1, players), 0.0)


def test_the_tournament_keeps_the_club_file_it_was_made_with(tmp_path: Path) -> None:
    club = tmp_path / "club.toml"
    club.write_text(CLUB.read_text(encoding="utf-8"), encoding="utf-8")
    db = ["--db", str(tmp_path / "t.db")]
    code, said = td("new", "--ruleset", str(club), "--structure", "pouques", "--buy-in", "10", "--payouts",
                    "60,40", "--seed", "2", *db)
    assert (code, said) == (0, "ok — Tournoi créé / tournament created\n")
    for verb in (["register", *PLAYERS], ["seat"], ["start"]):
        assert td(*verb, *db)[0] == 0
    # the club changes its article 9 afterwards: the running tournament keeps the one it was made with
    club.write_text(CLUB.read_text(encoding="utf-8").replace('article = "9"', 'article = "99"')
                    .replace('"9" = ', '"99" = '), encoding="utf-8")
    assert rb.load_file(club).rulings.table[next(k for k in rb.get("cdc-2013").rulings.table
                                                 if k.value == "exposed_card")][0].article == "pcbl-2026 99"
    code, status = td("status", *db)
    assert code == 0 and "[pcbl-2026]" in status
    with EventStore(tmp_path / "t.db") as store:  # the hub started with --db after the change
        tables = FloorTables.open(FloorService.open(store), store)
        t = Table(tables)
        t.seq = int(time.time())  # the facts' times: after the TD's start, made at the wall clock's time
        pressed = t.press()
        start = next(e for e in pressed.events if e["type"] == "hand_start")
        assert start["ruleset"] == "pcbl-2026"
        assert dealer(pressed) == start["button"]  # a cdc-2013 room: the player on the button deals
        seat = sorted(start["stacks"])[0]
        fault = next(e for e in t.send(exposed(t, start["hand"], int(seat), "Qh")).events if e["type"] == "fault")
        assert (fault["ruling"]["decision"], fault["ruling"]["article"]) == ("misdeal", "pcbl-2026 9")
    club.unlink()  # and once the file is gone
    with EventStore(tmp_path / "t.db") as store:
        floor = FloorService.open(store)
        assert floor.require().state.policy.ruleset == "pcbl-2026"


def test_a_club_file_inheriting_a_club_file_is_stored_whole(tmp_path: Path) -> None:
    """`inherits = "federation.toml"`: both texts are kept, and read back with neither file there."""
    (tmp_path / "federation.toml").write_text(CLUB.read_text(encoding="utf-8").replace("pcbl-2026", "fed-2026"),
                                              encoding="utf-8")
    (tmp_path / "club.toml").write_text('id = "club-fed"\nname = "Club de la fédération"\n'
                                        'inherits = "federation.toml"\n', encoding="utf-8")
    book = rb.load_file(tmp_path / "club.toml")
    texts = rb.stored(book)
    assert len(texts) == 2 and 'inherits = "cdc-2013"' in texts[1]
    (tmp_path / "federation.toml").unlink()
    (tmp_path / "club.toml").unlink()
    t = Tournament(name="x", ruleset="club-fed", structure=pouques_2020(), now=0.0, rng=random.Random(1),
                   rulebook=texts)
    again = Tournament.replay([event_from_dict(json.loads(json.dumps(e.to_dict()))) for e in t.events])
    assert again.state.policy.ruleset == "club-fed"
    assert rb.get("club-fed").rulings == rb.from_stored(texts).rulings
    assert rb.seed_of("club-fed") == "cdc-2013"
    assert rb.stored(rb.get("cdc-2013")) == ()


def test_a_tournament_stored_before_rulebook_files_reads_as_before() -> None:
    record = TournamentCreated("x", "cdc-2013", "", 9, 0, 0, 0.0).to_dict()
    del record["rulebook"]
    assert event_from_dict(record) == TournamentCreated("x", "cdc-2013", "", 9, 0, 0, 0.0, ())


@pytest.mark.parametrize(("text", "says"), [
    ('id = "club-x"\nname = "x"\ninherits = "cdc-2013"\nburns = 2\n', "burns: clé inconnue"),
    ('id = "club-x"\nname = "x"\ninherits = "cdc-2013"\n[rulings.faults]\nexposed_card = [{ decision = "misdeal", '
     'article = "9" }]\n', 'texts."9": article club-x 9 is cited without its text'),
    ('id = "club-x"\nname = "x"\ninherits = "nowhere.toml"\n', "cannot read the file"),
    ('id = "Club X"\n', "+1 autre(s) / more: tapis rules check"),
    ("not toml [", "pas un fichier TOML"),
    ('id = "cdc-2013"\nname = "Mon cdc"\ninherits = "pouques-2020"\n', "give the club's file its own id"),
])
def test_a_broken_file_is_refused_at_tournament_new_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               text: str, says: str) -> None:
    club = tmp_path / "club.toml"
    club.write_text(text, encoding="utf-8")
    code, _ = td("new", "--ruleset", str(club), "--structure", "pouques", "--buy-in", "10", "--db",
                 str(tmp_path / "t.db"))
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and says in err and "Traceback" not in err, err
    assert not (tmp_path / "t.db").exists() or EventStore(tmp_path / "t.db").count_tournament_events() == 0


def test_an_unknown_ruleset_names_the_seeds_and_the_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert td("new", "--ruleset", "pcbl", "--structure", "pouques", "--buy-in", "1",
              "--db", str(tmp_path / "t"))[0] == 2
    err = capsys.readouterr().err
    assert "cdc-2013" in err and "rulebook file (.toml)" in err


def test_a_stored_rulebook_that_no_longer_reads_stops_the_hub_in_one_line(tmp_path: Path) -> None:
    """A newer tapis refusing a key the stored text has: the hub does not start, and says why."""
    with EventStore(tmp_path / "t.db") as store:
        floor = FloorService(store)
        created = TournamentCreated("x", "club-old", to_toml(pouques_2020()), 9, 0, 0, 0.0,
                                    ('id = "club-old"\nname = "x"\ninherits = "cdc-2013"\nburns = 2\n',))
        store.append_tournament_events([created.to_dict()])
        del floor
        with pytest.raises(StoreError) as raised:
            FloorService.open(store)
    assert len(str(raised.value).splitlines()) == 1 and "burns: clé inconnue" in str(raised.value)


def test_a_club_inheriting_pouques_gets_pouques_floor_and_croupiers() -> None:
    book = rb.parse(POUQUES_CLUB)
    t = Tournament(name="Nevers", ruleset="club-nevers", structure=pouques_2020(), now=0.0, rng=random.Random(3),
                   seats_per_table=9, rulebook=rb.stored(book))
    assert t.state.policy.ruleset == "club-nevers"
    for i in range(18):
        t.register(f"p{i}", 0.0)
    t.draw_seats(0.0)
    drawn = [e for e in t.start(0.0) if isinstance(e, ButtonDrawn)]
    assert [(e.table, e.article) for e in drawn] == [(0, "pouques-2020 23")]  # one seat number for every table
    assert t.state.policy.hand_for_hand_article == "pouques-2020 39"
    assert dealer(deal("club-nevers")[1]) is None  # pouques's rooms: croupiers deal


@pytest.mark.parametrize(("ruleset", "article"), [("pcbl-2026", "cdc-2013 5.1"), ("cdc-2013", "cdc-2013 5.1"),
                                                  ("brest-2011", "cdc-2013 5.1 (brest-2011 silent)")])
def test_a_player_leaving_the_table_cites_what_the_club_inherits(ruleset: str, article: str) -> None:
    """cdc 5.1 for a cdc-2013 club (it inherits the article), not "cdc-2013 5.1 (pcbl-2026 silent)"."""
    rb.register(rb.load_file(CLUB))
    game, out = deal(ruleset)
    assert dealer(out) == 1
    ruling = next(e for e in game.dealer("away", 2, 1.0).events if e["type"] == "ruling")
    assert ruling["article"] == article
