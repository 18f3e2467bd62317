"""hw/firmware/main.py, the board's entry point, run on fake hardware (see micropython_shim.py): it
boots, answers the host's handshake, scans its 14 empty antennas and sends heartbeats."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from firmware_bridge import (
    Decoder,
    FaultCode,
    Frame,
    Heartbeat,
    Hello,
    HostHello,
    ReaderFault,
    SetScanPeriod,
    StartScan,
    TagSeen,
    encode,
)

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "hw" / "firmware"


def shim(host: bytes, loops: int, stall: tuple[int, int] = (0, 0), cards: bool = False) -> dict[str, Any]:
    done = subprocess.run([sys.executable, str(HERE / "micropython_shim.py"), str(FIRMWARE), host.hex(), str(loops),
                           *map(str, stall), "1" if cards else "0"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run_board(host: bytes, loops: int) -> tuple[list[Frame], Decoder]:
    decoder = Decoder()
    return decoder.feed(bytes.fromhex(shim(host, loops)["out"])), decoder


def test_main_boots_answers_the_handshake_scans_and_beats() -> None:
    host = encode(HostHello(1)) + encode(SetScanPeriod(100)) + encode(StartScan())
    frames, decoder = run_board(host, loops=200)
    assert decoder.stats.rejected_total == 0
    assert frames[:2] == [Hello(1, 14, "tapis-rp2040 1")] * 2  # at boot, then the answer to HostHello
    beats = [f for f in frames if isinstance(f, Heartbeat)]
    assert len(beats) >= 2 and beats[0].uptime_ms >= 1000
    assert beats[-1].scans > beats[0].scans > 0  # it scans, at 100 ms
    assert not [f for f in frames if isinstance(f, TagSeen)]  # chips that hear no card read none


def test_main_idles_without_start_scan() -> None:
    frames, _ = run_board(encode(HostHello(1)), loops=100)
    beats = [f for f in frames if isinstance(f, Heartbeat)]
    assert beats and all(b.scans == 0 for b in beats)


def test_a_host_that_holds_the_port_without_reading_never_starves_the_watchdog() -> None:
    host = encode(HostHello(1)) + encode(SetScanPeriod(100)) + encode(StartScan())
    result = shim(host, loops=300, stall=(500, 6500), cards=True)  # the host stops reading for 6 s
    assert result["late"] == []  # no 2 s without a feed: no reboot loop
    frames = Decoder().feed(bytes.fromhex(result["out"]))
    overflow = [f for f in frames if isinstance(f, ReaderFault) and f.code is FaultCode.TX_OVERFLOW]
    assert len(overflow) == 1 and overflow[0].detail.startswith("dropped ")
    beats = [f for f in frames if isinstance(f, Heartbeat)]
    assert any(b.uptime_ms > 6500 for b in beats)  # and it talks again once the host reads


def test_the_led_is_the_boards_own_and_miso_is_pulled_down() -> None:
    pins = shim(encode(HostHello(1)), loops=5)["pins"]
    numbers = [p[0] for p in pins]
    assert "LED" in numbers and 25 not in numbers  # GP25 selects the Pico W's wireless chip
    assert [4, None, 2] in pins  # MISO (GP4) keeps its SPI function and gets the pull-down
