"""Install and support tools around a table's reader: `tapis agent scan|capture|replay`, `tapis doctor`.

Capture: raw reader traffic as timestamped JSON lines; `CaptureLink` plays it back as a `ByteLink` into
the real agent. `ScanView`: live reads for an installer. `doctor`: plain-words checks of the setup.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import IO, Protocol, TextIO

from firmware_bridge import (
    PROTOCOL_VERSION,
    Decoder,
    Hello,
    HostHello,
    ReaderFault,
    SetScanPeriod,
    StartScan,
    TagGone,
    TagSeen,
    encode,
)
from hw.errors import LinkError
from hw.pcsc import PcscPort
from hw.ports import ByteLink, Clock, ManualClock, MonotonicClock
from hw.profile import TableProfile
from table_agent.reader import FrameRejected, FramesRead, LinkChanged, ReaderWorker

CAPTURE_FORMAT = "tapis-capture/1"


# --- capture and replay ----------------------------------------------------------------------------


class RecordingLink:
    """A `ByteLink` that passes everything through and writes it to a capture, one JSON line per
    read or write: `{"t": seconds since the start, "rx"|"tx": hex}`. The first line is a header."""

    def __init__(self, link: ByteLink, sink: IO[str], *, clock: Clock, source: str = "",
                 start: float | None = None) -> None:
        self._link = link
        self._sink = sink
        self._clock = clock
        self.bytes_rx = 0
        if start is None:  # a new capture; a reopened link continues one (`recording_opener`)
            sink.write(json.dumps({"format": CAPTURE_FORMAT, "source": source,
                                   "wall": time.strftime("%Y-%m-%dT%H:%M:%S%z")}) + "\n")
        self._start = clock.now() if start is None else start

    def _record(self, key: str, data: bytes) -> None:
        t = round(self._clock.now() - self._start, 6)
        self._sink.write(json.dumps({"t": t, key: data.hex()}) + "\n")
        self._sink.flush()  # a capture cut short by a crash is still readable up to the crash

    def read(self, size: int = 4096) -> bytes:
        data = self._link.read(size)
        if data:
            self.bytes_rx += len(data)
            self._record("rx", data)
        return data

    def write(self, data: bytes) -> None:
        self._record("tx", data)
        self._link.write(data)

    def close(self) -> None:
        self._link.close()


def recording_opener(open_link: Callable[[], ByteLink], sink: IO[str], *, clock: Clock,
                     source: str = "") -> Callable[[], ByteLink]:
    """Wraps a link factory so everything the running agent reads and writes goes to one capture,
    across reopens (one header, times from the first open): `TableAgent(open_link=recording_opener(
    lambda: SerialLink(url), open(path, "w"), clock=clock), ...)` records a club's session as it plays."""
    start: list[float] = []

    def open_recorded() -> ByteLink:
        link = open_link()
        if not start:
            recorded = RecordingLink(link, sink, clock=clock, source=source)
            start.append(clock.now())
            return recorded
        return RecordingLink(link, sink, clock=clock, start=start[0])

    return open_recorded


def capture(open_link: Callable[[], ByteLink], path: str | Path, seconds: float, *,
            scan_period_ms: int = 50, clock: Clock | None = None) -> int:
    """Open the reader, start it scanning as the agent would, record `seconds` of traffic to `path`.
    Returns the bytes received. Raises `LinkError` if the reader cannot be opened."""
    clock = clock or MonotonicClock()
    with open(path, "w", encoding="utf-8") as sink:
        link = RecordingLink(open_link(), sink, clock=clock, source=str(path))
        try:
            for frame in (HostHello(PROTOCOL_VERSION), SetScanPeriod(scan_period_ms), StartScan()):
                link.write(encode(frame))
            deadline = clock.now() + seconds
            while clock.now() < deadline:
                link.read(4096)
        finally:
            link.close()
    return link.bytes_rx


def replay_capture(path: str | Path) -> Iterator[tuple[float, bytes]]:
    """The received chunks of a capture, in order, as (seconds since start, bytes); sent bytes are skipped."""
    with open(path, encoding="utf-8") as source:
        for number, line in enumerate(source, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}:{number}: not JSON: {err}") from err
            if number == 1:
                if record.get("format") != CAPTURE_FORMAT:
                    raise ValueError(f"{path}: not a {CAPTURE_FORMAT} file (header {record!r})")
                continue
            if "rx" in record:
                yield float(record["t"]), bytes.fromhex(record["rx"])


