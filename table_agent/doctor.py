"""`tapis doctor`: is this Raspberry Pi ready to run a table? Plain-words checks.

Consumes the table profile, the deck registry, the reader (serial or PC/SC), the panel's GPIO and I2C
devices, the broker and the clock's NTP state; emits `Finding`s (OK, WARN, FAIL) a club can act on.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TextIO

from firmware_bridge import (
    PROTOCOL_VERSION,
    Decoder,
    Hello,
    HostHello,
    ReaderFault,
    encode,
)
from hw.panel_mcp23017 import IOCON, I2CBus
from hw.panel_pins import PanelConfig
from hw.pcsc import PcscPort
from hw.ports import ByteLink
from hw.profile import TableProfile
from tablewire import credentials

DEFAULT_PROFILE = "/etc/tapis/table.toml"
DEFAULT_DECKS = "/etc/tapis/decks.toml"

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
            if profile:
                registry.require_table_decks(profile.table, profile.deck_ids)  # the agent would not start
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


def check_expanders(config: PanelConfig | None, open_bus: Callable[[int], I2CBus], *,
                    dev: Path = Path("/dev")) -> list[Finding]:
    """The profile's [panel]: every MCP23017 it lists answers at its address (one register read each).
    Skipped, not failed, on a machine without that I2C bus (a laptop, I2C still off)."""
    if config is None:
        return [Finding("panel", Status.WARN, "pas de section [panel] : aucun bouton ni voyant à cette table / "
                        "no [panel] section in the profile: no seat or dealer panel at this table")]
    if not config.expanders:
        return [Finding("panel", Status.OK, f"[panel]: {len(config.seats)} seats on the Pi's GPIOs, no expander")]
    node = dev / f"i2c-{config.i2c_bus}"
    if not node.exists():
        return [Finding("panel", Status.WARN, f"expanders not checked: no {node} on this machine (I2C off, or not "
                        "the table's Pi; sudo raspi-config nonint do_i2c 0, then reboot)")]
    try:
        bus = open_bus(config.i2c_bus)
    except OSError as err:
        return [Finding("panel", Status.FAIL, f"cannot open {node}: {err} (the service user must be in the i2c "
                        "group: sudo usermod -aG i2c tapis)")]
    silent: list[str] = []
    try:
        for address in config.expanders:
            try:
                bus.read_byte_data(address, IOCON)
            except OSError:
                seats = _seats_on(config, address)
                silent.append(f"{address:#04x}" + (f" (seat{'s' if len(seats) > 1 else ''} "
                                                   f"{' and '.join(map(str, seats))})" if seats else ""))
    finally:
        close = getattr(bus, "close", None)
        if close is not None:
            close()
    if silent:
        return [Finding("panel", Status.FAIL, f"no MCP23017 answers at {', '.join(silent)} on {node}: check the "
                        "expander board's power, its address straps (A2 A1 A0) and the I2C wires")]
    return [Finding("panel", Status.OK, f"{len(config.expanders)} MCP23017 answer on {node} "
                    f"({', '.join(f'{a:#04x}' for a in config.expanders)})")]


def _seats_on(config: PanelConfig, address: int) -> list[int]:
    chip = f"MCP{address:02X}:"
    return [seat for seat, pins in sorted(config.seats.items()) if any(str(p).startswith(chip) for _, p in pins)]


def _smbus(number: int) -> I2CBus:
    from smbus2 import SMBus

    return SMBus(number)


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
    from tablewire.broker_url import parse_url

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
    except TimeoutError:
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


def check_broker_login(url: str, link_options: Mapping[str, object], *, timeout: float = 2.0) -> list[Finding]:
    """A closed room's broker: log in as `tapis agent` will, with its user, password file and CA."""
    from tablewire.broker_url import parse_url
    from tablewire.mqtt import MqttLink

    try:
        host, port = parse_url(url)
    except ValueError as err:
        return [Finding("broker", Status.FAIL, str(err))]
    link = MqttLink(client_id=f"tapis-doctor-{os.getpid()}", host=host, port=port, **link_options)  # type: ignore[arg-type]
    try:
        link.start(timeout=timeout)
    except OSError as err:
        return [Finding("broker", Status.FAIL, f"{err}: check the broker address, --password-file, --user and "
                        "--ca (the table's credentials and the room's CA, docs/security.md)")]
    link.stop()
    how = "over TLS" if link_options.get("tls") else "without TLS"
    return [Finding("broker", Status.OK, f"MQTT broker at {host}:{port} accepts user "
                    f"{link_options.get('username') or '?'} {how}")]


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
           open_pcsc: Callable[[], PcscPort] | None = None,
           open_i2c: Callable[[int], I2CBus] = _smbus, dev: Path = Path("/dev"),
           link_options: Mapping[str, object] | None = None) -> list[Finding]:
    """Every check, in the order a volunteer should fix things. `open_link` defaults to the profile's
    serial URL; with `pcsc_readers` (name -> antenna) the PC/SC readers are checked instead; the
    broker check is skipped without a URL, and logs in with `link_options` (a closed room) when given."""
    findings, profile = check_config(profile_path, decks_path)
    if pcsc_readers:
        findings += check_pcsc(open_pcsc or _pyscard, pcsc_readers)
    elif profile is not None:
        opener = open_link or _serial_opener
        findings += check_reader(profile, lambda: opener(profile), timeout=timeout)
    findings += check_panel(gpio_chips, i2c_buses)
    if profile is not None:
        findings += check_expanders(profile.panel, open_i2c, dev=dev)
    if broker and link_options:
        findings += check_broker_login(broker, link_options, timeout=timeout)
    elif broker:
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



def doctor_main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """`tapis doctor [--profile F] [--decks F] [--broker URL]`: 0 when nothing failed, 1 otherwise."""
    out = out or sys.stdout
    p = argparse.ArgumentParser(prog="tapis doctor", description="check this table's setup, in plain words")
    p.add_argument("--profile", default=DEFAULT_PROFILE)
    p.add_argument("--decks", default=DEFAULT_DECKS)
    p.add_argument("--broker", default=os.environ.get("TAPIS_BROKER"), help="mqtt://host:port (env TAPIS_BROKER)")
    credentials.add_options(p)  # a closed room: the agent's --password-file and --ca (agent.env TAPIS_AGENT_AUTH)
    p.add_argument("--timeout", type=float, default=2.0)
    p.add_argument("--pcsc-reader", action="append", default=[], metavar="NAME=ANTENNA",
                   help="check PC/SC readers instead of the serial board (repeat per reader)")
    args = p.parse_args(argv)
    decks = Path(args.decks) if args.decks else None
    try:
        readers = parse_pcsc_readers(args.pcsc_reader)
    except ValueError as err:
        p.error(str(err))
    try:
        link_options = credentials.link_options(args)
    except (OSError, ValueError) as err:
        p.error(f"--password-file / --ca: {err}")
    findings = doctor(profile_path=Path(args.profile), decks_path=decks, broker=args.broker, timeout=args.timeout,
                      pcsc_readers=readers or None, link_options=link_options)
    for finding in findings:
        print(finding, file=out)
    failed = sum(f.status is Status.FAIL for f in findings)
    print("all good" if not failed else f"{failed} problem(s) to fix", file=out)
    return 1 if failed else 0

