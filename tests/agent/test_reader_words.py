"""What the TD reads of a table's reader (its `ReaderStatus.detail`, shown on the dashboard): French
first, then English (« … / … »), the place named as the dealer knows it, no code name."""

from __future__ import annotations

import re
from typing import Any

from firmware_bridge import PROTOCOL_VERSION, FaultCode, Hello, ReaderFault, TagSeen
from hw.decks import DeckRegistry
from hw.felt import Zone
from hw.ports import ManualClock
from hw.profile import TableProfile
from hw.reads import BoardRestarted
from table_agent import reader_words as words
from table_agent.agent import TableAgent
from table_agent.reader import FramesRead, LinkChanged
from tests.agent.test_reader_silence import ScriptedReader
from tests.pcsc.agent_fakes import RecordingPublisher

RAW = re.compile("|".join([c.name.lower() for c in FaultCode] + [r"seat:\d", r"\w_\w"]))  # reader_timeout, seat:3
FRENCH = ("lecteur", "antenne", "siège", "carte", "liaison", "aucune")
ENGLISH = ("reader", "antenna", "seat", "board", "link", "frame")


def _details() -> tuple[list[str], dict[str, int]]:
    """Every reader status a 4-seat table's agent publishes through a bad evening of its reader."""
    registry = DeckRegistry.generate(["t1"])
    profile = TableProfile.default("t1", seats=4)
    clock = ManualClock(100.0)
    publisher = RecordingPublisher("t1")
    readers: list[ScriptedReader] = []

    def reader(**kw: Any) -> ScriptedReader:
        readers.append(ScriptedReader(**kw))
        return readers[-1]

    agent = TableAgent(profile=profile, registry=registry, open_link=None, publisher=publisher, clock=clock,
                       reader_factory=reader)
    at = {str(z): profile.antenna_of(z) for z in (Zone.seat_zone(3), Zone.seat_zone(4), Zone.parse("muck"),
                                                   Zone.parse("board"))}
    ace = bytes.fromhex(registry.uid_of("t1/A", "As"))

    def frames(*fs: object) -> None:
        agent._handle(FramesRead(list(fs), clock.now()))  # type: ignore[arg-type]

    agent._handle(LinkChanged(True, "opened", clock.now()))
    frames(Hello(PROTOCOL_VERSION, 8, "tapis-rfid 1.4"))
    frames(Hello(PROTOCOL_VERSION + 1, 8, "tapis-rfid 9.0"))
    for code in FaultCode:
        frames(ReaderFault(at["seat:3"], code, "chip said so"))
    frames(ReaderFault(at["muck"], FaultCode.ANTENNA_SHORT), ReaderFault(at["board"], FaultCode.ANTENNA_OPEN),
           ReaderFault(None, FaultCode.TX_OVERFLOW, "dropped 3"), ReaderFault(at["seat:4"], FaultCode.READER_TIMEOUT))
    frames(TagSeen(at["seat:3"], ace))  # seat 3 reads again; seat 4 and the board still do not
    frames(TagSeen(at["seat:4"], ace), TagSeen(at["board"], ace))  # all read again
    agent._handle(BoardRestarted("watchdog reset", clock.now()))
    clock.advance(10)
    agent._check_timeouts(clock.now())  # no frame for 10 s
    agent._handle(LinkChanged(False, "[Errno 5] Input/output error", clock.now()))
    return [str(e["detail"]) for e in publisher.all() if e["type"] == "reader_status"], at


def test_every_reader_status_is_french_then_english_with_no_code_name() -> None:
    details, _ = _details()
    assert len(details) >= 14
    for detail in details:
        assert not RAW.search(detail), detail
        fr, slash, en = detail.partition(" / ")
        assert slash and fr and en, detail
        assert any(w in fr for w in FRENCH) and not any(f" {w}" in fr for w in ("reader", "antenna", "seat")), detail
        assert any(w in en for w in ENGLISH), detail


def test_the_place_is_named_as_the_dealer_knows_it_and_what_to_do_is_said() -> None:
    details, at = _details()
    silent = f"siège 3 (antenne {at['seat:3']}) : module lecteur muet, cartes non lues (pas parties) ; " \
             f"vérifier le câble du module / seat 3 (antenna {at['seat:3']}): reader module silent, cards unread " \
             f"(not gone); check the module's cable (the board says: chip said so)"
    assert silent in details
    assert any(d.startswith(f"siège 3 (antenne {at['seat:3']}) : antenne non branchée") and "vérifier le câble de "
               "l'antenne" in d for d in details)
    assert any(d.startswith(f"défausse (antenne {at['muck']}) : antenne en court-circuit") and
               "objet métallique" in d and "/ muck (antenna" in d for d in details)
    assert any(d.startswith(f"tableau (antenne {at['board']}) : antenne non branchée") for d in details)
    assert any(d.startswith("carte lecteur : lectures perdues") and "(the board says: dropped 3)" in d
               for d in details)
    assert f"siège 3 (antenne {at['seat:3']}) : lu de nouveau ; toujours non lu : siège 4 (antenne " \
           f"{at['seat:4']}), tableau (antenne {at['board']})" in " ".join(details)
    assert any(d.startswith("aucune nouvelle du lecteur depuis 3 s ; vérifier le câble USB") for d in details)
    assert details[-1].startswith("liaison avec le lecteur perdue ([Errno 5] Input/output error)")
    assert details[1].startswith(f"la carte lecteur parle le protocole v{PROTOCOL_VERSION + 1}, l'agent le "
                                 f"v{PROTOCOL_VERSION}")


def test_the_board_that_will_not_scan_is_said_as_the_others() -> None:
    for detail in (words.board_idle(3), words.board_scans_again()):
        assert not RAW.search(detail), detail
        fr, slash, en = detail.partition(" / ")
        assert slash and any(w in fr for w in FRENCH) and any(w in en for w in ENGLISH), detail