class CaptureLink:
    """A `ByteLink` playing a capture back. With a `ManualClock` it sets the clock to each chunk's
    time (start + t) and never sleeps, so a replay through the agent is deterministic; otherwise it
    waits the original gaps divided by `speed` (None: no waiting). Writes are kept in `written`.
    After the last chunk, `read` returns b"" (or raises `LinkError` when `end_as_unplug`).

    `paced_by`, when given, is asked before each chunk and the link waits until it says True (say,
    "the agent's queue is empty"): on a manual clock a replay must not run ahead of its consumer, or
    the consumer would judge early reads at a late time and see every card lifted.
    """

    def __init__(self, path: str | Path, *, clock: ManualClock | None = None, speed: float | None = 1.0,
                 end_as_unplug: bool = False, idle: float = 0.05,
                 paced_by: Callable[[], bool] | None = None) -> None:
        self._chunks = iter(list(replay_capture(path)))
        self._clock = clock
        self._origin = clock.now() if clock is not None else time.monotonic()
        self._speed = speed
        self._end_as_unplug = end_as_unplug
        self._idle = idle
        self._paced_by = paced_by
        self.written: list[bytes] = []
        self.finished = False
        self._closed = False

    def read(self, size: int = 4096) -> bytes:
        if self._closed:
            raise LinkError("capture link closed")
        chunk = next(self._chunks, None)
        if chunk is None:
            self.finished = True
            if self._end_as_unplug:
                raise LinkError("end of capture")
            time.sleep(self._idle)  # like a quiet line: the reader thread must not spin
            return b""
        t, data = chunk
        while self._paced_by is not None and not self._paced_by() and not self._closed:
            time.sleep(0.001)
        if self._clock is not None:
            if self._origin + t > self._clock.now():
                self._clock.set(self._origin + t)
        elif self._speed:
            delay = self._origin + t / self._speed - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        return data  # a chunk is never split: `size` is advisory, as for SerialLink

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def close(self) -> None:
        self._closed = True


# --- scan: live reads while antennas are laid --------------------------------------------------------


@dataclass
class AntennaReads:
    reads: int = 0
    tags: set[bytes] = field(default_factory=set)
    rssi: list[int] = field(default_factory=list)
    faults: list[str] = field(default_factory=list)


