"""PC/SC virtual cards: a real pcscd with vsmartcard's vpcd driver, on a private socket, and our cards.

Stands in for contactless readers with cards on them: `PrivatePcscd` runs pcscd with two vpcd slots;
a `VirtualCard` on a slot's TCP port speaks vpcd's protocol and answers `FF CA 00 00 00` with its UID.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from hub.edge.broker import free_port

# PC/SC part 3 ATR of a contactless MIFARE Classic 1K, as an ACR122U reports a card on its field
DEFAULT_ATR = bytes.fromhex("3B8F8001804F0CA000000306030001000000006A")
VPCD_DRIVER = Path("/usr/lib/pcsc/drivers/serial/libifdvpcd.so")
CTRL_OFF, CTRL_ON, CTRL_RESET, CTRL_ATR = 0, 1, 2, 4
SLOTS_PER_DRIVER = 2  # vpcd opens two slots (readers): port and port + 1


def respond(apdu: bytes, uid: bytes) -> bytes:
    """A contactless reader's answer to one APDU about the card `uid` (PC/SC part 3 pseudo-APDUs)."""
    if len(apdu) < 4:
        return b"\x67\x00"  # wrong length
    cla, ins, p1, p2 = apdu[:4]
    if cla != 0xFF:
        return b"\x6E\x00"  # class not supported
    if ins != 0xCA:
        return b"\x6D\x00"  # instruction not supported
    if (p1, p2) != (0, 0):
        return b"\x6A\x81"  # only the UID (P1 = 00); ATS history bytes (P1 = 01) are not emulated
    le = apdu[4] if len(apdu) >= 5 else 0
    if le and le < len(uid):
        return bytes((0x6C, len(uid)))  # wrong Le: the right one follows
    return uid + b"\x90\x00"


class VirtualCard:
    """One card on one vpcd slot. `place()` connects (and reconnects after a pcscd restart) until
    `remove()`; every APDU received is kept in `apdus`. Thread-safe."""

    def __init__(self, uid: bytes, *, port: int, host: str = "127.0.0.1", atr: bytes = DEFAULT_ATR) -> None:
        self.uid = uid
        self.port = port
        self.host = host
        self.atr = atr
        self.apdus: list[bytes] = []
        self.controls: list[int] = []
        self.connections = 0
        self._placed = threading.Event()
        self._thread: threading.Thread | None = None
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    def place(self) -> VirtualCard:
        if self._thread is not None and self._thread.is_alive():
            return self
        self._placed.set()
        self._thread = threading.Thread(target=self._run, name=f"vcard-{self.uid.hex()}", daemon=True)
        self._thread.start()
        return self

    def remove(self) -> None:
        """Lift the card: its connection closes, vpcd reports the slot empty."""
        self._placed.clear()
        with self._lock:
            sock, self._sock = self._sock, None
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None

    @property
    def connected(self) -> bool:
        return self._sock is not None

    def _run(self) -> None:
        while self._placed.is_set():
            try:
                sock = socket.create_connection((self.host, self.port), timeout=0.5)
            except OSError:
                time.sleep(0.05)  # pcscd not (yet) listening on this slot
                continue
            with self._lock:
                if not self._placed.is_set():
                    sock.close()
                    return
                self._sock = sock
                self.connections += 1
            try:
                self._serve(sock)
            except OSError:
                pass  # pcscd went away; reconnect while the card is still placed
            finally:
                with self._lock:
                    if self._sock is sock:
                        self._sock = None
                sock.close()

    def _serve(self, sock: socket.socket) -> None:
        sock.settimeout(None)
        while self._placed.is_set():
            header = _read_exactly(sock, 2)
            if header is None:
                return
            (length,) = struct.unpack(">H", header)
            message = _read_exactly(sock, length)
            if message is None:
                return
            if length == 1:
                self.controls.append(message[0])
                if message[0] == CTRL_ATR:
                    sock.sendall(struct.pack(">H", len(self.atr)) + self.atr)
                continue  # power off/on and reset need no answer
            self.apdus.append(message)
            answer = respond(message, self.uid)
            sock.sendall(struct.pack(">H", len(answer)) + answer)


def _read_exactly(sock: socket.socket, size: int) -> bytes | None:
    data = bytearray()
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return bytes(data)


def _free_port_pair() -> int:
    """A port p with p and p + 1 both free on this host (vpcd's two slots)."""
    for _ in range(50):
        port = free_port()  # below the outgoing range: no connection takes it before vpcd binds
        if port >= 65535:
            continue
        with contextlib.ExitStack() as stack:
            try:
                for p in (port, port + 1):
                    s = stack.enter_context(socket.socket())
                    s.bind(("0.0.0.0", p))
            except OSError:
                continue
            return port
    raise OSError("no two consecutive free TCP ports")


def unavailable_reason() -> str | None:
    """Why a private pcscd with vpcd cannot run here, in words; None when it can."""
    if shutil.which("pcscd") is None and not Path("/usr/sbin/pcscd").exists():
        return "pcscd is not installed (apt-get install pcscd)"
    if not VPCD_DRIVER.exists():
        return f"vpcd driver {VPCD_DRIVER} missing (apt-get install vsmartcard-vpcd)"
    try:
        import smartcard.scard  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        return "pyscard is not installed (pip install pyscard; needs libpcsclite-dev and swig to build)"
    if _isolation() is None:
        return ("cannot give pcscd a private /run (unshare -m needs root, unshare -rm user namespaces);"
                " its pid file would collide with the system's pcscd")
    return None


