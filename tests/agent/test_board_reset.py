"""`ResetWatch`: which of a reader board's frames call for its settings again, and which say it reset."""

from __future__ import annotations

from firmware_bridge import FaultCode, Frame, Heartbeat, Hello, ReaderFault, TagSeen
from hw.profile import TableProfile
from table_agent.board_reset import RETELLS, Answer, ResetWatch
from table_agent.reader import BoardRestarted
from table_agent.tools import ScanView

HELLO = Hello(1, 13, "tapis-ref 1")
REBOOTED = ReaderFault(None, FaultCode.REBOOTED, "watchdog reset")
ACE = bytes.fromhex("04A1B2C3")


def answers(watch: ResetWatch, *frames: Frame) -> list[Answer]:
    """Each frame read on its own, as by a host that keeps up."""
    return [_read(watch, f) for f in frames]


def in_one_read(watch: ResetWatch, *frames: Frame) -> list[Answer]:
    """The frames read together, as by a busy host that reads what waited on the line."""
    watch.read()
    return [watch.frame(f) for f in frames]


def _read(watch: ResetWatch, frame: Frame) -> Answer:
    watch.read()
    return watch.frame(frame)


def settled() -> ResetWatch:
    """A port open for a while: the board answered HostHello and has been scanning."""
    watch = ResetWatch()
    assert answers(watch, HELLO, Heartbeat(5000, 100), TagSeen(0, ACE)) == [Answer()] * 3
    return watch


def test_a_reset_is_answered_once_however_it_is_said() -> None:
    assert answers(settled(), HELLO, REBOOTED) == [Answer(True, "unasked Hello"), Answer()]
    assert answers(settled(), HELLO) == [Answer(True, "unasked Hello")]  # firmware before REBOOTED
    assert answers(settled(), REBOOTED) == [Answer(True, "REBOOTED watchdog reset")]  # its Hello lost


def test_both_lost_on_the_line_the_heartbeat_uptime_going_back_says_it() -> None:
    watch = settled()
    assert watch.frame(Heartbeat(1000, 0)) == Answer(True, "heartbeat uptime went back")
    assert watch.frame(Heartbeat(2000, 20)) == Answer()
    # the board's uptime wraps after 49.7 days: that is no reset
    watch = settled()
    assert answers(watch, Heartbeat(0xFFFF_FF00, 20), Heartbeat(200, 40)) == [Answer(), Answer()]


def test_a_board_that_said_hello_before_anything_else_gets_the_settings_unsaid() -> None:
    watch = ResetWatch()  # its boot Hello waited on the line, then the answer to HostHello
    assert answers(watch, HELLO, HELLO, Heartbeat(1000, 20)) == [Answer(), Answer(resend=True), Answer()]
    watch = ResetWatch()  # it reset just before the port opened: said, and the answer still comes
    assert answers(watch, HELLO, REBOOTED, HELLO) == [Answer(), Answer(True, "REBOOTED watchdog reset"),
                                                      Answer()]
    watch = ResetWatch()  # it reset as the port opened, after its answer
    assert answers(watch, HELLO, HELLO, REBOOTED) == [Answer(), Answer(resend=True),
                                                      Answer(False, "REBOOTED watchdog reset")]


def test_a_start_scan_lost_on_the_line_is_sent_again_a_few_times_then_no_more() -> None:
    watch = settled()
    assert _read(watch, HELLO) == Answer(True, "unasked Hello")
    beats = [_read(watch, Heartbeat(1000 * s, 0)) for s in range(1, 2 * RETELLS + 5)]
    assert [b.resend for b in beats] == [False, True] * RETELLS + [False] * 4
    # then the host stops asking and says, once, that the board will not read
    assert [b.idle for b in beats] == [False] * (2 * RETELLS + 1) + [True, False, False]
    assert _read(watch, Heartbeat(1000 * (2 * RETELLS + 5), 1)) == Answer()  # it scans at last
    assert [_read(watch, Heartbeat(1000 * s, 0)).resend for s in (30, 31)] == [False, True]  # asked afresh


def test_heartbeats_read_with_the_reset_were_sent_before_the_settings_and_do_not_count() -> None:
    # a busy host reads the reset late, with the heartbeats the idle board sent meanwhile: the settings
    # go once, and StartScan is not sent again while the first is on its way (CI, under load: a third)
    watch = settled()
    assert in_one_read(watch, HELLO, REBOOTED, Heartbeat(1000, 0), Heartbeat(2000, 0)) == [
        Answer(True, "unasked Hello"), Answer(), Answer(), Answer()]
    assert in_one_read(watch, Heartbeat(3000, 20)) == [Answer()]
    assert watch.retold == 0
    # one read later, a StartScan lost on the line is still seen: two heartbeats after it counting none
    watch = settled()
    assert in_one_read(watch, HELLO, Heartbeat(1000, 0)) == [Answer(True, "unasked Hello"), Answer()]
    assert [in_one_read(watch, Heartbeat(1000 * s, 0))[0].resend for s in (2, 3)] == [False, True]


def test_the_installer_scan_says_the_board_restarted() -> None:
    view = ScanView(TableProfile.default("t1", seats=9))
    assert view.feed(BoardRestarted("REBOOTED watchdog reset", 1.0)) == [
        "   0.00s  ! board restarted (REBOOTED watchdog reset): settings and StartScan sent again"]