class ScanView:
    """Reader items in, installer's lines out: a tag appearing on or leaving an antenna (with its
    zone), faults, link changes; `summary()` gives reads per second and mean RSSI per antenna."""

    def __init__(self, profile: TableProfile) -> None:
        self.profile = profile
        self.antennas: dict[int, AntennaReads] = {}
        self.board: str = ""
        self._present: set[tuple[int, bytes]] = set()
        self._start: float | None = None
        self._last: float = 0.0
        self.rejected = 0

    def _where(self, antenna: int) -> str:
        zone = self.profile.antennas.get(antenna)
        return f"antenna {antenna:>2} ({zone})" if zone else f"antenna {antenna:>2} (NOT IN PROFILE)"

    def feed(self, item: object) -> list[str]:
        at = getattr(item, "at", self._last)
        if self._start is None:
            self._start = at
        self._last = at
        stamp = f"{at - self._start:7.2f}s"
        lines: list[str] = []
        if isinstance(item, LinkChanged):
            lines.append(f"{stamp}  reader {'connected' if item.up else 'LOST'}: {item.detail}")
        elif isinstance(item, FrameRejected):
            self.rejected += 1
        elif isinstance(item, FramesRead):
            for frame in item.frames:
                if isinstance(frame, TagSeen):
                    reads = self.antennas.setdefault(frame.antenna, AntennaReads())
                    reads.reads += 1
                    reads.tags.add(frame.uid)
                    if frame.rssi is not None:
                        reads.rssi.append(frame.rssi)
                    if (frame.antenna, frame.uid) not in self._present:
                        self._present.add((frame.antenna, frame.uid))
                        rssi = "" if frame.rssi is None else f"  {frame.rssi} dBm"
                        lines.append(f"{stamp}  + {self._where(frame.antenna)}  {frame.uid.hex().upper()}{rssi}")
                elif isinstance(frame, TagGone):
                    self._present.discard((frame.antenna, frame.uid))
                    lines.append(f"{stamp}  - {self._where(frame.antenna)}  {frame.uid.hex().upper()}")
                elif isinstance(frame, Hello):
                    self.board = f"{frame.firmware} (protocol v{frame.version}, {frame.antennas} antennas)"
                    lines.append(f"{stamp}  board: {self.board}")
                elif isinstance(frame, ReaderFault):
                    where = "board" if frame.antenna is None else self._where(frame.antenna)
                    text = f"{frame.code.name.lower()} {frame.detail}".strip()
                    if frame.antenna is not None:
                        self.antennas.setdefault(frame.antenna, AntennaReads()).faults.append(text)
                    lines.append(f"{stamp}  ! {where}: {text}")
        return lines

    def summary(self) -> list[str]:
        elapsed = max(self._last - (self._start or 0.0), 1e-9)
        lines = [f"{'antenna':>7}  {'zone':<8} {'tags':>4} {'reads/s':>8} {'rssi':>6}  faults"]
        for antenna in sorted(set(self.profile.antennas) | set(self.antennas)):
            reads = self.antennas.get(antenna, AntennaReads())
            rssi = f"{sum(reads.rssi) / len(reads.rssi):.0f}" if reads.rssi else "-"
            zone = self.profile.antennas.get(antenna, "?")
            lines.append(f"{antenna:>7}  {zone:<8} {len(reads.tags):>4} {reads.reads / elapsed:>8.1f} {rssi:>6}  "
                         + ("; ".join(Counter(reads.faults)) or "-"))
        if not self.board:
            lines.append(f"no Hello from the board on {self.profile.reader.url}: run `tapis doctor` to see why")
        silent = [a for a in sorted(self.profile.antennas) if not self.antennas.get(a, AntennaReads()).reads]
        if silent:
            lines.append(f"no read yet on antennas {', '.join(map(str, silent))}: put a card on each to test it")
        if self.rejected:
            lines.append(f"{self.rejected} damaged frames on the line (cable, ground, or baud rate)")
        return lines


class _Worker(Protocol):
    def start(self) -> None: ...

    def stop(self, timeout: float = 2.0) -> None: ...


def scan(profile: TableProfile, open_link: Callable[[], ByteLink] | None, out: TextIO, seconds: float, *,
         clock: Clock | None = None, reader: Callable[..., _Worker] | None = None) -> ScanView:
    """Run the reader for `seconds`, printing each tag as it appears on or leaves an antenna, then a
    summary per antenna. Returns the view (its counters) for callers and tests. `reader`, when given,
    builds the worker instead of a serial `ReaderWorker` (e.g. `hw.pcsc_worker.pcsc_worker_factory`)."""
    clock = clock or MonotonicClock()
    items: queue.Queue[object] = queue.Queue()
    period = profile.reader.scan_period_ms
    worker: _Worker
    if reader is not None:
        worker = reader(out=items, clock=clock, scan_period_ms=period, name="scan")
    elif open_link is not None:
        worker = ReaderWorker(open_link=open_link, out=items, clock=clock, scan_period_ms=period, name="scan")
    else:
        raise ValueError("scan needs a link to open or a reader worker factory")
    view = ScanView(profile)
    worker.start()
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                item = items.get(timeout=0.05)
            except queue.Empty:
                continue
            for line in view.feed(item):
                print(line, file=out, flush=True)
    finally:
        worker.stop()
    for line in view.summary():
        print(line, file=out)
    return view


def decode_capture(path: str | Path) -> list[object]:
    """Every frame in a capture's received bytes, decoded as the agent would."""
    decoder = Decoder()
    return [frame for _, data in replay_capture(path) for frame in decoder.feed(data)]


# --- doctor: is this Raspberry Pi ready to run a table? ----------------------------------------------


