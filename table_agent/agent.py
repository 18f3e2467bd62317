"""The table agent: one table's pipeline, run by one thread that owns all its state.

reader worker (frames) -> presence (debounce) -> zones (`CardArrived`/`CardLeft`) -> numbered
`tablewire.wire` events -> the MQTT link. IO threads (reader, paho) only enqueue; `_run` processes each
item to completion, in order. The agent keeps dealing while the hub or the broker is away: paho
queues QoS 1 messages until the link is back, and `OutboxSender` keeps every event in the durable
outbox until the hub acknowledges it.
"""

from __future__ import annotations

import logging
import queue
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from firmware_bridge import (
    PROTOCOL_VERSION,
    AntennaDone,
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    ReaderFault,
    TagGone,
    TagSeen,
)
from hw.decks import DeckRegistry
from hw.panel_events import DealerPressed, SeatActed
from hw.panel_leds import TableLights
from hw.ports import ByteLink, Clock
from hw.profile import TableProfile
from table_agent import reader_words as words
from table_agent.dealing import FaultDetected
from table_agent.events import ZoneEvent
from table_agent.hand_watch import HandWatch, wire_event
from table_agent.outbox import Outbox, OutboxSender
from table_agent.presence import Presence
from table_agent.read_order import Item
from table_agent.reader import (
    BoardIdle,
    BoardRestarted,
    FrameRejected,
    FramesRead,
    LinkChanged,
    ReaderWorker,
    describe_hello,
)
from table_agent.scan_pace import ScanPace
from table_agent.zones import ZoneTracker
from tablewire import wire
from tablewire.mqtt import Message

log = logging.getLogger(__name__)

# An antenna reporting these is down (a silent module, an unplugged PC/SC reader): its cards are unread.
UNREAD_FAULTS = frozenset({FaultCode.READER_TIMEOUT, FaultCode.ANTENNA_OPEN})


class ReaderPort(Protocol):
    """A reader backend's worker: frames and link changes go onto the agent's queue."""

    def start(self) -> None: ...

    def stop(self, timeout: float = 2.0) -> None: ...


class PanelPort(Protocol):
    """What the agent needs of the seat and dealer panels (`hw.panel.Panel`)."""

    def set_to_call(self, seat: int, amount: int, *, opened: bool | None = None) -> None: ...

    def clear_to_call(self) -> None: ...

    def show(self, lights: TableLights) -> None: ...

    def refresh(self) -> object: ...


class Publisher(Protocol):
    """What the agent needs of its MQTT link (`tablewire.mqtt.MqttLink`, or a fake in tests)."""

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> object: ...

    def on_connect(self, hook: Callable[[], None]) -> None: ...

    def subscribe(self, pattern: str, handler: Callable[[Message], None]) -> Callable[[], None]: ...


@dataclass(frozen=True, slots=True)
class _Dealer:
    button: str  # new_hand, away, back, time
    seat: int | None = None


@dataclass(frozen=True, slots=True)
class _Acted:
    seat: int
    action: str
    to: int | None


@dataclass(frozen=True, slots=True)
class _Command:
    message: Message


@dataclass(frozen=True, slots=True)
class _Acked:
    message: Message


@dataclass(frozen=True, slots=True)
class _Reconnected:
    pass


@dataclass
class AgentStats:
    frames: int = 0
    rejected: int = 0
    events: int = 0
    faults: int = 0
    commands: int = 0
    bad_commands: int = 0
    resent: int = 0
    unknown_antenna_reads: int = 0
    stray_reads: int = 0  # unregistered UIDs read once, never confirmed: line errors the CRC missed
    reconsidered: int = 0  # order faults dropped: a card read late was dealt before (ReadOrder)
    restarts: int = 0  # the reader board reset on its own and was set reading again
    reader_up: bool = False
    reader: str = ""
    scan_period_ms: int = 0  # the windows' scan period: the profile's, then the board's own pace
    rejects_by_reason: dict[str, int] = field(default_factory=dict)


