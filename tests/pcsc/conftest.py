"""A private pcscd with vsmartcard's vpcd for the PC/SC tests, skipped (with the reason) when it
cannot run here. libpcsclite reads PCSCLITE_CSOCK_NAME once per process, so it is set at import."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from simulators.vcard import PrivatePcscd, unavailable_reason

SOCKET = Path(tempfile.mkdtemp(prefix="tapis-pcsc-test-")) / "pcscd.comm"
os.environ["PCSCLITE_CSOCK_NAME"] = str(SOCKET)


@pytest.fixture
def pcscd() -> Iterator[PrivatePcscd]:
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"no private pcscd: {reason}")
    daemon = PrivatePcscd(socket_path=SOCKET, readers=2, debug=bool(os.environ.get("TAPIS_PCSCD_DEBUG")))
    try:
        daemon.start()
        daemon.wait_ready()
        yield daemon
    finally:
        daemon.close()