class Status(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "FAIL"


@dataclass(frozen=True, slots=True)
class Finding:
    """One check's verdict, in words a club's volunteer can act on."""

    check: str
    status: Status
    message: str

    def __str__(self) -> str:
        return f"[{self.status.value:>4}] {self.check}: {self.message}"


def check_config(profile_path: Path, decks_path: Path | None) -> tuple[list[Finding], TableProfile | None]:
    from hw.decks import DeckRegistry

    findings: list[Finding] = []
    profile: TableProfile | None = None
    try:
        profile = TableProfile.load(profile_path)
        findings.append(Finding("config", Status.OK, f"table {profile.table}: {profile.seats} seats, "
                                f"{len(profile.antennas)} antennas, reader {profile.reader.url}"))
    except (ValueError, OSError) as err:
        findings.append(Finding("config", Status.FAIL, f"{err}"))
    if decks_path is not None:
        try:
            registry = DeckRegistry.load(decks_path)
            mine = registry.decks_of(profile.table) if profile else []
            if profile and len(mine) < 2:
                findings.append(Finding("decks", Status.WARN, f"{decks_path}: table {profile.table} has "
                                        f"{len(mine)} deck(s) registered, a table deals from two"))
            else:
                short = [f"{d.id} has {len(d.cards)}" for d in mine if len(d.cards) != 52]
                if short:
                    findings.append(Finding("decks", Status.WARN, f"{decks_path}: {', '.join(short)} of 52 "
                                            "cards: an unregistered card reads as an unknown tag"))
                else:
                    findings.append(Finding("decks", Status.OK, f"{len(registry)} tags registered"))
        except (ValueError, OSError) as err:
            findings.append(Finding("decks", Status.FAIL, f"{err}"))
    return findings, profile


def _open_failure(url: str, err: BaseException) -> str:
    text = str(err)
    if "Errno 2]" in text or "No such file" in text:
        return (f"no device at {url}: is the reader board plugged in and powered? "
                "(`ls -l /dev/serial/by-id/` lists what is connected)")
    if "Errno 13]" in text or "ermission denied" in text:
        return (f"permission denied on {url}: the service user must be in the dialout group "
                "(sudo usermod -aG dialout tapis)")
    if "Errno 16]" in text or "busy" in text.lower():
        return f"{url} is busy: another program has it open (stop tapis-agent before running the doctor)"
    return f"cannot open {url}: {text}"


def check_reader(profile: TableProfile, open_link: Callable[[], ByteLink], *, timeout: float = 2.0) -> list[Finding]:
    """Open the reader and ask for its Hello: present, speaking our protocol, with enough antennas."""
    url = profile.reader.url
    try:
        link = open_link()
    except OSError as err:
        return [Finding("reader", Status.FAIL, _open_failure(url, err))]
    decoder = Decoder()
    findings: list[Finding] = []
    hello: Hello | None = None
    try:
        link.write(encode(HostHello(PROTOCOL_VERSION)))
        deadline = time.monotonic() + timeout
        while hello is None and time.monotonic() < deadline:
            for frame in decoder.feed(link.read(4096)):
                if isinstance(frame, Hello):
                    hello = frame
                elif isinstance(frame, ReaderFault):
                    where = "the board" if frame.antenna is None else f"antenna {frame.antenna}"
                    findings.append(Finding("reader", Status.WARN, f"{where} reports "
                                            f"{frame.code.name.lower().replace('_', ' ')} {frame.detail}".strip()))
    except OSError as err:
        return [Finding("reader", Status.FAIL, f"{url} failed while talking to it: {err}")]
    finally:
        try:
            link.close()
        except OSError:
            pass
    if hello is None:
        damaged = decoder.stats.rejected_total
        hint = (f"{damaged} damaged frames came in: check the baud rate ({profile.reader.baudrate}) and the cable"
                if damaged else "check it is powered and runs tapis reader firmware")
        return findings + [Finding("reader", Status.FAIL, f"{url} opened but did not answer in {timeout:g} s: {hint}")]
    if hello.version != PROTOCOL_VERSION:
        return findings + [Finding("reader", Status.FAIL, f"the board speaks protocol v{hello.version}, this "
                                   f"agent v{PROTOCOL_VERSION}: update the board's firmware or tapis")]
    if hello.antennas < profile.antenna_count:
        return findings + [Finding("reader", Status.FAIL, f"the board has {hello.antennas} antennas but the "
                                   f"profile uses antennas up to {profile.antenna_count - 1}")]
    return findings + [Finding("reader", Status.OK, f"{hello.firmware} (protocol v{hello.version}, "
                               f"{hello.antennas} antennas) on {url}")]


def check_pcsc(open_pcsc: Callable[[], PcscPort], readers: Mapping[str, int]) -> list[Finding]:
    """PC/SC readers instead of a board: pcscd reachable, every mapped reader plugged in."""
    try:
        port = open_pcsc()
    except OSError as err:
        return [Finding("reader", Status.FAIL, f"{err}: is pcscd installed and running? "
                        "(sudo systemctl status pcscd.socket)")]
    try:
        listed = port.readers()
    except OSError as err:
        return [Finding("reader", Status.FAIL, str(err))]
    finally:
        try:
            port.close()
        except OSError:
            pass
    missing = [f"{name!r} (antenna {antenna})" for name, antenna in sorted(readers.items(), key=lambda r: r[1])
               if name not in listed]
    others = [name for name in listed if name not in readers]
    hint = f"; pcscd sees {', '.join(repr(n) for n in others)}" if others else ""
    if missing:
        return [Finding("reader", Status.FAIL, f"PC/SC reader{'s' if len(missing) > 1 else ''} not plugged in: "
                        f"{', '.join(missing)}{hint}")]
    return [Finding("reader", Status.OK, f"{len(readers)} PC/SC readers present" + hint)]


def check_panel(gpio_chips: Sequence[Path], i2c_buses: Sequence[Path] = ()) -> list[Finding]:
    """The dealer panel needs a GPIO chip, the seat panels' MCP23017 expanders an I2C bus, both
    openable by the service user."""
    present = [chip for chip in gpio_chips if chip.exists()]
    if not present:
        return [Finding("panel", Status.WARN, f"no GPIO chip ({', '.join(map(str, gpio_chips))}): not a "
                        "Raspberry Pi, or GPIO disabled; the dealer panel will not work")]
    denied = [chip for chip in present if not os.access(chip, os.R_OK | os.W_OK)]
    if denied:
        return [Finding("panel", Status.FAIL, f"cannot open {denied[0]}: the service user must be in the "
                        "gpio group (sudo usermod -aG gpio tapis)")]
    findings = [Finding("panel", Status.OK, f"GPIO {', '.join(str(c) for c in present)} accessible")]
    for bus in i2c_buses:
        if not bus.exists():
            findings.append(Finding("panel", Status.WARN, f"no {bus}: I2C is off, the seat panels will not "
                                    "work (sudo raspi-config nonint do_i2c 0, then reboot)"))
        elif not os.access(bus, os.R_OK | os.W_OK):
            findings.append(Finding("panel", Status.FAIL, f"cannot open {bus}: the service user must be in the "
                                    "i2c group (sudo usermod -aG i2c tapis)"))
        else:
            findings.append(Finding("panel", Status.OK, f"I2C {bus} accessible"))
    return findings


def _mqtt_connect_packet(client_id: str) -> bytes:
    """A minimal MQTT 3.1.1 CONNECT (clean session, keepalive 10 s): enough to get a CONNACK."""
    ident = client_id.encode()
    variable = b"\x00\x04MQTT\x04\x02\x00\x0a"
    payload = len(ident).to_bytes(2, "big") + ident
    return bytes((0x10, len(variable) + len(payload))) + variable + payload


_CONNACK = {1: "refused the protocol version", 2: "refused the client id", 3: "is unavailable",
            4: "refused the user name or password", 5: "refused: not authorised"}


def check_broker(url: str, *, timeout: float = 2.0) -> list[Finding]:
    """TCP to the broker and an MQTT CONNECT: reachable, speaking MQTT, accepting us."""
    from hub.broker import parse_url

    try:
        host, port = parse_url(url)
    except ValueError as err:
        return [Finding("broker", Status.FAIL, str(err))]
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.settimeout(timeout)
            sock.sendall(_mqtt_connect_packet(f"tapis-doctor-{os.getpid()}"))
            answer = sock.recv(4)
    except socket.gaierror:
        return [Finding("broker", Status.FAIL, f"cannot resolve {host}: check the broker address")]
    except ConnectionRefusedError:
        return [Finding("broker", Status.FAIL, f"nothing listens on {host}:{port}: is the hub (or Mosquitto) "
                        "running? (systemctl status tapis-hub)")]
    except (TimeoutError, socket.timeout):
        return [Finding("broker", Status.FAIL, f"{host}:{port} does not answer in {timeout:g} s: wrong address, "
                        "or a firewall in between")]
    except OSError as err:
        return [Finding("broker", Status.FAIL, f"cannot reach {host}:{port}: {err}")]
    if len(answer) != 4 or answer[0] != 0x20:
        return [Finding("broker", Status.FAIL, f"{host}:{port} answered, but not as an MQTT broker")]
    if answer[3] != 0:
        why = _CONNACK.get(answer[3], f"refused (code {answer[3]})")
        return [Finding("broker", Status.FAIL, f"the broker at {host}:{port} {why}")]
    return [Finding("broker", Status.OK, f"MQTT broker at {host}:{port} accepts connections")]


def ntp_synchronised() -> bool | None:
    """systemd's view of NTP sync; None when it cannot be asked (no timedatectl, no systemd)."""
    try:
        done = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                              capture_output=True, text=True, timeout=5, check=False)
        if done.returncode == 0 and done.stdout.strip() in ("yes", "no"):
            return done.stdout.strip() == "yes"
    except (OSError, subprocess.TimeoutExpired):
        pass
    if Path("/run/systemd/timesync/synchronized").exists():
        return True
    return None