class TableAgent:
    def __init__(self, *, profile: TableProfile, registry: DeckRegistry, open_link: Callable[[], ByteLink] | None,
                 publisher: Publisher, clock: Clock, boot: str | None = None,
                 tick: float = 0.05, stall_after: float = 3.0,
                 reader_factory: Callable[..., ReaderPort] | None = None, outbox: Outbox | None = None,
                 resend_after: float = 10.0) -> None:
        """`open_link` opens the reader board's serial link; `reader_factory` replaces the serial
        worker by another backend built with `out=, clock=, scan_period_ms=, name=` (PC/SC readers:
        `hw.pcsc_worker.pcsc_worker_factory`). `outbox` keeps events until the hub acknowledges
        them (a file in the field; in memory by default)."""
        self.profile = profile
        self.table = profile.table
        registry.require_table_decks(self.table, profile.deck_ids)  # refused at start, in plain words
        self._deck_mismatch: tuple[str, ...] | None = None
        self.boot = boot or uuid.uuid4().hex[:12]
        self._clock = clock
        self._publisher = publisher
        self._tick = tick
        self._stall_after = stall_after
        self._inbox: queue.Queue[object] = queue.Queue()
        period = profile.reader.scan_period_ms / 1000
        # The serial board sends each antenna's reads as it reads it: presence finds the scans in them.
        # A PC/SC poll comes whole.
        serial = reader_factory is None
        self.presence = Presence(scan_period=period, gone_after=max(0.5, 10 * period),
                                 unknown=lambda uid: registry.lookup(uid).card is None, split_scans=serial,
                                 antennas=max(profile.antenna_map(), default=-1) + 1 if serial else None)
        self.pace = ScanPace(configured_ms=profile.reader.scan_period_ms)
        self.zones_by_antenna = profile.antenna_map()
        self.zones = ZoneTracker(antennas=self.zones_by_antenna, lookup=registry.lookup)
        if reader_factory is None:
            if open_link is None:
                raise ValueError("a table agent needs open_link (serial board) or reader_factory")
            self.reader: ReaderPort = ReaderWorker(open_link=open_link, out=self._inbox, clock=clock,
                                                   scan_period_ms=profile.reader.scan_period_ms,
                                                   name=f"reader-{self.table}")
        else:
            self.reader = reader_factory(out=self._inbox, clock=clock,
                                         scan_period_ms=profile.reader.scan_period_ms, name=f"reader-{self.table}")
        self.stats = AgentStats(scan_period_ms=profile.reader.scan_period_ms)
        # Two reads less than 1.5 scans apart may be out of dealing order: one missed scan (ReadOrder).
        # A serial board's reads say where its scan is: the doubt ends once it has read every antenna again.
        self.watch = HandWatch(table=self.table, order_window=1.5 * period, by_scans=serial)
        self.outbox = outbox if outbox is not None else Outbox()
        self.sender = OutboxSender(table=self.table, boot=self.boot, outbox=self.outbox,
                                   publish=publisher.publish, clock=clock, resend_after=resend_after)
        self._last_frame_at: float | None = None
        self._stalled = False
        self._reader_state: dict[str, object] | None = None
        self._board_idle = False  # the board would not scan however often told (`BoardIdle`), until it does
        self._listeners: list[Callable[[ZoneEvent], None]] = []
        self._panel: PanelPort | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"agent-{self.table}", daemon=True)
        publisher.on_connect(self._birth)
        publisher.subscribe(wire.table_commands(self.table), lambda m: self._inbox.put(_Command(m)))
        publisher.subscribe(wire.hub_ack(self.table), lambda m: self._inbox.put(_Acked(m)))
        for hub_status in (wire.HUB_STATUS, f"{wire.HUB_STATUS}/+"):  # one hub, or sharded workers
            publisher.subscribe(hub_status, self._hub_status)

    # Commands (any thread) --------------------------------------------------------------------

    def start(self) -> None:
        self._resend()  # what a previous run left unacknowledged goes first
        self._thread.start()
        self.reader.start()

    def stop(self) -> None:
        self.reader.stop()
        self._stop.set()
        self._thread.join(2)

    def new_hand(self) -> None:
        """The dealer pressed "new hand" (nouvelle donne)."""
        self._inbox.put(_Dealer("new_hand"))

    def dealer_press(self, button: str, seat: int | None = None) -> None:
        """The dealer panel: `away`, `back` or `time` for a seat (or `new_hand`)."""
        self._inbox.put(_Dealer(button, seat))

    def player_action(self, seat: int, action: str, to: int | None = None) -> None:
        """A seat panel press: fold, check, call, bet, raise or allin (`to`: the street total)."""
        self._inbox.put(_Acted(seat, action, to))

    def attach_panel(self, panel: PanelPort) -> None:
        """The seat and dealer panels: build them with `on_event=agent.panel_event`, then attach."""
        self._panel = panel

    def panel_event(self, event: object) -> None:
        """The panel's callback (on a gpiozero thread): presses become the agent's commands."""
        if isinstance(event, SeatActed):
            self._inbox.put(_Acted(event.seat, str(event.action), event.to))
        elif isinstance(event, DealerPressed):
            self._inbox.put(_Dealer(str(event.button), event.seat))

    def add_listener(self, listener: Callable[[ZoneEvent], None]) -> None:
        """Called on the agent's thread for every zone event (terminal view, dealing monitor)."""
        self._listeners.append(listener)

    # The owning thread ------------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                item = self._inbox.get(timeout=self._tick)
            except queue.Empty:
                item = None
            try:
                if item is not None:
                    self._handle(item)
                self._check_timeouts(self._clock.now())
            except Exception:  # one bad item must not stop the table
                log.exception("table %s: failed on %r", self.table, item)
            finally:
                if item is not None:
                    self._inbox.task_done()
            if self._panel is not None:
                try:
                    self._panel.refresh()  # blink the Time countdown
                except Exception:
                    log.exception("table %s: the panel failed", self.table)

    def idle(self) -> bool:
        """Nothing queued or in progress (replays wait for this between steps)."""
        return self._inbox.unfinished_tasks == 0 and not self.watch.holding

    @property
    def seq(self) -> int:
        return self.sender.seq

    def _handle(self, item: object) -> None:
        if isinstance(item, FramesRead):
            self._last_frame_at = item.at
            self.presence.heard(item.at)
            unread = self.presence.unread_antennas
            for frame in item.frames:
                self._frame(frame, item.at)
            self._zone_events(self.presence.settle_passed() if self.presence.split_scans else self.presence.settle())
            self._publish(self.watch.swept(self.presence.swept_before))
            if unread != self.presence.unread_antennas:
                self._unread_zones()
            if unread - self.presence.unread_antennas:
                self._antennas_back(unread - self.presence.unread_antennas)
        elif isinstance(item, FrameRejected):
            self.presence.heard(item.at)  # damaged, but the board spoke: its time goes on
            self.stats.rejected += 1
            self.stats.rejects_by_reason[item.reason] = self.stats.rejects_by_reason.get(item.reason, 0) + 1
            log.warning("table %s: reader frame rejected (%s): %s", self.table, item.reason, item.raw.hex())
        elif isinstance(item, LinkChanged):
            self._link_changed(item)
        elif isinstance(item, BoardRestarted):
            self._board_restarted(item)
        elif isinstance(item, BoardIdle):
            self._board_idle = True
            log.error("table %s: the reader board does not scan after its settings and StartScan went %d times: "
                      "the table reads no card until it is restarted", self.table, item.tries)
            self._reader_status("fault", words.board_idle(item.tries), **self._board_facts())
        elif isinstance(item, _Reconnected):
            self._resend()
            if self._reader_state is not None:  # a hub that was away learns the reader's state again
                self._emit(wire.ReaderStatus(**self._head(), **self._reader_state))
        elif isinstance(item, _Acked):
            self._acked(item.message)
        elif isinstance(item, _Dealer):
            self._dealer(item)
        elif isinstance(item, _Acted):
            self._emit(wire.SeatActed(**self._head(), seat=item.seat, action=item.action, to=item.to))
            self._publish(self.watch.action(item.seat, item.action, self._clock.now()))
        elif isinstance(item, _Command):
            self.stats.commands += 1
            self._command(item.message)

    def _dealer(self, press: _Dealer) -> None:
        if press.button == "new_hand":
            self._publish(self.watch.new_hand_pressed())
        elif press.button == "away" and press.seat is not None:
            self._publish(self.watch.away(press.seat))
        elif press.button == "back" and press.seat is not None:
            self._publish(self.watch.back(press.seat))
        self._emit(wire.DealerPressed(**self._head(), button=press.button, seat=press.seat))

    def _command(self, message: Message) -> None:
        try:
            command = wire.decode_command(message.topic, message.payload)
        except wire.PayloadError as err:
            self.stats.bad_commands += 1
            log.warning("table %s: ignored a malformed command: %s", self.table, err)
            return
        if isinstance(command, wire.HandContextCmd):
            command = self._own_decks(command)
        self._publish(self.watch.command(command))
        if self._panel is not None:
            self._show_lights()

    def _own_decks(self, cmd: wire.HandContextCmd) -> wire.HandContextCmd:
        """A hub naming other decks than this table's (an older hub, another naming) would make every
        card foreign and cancel every hand: said once as the reader's status, in plain words, and the
        hand judged with the table's own decks, which its registry holds."""
        own = self.profile.deck_ids
        if set(cmd.table_decks) == set(own):
            return cmd
        named = tuple(cmd.table_decks)
        if self._deck_mismatch != named:
            self._deck_mismatch = named
            self._reader_status(
                "fault", f"le hub annonce les jeux {', '.join(named)}, la table a {', '.join(own)} : "
                f"jeux de la table retenus / the hub names decks {', '.join(named)}, this table has "
                f"{', '.join(own)}: the table's own decks are used")
        return cmd.model_copy(update={"deck": own[0], "table_decks": list(own)})

    def _show_lights(self) -> None:
        assert self._panel is not None
        lights = self.watch.lights
        self._panel.clear_to_call()
        if lights.to_act is not None:
            self._panel.set_to_call(lights.to_act, lights.to_call, opened=lights.opened)
        ends = None if lights.time_left is None else self._clock.now() + lights.time_left
        self._panel.show(TableLights(to_act=lights.to_act, faults=frozenset(lights.at_fault),
                                     time_seat=lights.time_seat if ends is not None else None,
                                     time_ends_at=ends, td_wait=lights.td_wait))

    def _publish(self, items: list[Item]) -> None:
        """The watch's faults and card events, in the order it judged them (a fault before its card)."""
        for item in items:
            self._emit(wire_event(item, self._head(at=item.at)))
            if isinstance(item, FaultDetected):
                self.stats.faults += 1
            else:
                for listener in self._listeners:
                    listener(item)

    def _frame(self, frame: Frame, at: float) -> None:
        self.stats.frames += 1
        if isinstance(frame, TagSeen):
            self._zone_events(self.presence.seen(frame.antenna, frame.uid.hex().upper(), at))
        elif isinstance(frame, TagGone):
            self._zone_events(self.presence.gone(frame.antenna, frame.uid.hex().upper(), at))
        elif isinstance(frame, AntennaDone):
            self._zone_events(self.presence.antenna_done(frame.antenna, at))
        elif isinstance(frame, Heartbeat):
            if self.presence.split_scans:  # sent between two scans: the last one is whole
                self._zone_events(self.presence.end_scan())
            if frame.scans:  # a reset board told to scan again reads again
                self.presence.reading(at)
                if self._board_idle:
                    self._board_idle = False
                    self._reader_status("connected", words.board_scans_again(), **self._board_facts())
            self._paced(frame)
        elif isinstance(frame, Hello):
            if frame.version != PROTOCOL_VERSION:
                self._reader_status("fault", words.wrong_protocol(frame.version, PROTOCOL_VERSION))
            else:
                for antenna in self.presence.unread_antennas:  # a (re)booted board reports them again
                    self.presence.reads_again(antenna, at)
                self.stats.reader = describe_hello(frame)
                self._reader_status("connected", words.connected(frame.firmware, frame.version, frame.antennas),
                                    firmware=frame.firmware,
                                    antennas=frame.antennas)
        elif isinstance(frame, ReaderFault):
            if frame.code == FaultCode.REBOOTED:  # the reader worker's BoardRestarted says it
                return
            where = None if frame.antenna is None else self._antenna_name(frame.antenna)
            unread = frame.antenna is not None and frame.code in UNREAD_FAULTS
            if unread and frame.antenna is not None:
                self.presence.unread(frame.antenna)  # its cards are unknown, not gone
            log.info("table %s: %s: %s %s", self.table, "board" if where is None else where[1],
                     frame.code.name.lower(), frame.detail)  # the code's name, for whoever mends the board
            self._reader_status("fault", words.fault(frame.code, where, frame.detail, unread=unread))

    def _paced(self, beat: Heartbeat) -> None:
        """The board's own pace, from its heartbeats: presence and read-order windows follow it, and a
        pace far from the profile's `scan_period_ms` is said (journal and reader status)."""
        change = self.pace.beat(beat)
        if change is None:
            return
        period = change.period_ms / 1000
        self.presence.set_scan_period(period, max(0.5, 10 * period))
        self.watch.judge.window = 1.5 * period
        self.stats.scan_period_ms = change.period_ms
        if change.disagrees:
            log.warning("table %s: %s", self.table, change.describe())
        else:
            log.info("table %s: %s", self.table, change.describe())
        state = self._reader_state or {"state": "connected"}
        if state["state"] == "connected":  # a fault's own words stay on the status until it clears
            self._reader_status("connected", change.describe(),
                                **{k: v for k, v in state.items() if k not in ("state", "detail")})

    def _unread_zones(self) -> None:
        """The dealing monitor learns which zones are unknown (a zone is unread while any of its
        antennas is): it raises no fault from them."""
        now = {self.zones_by_antenna[a] for a in self.presence.unread_antennas if a in self.zones_by_antenna}
        for zone in sorted(now ^ self.watch.unread, key=str):
            self._publish(self.watch.zone_unread(zone, zone in now))

    def _antenna_name(self, antenna: int) -> tuple[str, str]:
        """The antenna as the dealer knows it, French and English: « siège 3 (antenne 5) »."""
        return words.place(antenna, self.zones_by_antenna.get(antenna))

    def _antennas_back(self, antennas: frozenset[int]) -> None:
        back = words.places([self._antenna_name(a) for a in sorted(antennas)])
        still = self.presence.unread_antennas
        if still:
            down = words.places([self._antenna_name(a) for a in sorted(still)])
            self._reader_status("fault", words.reads_again(back, down))
        else:
            self._reader_status("connected", words.reads_again(back, None))

    def _zone_events(self, presence_events: list) -> None:
        for pe in presence_events:
            for event in self.zones.apply(pe):
                self._publish(self.watch.zone_event(event))
        self.stats.unknown_antenna_reads = self.zones.unmapped_reads
        self.stats.stray_reads = self.presence.unconfirmed_dropped
        self.stats.reconsidered = self.watch.judge.reconsidered

    def _link_changed(self, item: LinkChanged) -> None:
        self.stats.reader_up = item.up
        if item.up:
            self.presence.resume(item.at)
            self._stalled = False
        else:
            self.presence.suspend()
            self._reader_status("lost", words.link_lost(item.detail))

    def _board_restarted(self, item: BoardRestarted) -> None:
        """The board reset on its own and the reader worker sent it its settings and StartScan again.
        Its reads start over: the cards lying there are reported again and stay as they were (no
        event, no fault), those moved meanwhile are where it reads them (`Presence.board_restarted`)."""
        self.presence.board_restarted()
        self.stats.restarts += 1
        log.warning("table %s: reader board restarted (%s): settings and StartScan sent again",
                    self.table, item.detail)
        self._reader_status("connected", words.RESTARTED, **self._board_facts())

    def _board_facts(self) -> dict[str, object]:
        """What the board's Hello said (firmware, antennas), kept on a status that changes its words."""
        return {k: v for k, v in (self._reader_state or {}).items() if k in ("firmware", "antennas")}

    def _check_timeouts(self, now: float) -> None:
        self._zone_events(self.presence.tick(now))
        self._publish(self.watch.tick(now))
        self.sender.check(now)
        self.stats.resent = self.sender.resent
        if self.stats.reader_up and self._last_frame_at is not None and not self._stalled \
                and now - self._last_frame_at > self._stall_after:
            self._stalled = True
            self.presence.suspend()
            self._reader_status("fault", words.stalled(self._stall_after))
        elif self._stalled and self._last_frame_at is not None and now - self._last_frame_at < self._stall_after:
            self._stalled = False
            self.presence.resume(now)

    def _reader_status(self, state: str, detail: str, **extra: object) -> None:
        log.info("table %s: reader %s: %s", self.table, state, detail)
        self._reader_state = {"state": state, "detail": detail, **extra}
        self._emit(wire.ReaderStatus(**self._head(), **self._reader_state))

    def _head(self, at: float | None = None) -> dict[str, Any]:
        return {"table": self.table, "boot": self.boot, "seq": self.sender.next_seq(),
                "at": self._clock.now() if at is None else at}

    def _emit(self, event: wire.AnyTableEvent) -> None:
        self.stats.events += 1
        self.sender.send(event)

    def _acked(self, message: Message) -> None:
        try:
            ack = wire.decode_ack(message.topic, message.payload)
        except wire.PayloadError as err:
            self.stats.bad_commands += 1
            log.warning("table %s: ignored a malformed acknowledgement: %s", self.table, err)
            return
        self.sender.acknowledged(ack)
        self.stats.resent = self.sender.resent

    def _resend(self) -> None:
        """Publish again what the hub has not acknowledged (it ignores what it already has)."""
        self.sender.resend()
        self.stats.resent = self.sender.resent

    def _hub_status(self, message: Message) -> None:
        """paho's thread. A hub seen coming online (live, not the retained birth read at this table's
        own connect, which `_birth` covers) gets what it has not acknowledged at once rather than after
        `resend_after`: it may have subscribed after this table published, or restarted without a store."""
        if message.payload == wire.ONLINE and not message.retain:
            self._inbox.put(_Reconnected())

    def _birth(self) -> None:
        """On every (re)connect, on paho's thread: status now, the rest through the agent's thread."""
        self._publisher.publish(wire.table_status(self.table), wire.ONLINE, retain=True)
        self._inbox.put(_Reconnected())