@functools.cache
def _isolation() -> list[str] | None:
    """The unshare prefix that gives pcscd a private /run: its pid file and cleanup are hardcoded there."""
    if shutil.which("unshare") is None:
        return None
    for prefix in (["unshare", "-m"], ["unshare", "-rm"]):
        probe = subprocess.run([*prefix, "sh", "-c", "mount -t tmpfs tmpfs /run"],
                               capture_output=True, timeout=5, check=False)
        if probe.returncode == 0:
            return prefix
    return None


class PrivatePcscd:
    """pcscd on a private socket with `readers` (1 or 2) vpcd slots, started and stopped by the caller.

    pcsc-lite 1.9's daemon ignores PCSCLITE_CSOCK_NAME, so the socket is handed over the systemd way
    (LISTEN_FDS=1, fd 3) and pcscd runs in a private mount namespace with its own /run. Clients find
    it through PCSCLITE_CSOCK_NAME, which libpcsclite reads once per process: set it (to `socket_path`)
    before the first context. `--auto-exit` ends a forgotten daemon after 60 s without clients.
    """

    def __init__(self, *, socket_path: str | Path, readers: int = 2, debug: bool = False) -> None:
        if not 1 <= readers <= SLOTS_PER_DRIVER:
            # vpcd keeps its slots in one static array indexed by slot number: a second reader.conf
            # entry in the same pcscd overwrites the first's (seen with vsmartcard 0.8 / Debian 3.3)
            raise ValueError(f"vpcd gives one pcscd {SLOTS_PER_DRIVER} readers, asked for {readers}")
        self.socket_path = Path(socket_path)
        self._dir = Path(tempfile.mkdtemp(prefix="tapis-pcscd-"))
        self._conf = self._dir / "reader.conf.d"
        self._conf.mkdir()
        self.log_path = self._dir / "pcscd.log"
        self._debug = debug
        self.ports: list[int] = []  # slot i listens on ports[i]
        self.names: list[str] = []  # slot i's reader name, as PC/SC lists it
        self._readers = readers
        self._base = _free_port_pair()
        self._write_conf("tapis vpcd")
        self._process: subprocess.Popen[bytes] | None = None

    def _write_conf(self, friendly: str) -> None:
        (self._conf / "vpcd").write_text(
            f'FRIENDLYNAME "{friendly}"\nDEVICENAME /dev/null:0x{self._base:04X}\n'
            f"LIBPATH {VPCD_DRIVER}\nCHANNELID 0x{self._base:04X}\n", encoding="ascii")
        self.ports = [self._base + slot for slot in range(self._readers)]
        self.names = [f"{friendly} 00 {slot:02X}" for slot in range(self._readers)]

    def start(self) -> PrivatePcscd:
        prefix = _isolation()
        if prefix is None:
            raise OSError(unavailable_reason() or "pcscd cannot be isolated")
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            listener.bind(str(self.socket_path))
            listener.listen(64)
            fd = listener.fileno()  # dup'ed to 3 before exec; 3 must be kept when fds are closed
            flags = ["-f", "-x", "-c", str(self._conf)] + (["-d", "-a"] if self._debug else [])
            script = 'mount -t tmpfs tmpfs /run && LISTEN_PID=$$ exec "$@"'
            env = dict(os.environ, LISTEN_FDS="1")
            env.pop("PCSCLITE_CSOCK_NAME", None)
            with open(self.log_path, "ab") as log:
                self._process = subprocess.Popen(
                    [*prefix, "sh", "-c", script, "sh", "pcscd", *flags], env=env, pass_fds=(fd, 3),
                    preexec_fn=lambda: os.dup2(fd, 3), stdout=log, stderr=subprocess.STDOUT)
        finally:
            listener.close()  # pcscd holds its own copy
        return self

    def wait_ready(self, timeout: float = 5.0) -> list[str]:
        """Until PC/SC lists every slot's reader; returns the listing. Needs PCSCLITE_CSOCK_NAME set
        to `socket_path` in this process (probing the TCP ports instead would look like a card)."""
        from smartcard import scard

        if os.environ.get("PCSCLITE_CSOCK_NAME") != str(self.socket_path):
            raise OSError(f"set PCSCLITE_CSOCK_NAME={self.socket_path} before using PC/SC in this process")
        deadline = time.monotonic() + timeout
        listed: list[str] = []
        while True:
            if self._process is not None and self._process.poll() is not None:
                raise OSError(f"pcscd exited with {self._process.returncode}: {self.log_tail()}")
            hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
            if hresult == 0:
                hresult, names = scard.SCardListReaders(context, [])
                scard.SCardReleaseContext(context)
                listed = [str(n) for n in names] if hresult == 0 else []
                if set(self.names) <= set(listed):
                    return listed
            if time.monotonic() > deadline:
                raise OSError(f"pcscd lists {listed}, expected {self.names}: {self.log_tail()}")
            time.sleep(0.02)

    def stop(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def restart(self, *, friendly: str | None = None) -> None:
        """pcscd stopped and started again on the same socket and ports (clients must rebuild); with
        `friendly`, the readers come back under another name, as if unplugged and others plugged in."""
        self.stop()
        if friendly is not None:
            self._write_conf(friendly)
        self.start()

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def log_tail(self, size: int = 2000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-size:]
        except OSError:
            return ""

    def cards(self, uids: Sequence[bytes]) -> list[VirtualCard]:
        """One unplaced card per slot, in slot order."""
        return [VirtualCard(uid, port=port) for uid, port in zip(uids, self.ports, strict=False)]

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> PrivatePcscd:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