def check_clock(probe: Callable[[], bool | None]) -> list[Finding]:
    synced = probe()
    if synced is None:
        return [Finding("clock", Status.WARN, "cannot tell whether the clock is synchronised (no timedatectl); "
                        "event times from this table may not match the hub's")]
    if not synced:
        return [Finding("clock", Status.FAIL, "the clock is not synchronised: event times will drift from the "
                        "hub's (a Raspberry Pi has no battery clock); enable NTP with "
                        "`sudo timedatectl set-ntp true` and check the network reaches an NTP server")]
    return [Finding("clock", Status.OK, "synchronised by NTP")]


def doctor(*, profile_path: Path, decks_path: Path | None = None, broker: str | None = None,
           open_link: Callable[[TableProfile], ByteLink] | None = None,
           gpio_chips: Sequence[Path] = (Path("/dev/gpiochip0"),),
           i2c_buses: Sequence[Path] = (Path("/dev/i2c-1"),),
           clock_probe: Callable[[], bool | None] = ntp_synchronised, timeout: float = 2.0,
           pcsc_readers: Mapping[str, int] | None = None,
           open_pcsc: Callable[[], PcscPort] | None = None) -> list[Finding]:
    """Every check, in the order a volunteer should fix things. `open_link` defaults to the profile's
    serial URL; with `pcsc_readers` (name -> antenna) the PC/SC readers are checked instead; the
    broker check is skipped without a URL."""
    findings, profile = check_config(profile_path, decks_path)
    if pcsc_readers:
        findings += check_pcsc(open_pcsc or _pyscard, pcsc_readers)
    elif profile is not None:
        opener = open_link or _serial_opener
        findings += check_reader(profile, lambda: opener(profile), timeout=timeout)
    findings += check_panel(gpio_chips, i2c_buses)
    if broker:
        findings += check_broker(broker, timeout=timeout)
    else:
        findings.append(Finding("broker", Status.WARN, "no broker URL given (--broker or TAPIS_BROKER): not checked"))
    findings += check_clock(clock_probe)
    return findings


