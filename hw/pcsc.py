"""PC/SC readers (one contactless reader, e.g. an ACS ACR122U, per antenna) behind a small port.

`PcscPort` is what `hw.pcsc_worker` needs: reader names, card presence, the UID by `FF CA 00 00 00`.
`PyscardPort` implements it over pyscard and pcscd, `FakePcsc` for tests; errors are `hw.errors` types.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Protocol

from hw.errors import HardwareError, LinkError

GET_UID = bytes.fromhex("FFCA000000")  # PC/SC part 3 "Get Data", UID of the card in the field
SW_OK = 0x9000

# pcsc-lite return codes that mean "this context is dead: rebuild it" (pcscd stopped or restarted)
_SERVICE_GONE = {
    0x8010001D: "pcscd is not running",  # SCARD_E_NO_SERVICE
    0x8010001E: "pcscd stopped",  # SCARD_E_SERVICE_STOPPED
    0x80100003: "PC/SC context no longer valid",  # SCARD_E_INVALID_HANDLE
    0x80100013: "lost the connection to pcscd",  # SCARD_F_COMM_ERROR
}
_NO_READERS = 0x8010002E  # SCARD_E_NO_READERS_AVAILABLE: an empty list, not an error
_UNKNOWN_READER = 0x80100009  # SCARD_E_UNKNOWN_READER: unplugged between listing and asking


class PcscServiceError(LinkError):
    """pcscd cannot be reached, or the context died (pcscd restarted): rebuild the context."""


class CardReadError(HardwareError, OSError):
    """One card could not be read (lifted during the read, mute, or refused the UID command)."""


@dataclass(frozen=True, slots=True)
class CardState:
    """A reader's slot: a card lies there or not; `events` counts insertions and removals (pcsc-lite
    keeps it in the high 16 bits of the event state), so a card swapped between two polls is noticed."""

    present: bool
    events: int = 0


class PcscPort(Protocol):
    """The pyscard entry points the worker uses. Built by a factory that establishes the context;
    `readers` and `states` raise `PcscServiceError` when pcscd is gone, `read_uid` `CardReadError`."""

    def readers(self) -> list[str]: ...

    def states(self, readers: Sequence[str]) -> dict[str, CardState]: ...

    def read_uid(self, reader: str) -> bytes: ...

    def close(self) -> None: ...


def parse_uid_response(response: bytes) -> bytes:
    """The answer to `GET_UID`: UID then SW1 SW2 = 90 00; anything else is a `CardReadError`."""
    if len(response) < 2:
        raise CardReadError(f"GET UID answer too short: {response.hex().upper() or 'nothing'}")
    sw = int.from_bytes(response[-2:], "big")
    if sw != SW_OK:
        raise CardReadError(f"GET UID refused, status {sw:04X}")
    if len(response) == 2:
        raise CardReadError("GET UID answered 90 00 with no UID")
    return bytes(response[:-2])


class PyscardPort:
    """`PcscPort` over pyscard's low-level `smartcard.scard` and the local pcscd.

    The socket is pcsc-lite's default, or `PCSCLITE_CSOCK_NAME` if set before the first context is
    established in this process (libpcsclite reads it once). Polling asks with SCARD_STATE_UNAWARE and
    timeout 0, so `states` never blocks; a card's UID is read with a short shared connection.
    """

    def __init__(self, *, scard: ModuleType | None = None) -> None:
        if scard is None:
            try:
                from smartcard import scard as module  # type: ignore[import-untyped]  # here: tests run without it
            except ImportError as err:
                raise PcscServiceError("pyscard is not installed (pip install pyscard)") from err
            scard = module
        self._scard = scard
        hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
        if hresult != 0:
            raise PcscServiceError(f"cannot reach pcscd: {self._message(hresult)}")
        self._context = context
        self._lock = threading.Lock()  # one context, one caller at a time
        self._closed = False

    def _message(self, hresult: int) -> str:
        code = hresult & 0xFFFFFFFF
        text = _SERVICE_GONE.get(code)
        if text is None:
            try:
                text = str(self._scard.SCardGetErrorMessage(hresult)).strip().rstrip(".")
            except Exception:  # pyscard's message table is a nicety; the code says enough
                text = "PC/SC error"
        return f"{text} (0x{code:08X})"

    def _service(self, hresult: int, doing: str) -> PcscServiceError:
        return PcscServiceError(f"PC/SC {doing}: {self._message(hresult)}")

    def readers(self) -> list[str]:
        with self._lock:
            hresult, names = self._scard.SCardListReaders(self._context, [])
        if hresult & 0xFFFFFFFF == _NO_READERS:
            return []
        if hresult != 0:
            raise self._service(hresult, "listing readers")
        return [str(n) for n in names]

    def states(self, readers: Sequence[str]) -> dict[str, CardState]:
        if not readers:
            return {}
        s = self._scard
        asked = [(name, s.SCARD_STATE_UNAWARE) for name in readers]
        with self._lock:
            hresult, answers = s.SCardGetStatusChange(self._context, 0, asked)
        if hresult & 0xFFFFFFFF == _UNKNOWN_READER:
            return {}  # one vanished since the listing: the next poll lists again
        if hresult != 0:
            raise self._service(hresult, "polling readers")
        out: dict[str, CardState] = {}
        for name, event_state, _atr in answers:
            present = bool(event_state & s.SCARD_STATE_PRESENT) and not event_state & s.SCARD_STATE_MUTE
            out[str(name)] = CardState(present, (event_state >> 16) & 0xFFFF)
        return out

    def read_uid(self, reader: str) -> bytes:
        s = self._scard
        with self._lock:
            hresult, card, protocol = s.SCardConnect(
                self._context, reader, s.SCARD_SHARE_SHARED, s.SCARD_PROTOCOL_T0 | s.SCARD_PROTOCOL_T1)
            if hresult & 0xFFFFFFFF in _SERVICE_GONE:
                raise self._service(hresult, f"connecting to {reader}")
            if hresult != 0:
                raise CardReadError(f"{reader}: cannot connect to the card: {self._message(hresult)}")
            try:
                hresult, response = s.SCardTransmit(card, protocol, list(GET_UID))
            finally:
                s.SCardDisconnect(card, s.SCARD_LEAVE_CARD)
        if hresult & 0xFFFFFFFF in _SERVICE_GONE:
            raise self._service(hresult, f"reading {reader}")
        if hresult != 0:
            raise CardReadError(f"{reader}: GET UID failed: {self._message(hresult)}")
        return parse_uid_response(bytes(response))

    def close(self) -> None:
        """Idempotent; a context that died with pcscd is released without complaint."""
        if self._closed:
            return
        self._closed = True
        with self._lock:
            self._scard.SCardReleaseContext(self._context)


class FakePcsc:
    """An in-process pcscd for unit tests: readers plugged and unplugged, cards placed and lifted,
    the service stopped and restarted. `open()` is the factory a worker takes; ports opened before a
    restart fail like a real dead context. Thread-safe."""

    def __init__(self, readers: Sequence[str] = ()) -> None:
        self._lock = threading.Lock()
        self._cards: dict[str, bytes | None] = {name: None for name in readers}
        self._events: dict[str, int] = {name: 0 for name in readers}
        self._refusals: dict[str, int] = {}
        self._unplugged: set[str] = set()
        self.running = True
        self.generation = 0
        self.reads = 0  # GET UID commands answered, to check a card is read once, not every poll

    def open(self) -> FakePcscPort:
        with self._lock:
            if not self.running:
                raise PcscServiceError("cannot reach pcscd: pcscd is not running (0x8010001D)")
            return FakePcscPort(self, self.generation)

    def plug(self, reader: str) -> None:
        """A reader plugged (in again): a card left lying on it while it was out is there."""
        with self._lock:
            self._cards.setdefault(reader, None)
            self._unplugged.discard(reader)
            self._events[reader] = self._events.get(reader, -1) + 1  # a reader arriving is an event

    def unplug(self, reader: str) -> None:
        """The reader's USB cable is out: PC/SC no longer lists it; its card still lies on it."""
        with self._lock:
            if reader not in self._cards:
                raise KeyError(f"no reader {reader!r}")
            self._unplugged.add(reader)

    def place(self, reader: str, uid: bytes) -> None:
        """A card on the reader (plugged or not: a card can be put where an unplugged reader lies)."""
        with self._lock:
            if reader not in self._cards:
                raise KeyError(f"no reader {reader!r}")
            self._cards[reader] = uid
            self._events[reader] += 1

    def remove(self, reader: str) -> None:
        with self._lock:
            self._cards[reader] = None
            self._events[reader] += 1

    def refuse(self, reader: str, status: int) -> None:
        """The card on this reader answers its next GET UID with `status` (6A81: not supported)."""
        with self._lock:
            self._refusals[reader] = status

    def stop(self) -> None:
        with self._lock:
            self.running = False
            self.generation += 1

    def start(self) -> None:
        with self._lock:
            self.running = True

    # --- what FakePcscPort calls ----------------------------------------------------------------

    def _check(self, generation: int) -> None:
        if not self.running:
            raise PcscServiceError("PC/SC polling readers: pcscd is not running (0x8010001D)")
        if generation != self.generation:
            raise PcscServiceError("PC/SC polling readers: PC/SC context no longer valid (0x80100003)")

    def _readers(self, generation: int) -> list[str]:
        with self._lock:
            self._check(generation)
            return [name for name in self._cards if name not in self._unplugged]

    def _states(self, generation: int, readers: Sequence[str]) -> dict[str, CardState]:
        with self._lock:
            self._check(generation)
            return {r: CardState(self._cards[r] is not None, self._events[r]) for r in readers
                    if r in self._cards and r not in self._unplugged}

    def _read_uid(self, generation: int, reader: str) -> bytes:
        with self._lock:
            self._check(generation)
            uid = None if reader in self._unplugged else self._cards.get(reader)
            if uid is None:
                raise CardReadError(f"{reader}: cannot connect to the card: no card (0x8010000C)")
            status = self._refusals.pop(reader, None)
            self.reads += 1
            answer = uid + SW_OK.to_bytes(2, "big") if status is None else status.to_bytes(2, "big")
        return parse_uid_response(answer)


class FakePcscPort:
    """One context on a `FakePcsc`."""

    def __init__(self, fake: FakePcsc, generation: int) -> None:
        self._fake = fake
        self._generation = generation
        self.closed = False

    def readers(self) -> list[str]:
        return self._fake._readers(self._generation)

    def states(self, readers: Sequence[str]) -> dict[str, CardState]:
        return self._fake._states(self._generation, readers)

    def read_uid(self, reader: str) -> bytes:
        return self._fake._read_uid(self._generation, reader)

    def close(self) -> None:
        self.closed = True
