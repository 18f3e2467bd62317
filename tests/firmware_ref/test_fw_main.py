"""hw/firmware/main.py, the board's entry point, run on fake hardware (see micropython_shim.py): it
boots, answers the host's handshake, scans its 14 empty antennas and sends heartbeats."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from firmware_bridge import Decoder, Frame, Heartbeat, Hello, HostHello, SetScanPeriod, StartScan, TagSeen, encode

HERE = Path(__file__).resolve().parent
FIRMWARE = HERE.parents[1] / "hw" / "firmware"


def run_board(host: bytes, loops: int) -> tuple[list[Frame], Decoder]:
    done = subprocess.run([sys.executable, str(HERE / "micropython_shim.py"), str(FIRMWARE), host.hex(), str(loops)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    decoder = Decoder()
    return decoder.feed(bytes.fromhex(done.stdout.strip())), decoder


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