def _pyscard() -> PcscPort:
    from hw.pcsc import PyscardPort

    return PyscardPort()


def parse_pcsc_readers(specs: Sequence[str]) -> dict[str, int]:
    """`NAME=ANTENNA` arguments (reader names contain spaces: quote them) to a reader table."""
    table: dict[str, int] = {}
    for spec in specs:
        name, _, antenna = spec.rpartition("=")
        if not name or not antenna.strip().isdigit():
            raise ValueError(f"--pcsc-reader {spec!r}: expected \"READER NAME=ANTENNA\"")
        table[name.strip()] = int(antenna)
    return table


def _serial_opener(profile: TableProfile) -> ByteLink:
    from hw.serial_link import SerialLink

    return SerialLink(profile.reader.url, baudrate=profile.reader.baudrate)


# --- entry points (wired into `tapis`) ---------------------------------------------------------------

DEFAULT_PROFILE = "/etc/tapis/table.toml"
DEFAULT_DECKS = "/etc/tapis/decks.toml"


def doctor_main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """`tapis doctor [--profile F] [--decks F] [--broker URL]`: 0 when nothing failed, 1 otherwise."""
    out = out or sys.stdout
    p = argparse.ArgumentParser(prog="tapis doctor", description="check this table's setup, in plain words")
    p.add_argument("--profile", default=DEFAULT_PROFILE)
    p.add_argument("--decks", default=DEFAULT_DECKS)
    p.add_argument("--broker", default=os.environ.get("TAPIS_BROKER"), help="mqtt://host:port (env TAPIS_BROKER)")
    p.add_argument("--timeout", type=float, default=2.0)
    p.add_argument("--pcsc-reader", action="append", default=[], metavar="NAME=ANTENNA",
                   help="check PC/SC readers instead of the serial board (repeat per reader)")
    args = p.parse_args(argv)
    decks = Path(args.decks) if args.decks else None
    try:
        readers = parse_pcsc_readers(args.pcsc_reader)
    except ValueError as err:
        p.error(str(err))
    findings = doctor(profile_path=Path(args.profile), decks_path=decks, broker=args.broker, timeout=args.timeout,
                      pcsc_readers=readers or None)
    for finding in findings:
        print(finding, file=out)
    failed = sum(f.status is Status.FAIL for f in findings)
    print("all good" if not failed else f"{failed} problem(s) to fix", file=out)
    return 1 if failed else 0


def main_agent_tools(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """`tapis agent scan|capture|replay ...`: install and support tools on one table's reader."""
    out = out or sys.stdout
    p = argparse.ArgumentParser(prog="tapis agent", description="reader tools for installers and support")
    sub = p.add_subparsers(dest="tool", required=True)
    s = sub.add_parser("scan", help="show live antenna reads (lay the antennas, put a card on each)")
    s.add_argument("--profile", default=DEFAULT_PROFILE)
    s.add_argument("--seconds", type=float, default=60.0)
    s.add_argument("--pcsc", action="store_true", help="PC/SC readers instead of the serial board")
    s.add_argument("--pcsc-reader", action="append", default=[], metavar="NAME=ANTENNA",
                   help="with --pcsc: which reader is which antenna (default: every reader, in pcscd's order)")
    c = sub.add_parser("capture", help="record raw reader traffic with timestamps (JSON lines)")
    c.add_argument("file")
    c.add_argument("--profile", default=DEFAULT_PROFILE)
    c.add_argument("--seconds", type=float, default=30.0)
    r = sub.add_parser("replay", help="decode a capture and print its frames with their times")
    r.add_argument("file")
    args = p.parse_args(argv)
    try:
        if args.tool == "replay":
            decoder = Decoder()
            for t, data in replay_capture(args.file):
                for frame in decoder.feed(data):
                    print(f"{t:9.3f}  {frame}", file=out)
            print(f"{decoder.stats.frames} frames, {decoder.stats.rejected_total} rejected", file=out)
            return 0
        profile = TableProfile.load(args.profile)
        if args.tool == "scan" and args.pcsc:
            from hw.pcsc_worker import pcsc_worker_factory

            readers = parse_pcsc_readers(args.pcsc_reader)
            if not readers:
                port = _pyscard()
                try:
                    readers = {name: antenna for antenna, name in enumerate(port.readers())}
                finally:
                    port.close()
            for name, antenna in sorted(readers.items(), key=lambda r: r[1]):
                print(f"antenna {antenna:>2} = PC/SC reader {name!r}", file=out)
            scan(profile, None, out, args.seconds, reader=pcsc_worker_factory(readers))
            return 0
        if args.tool == "scan":
            scan(profile, lambda: _serial_opener(profile), out, args.seconds)
            return 0
        received = capture(lambda: _serial_opener(profile), args.file, args.seconds,
                           scan_period_ms=profile.reader.scan_period_ms)
        print(f"captured {received} bytes from {profile.reader.url} in {args.seconds:g} s to {args.file}", file=out)
        return 0
    except (ValueError, OSError) as err:
        print(f"tapis agent {args.tool}: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # `python -m table_agent.tools doctor|scan|capture|replay ...` until `tapis` wires them
    arguments = sys.argv[1:]
    if arguments[:1] == ["doctor"]:
        sys.exit(doctor_main(arguments[1:]))
    sys.exit(main_agent_tools(arguments))
