"""The hub's MQTT 5 link: one asyncio loop on one thread, named `hub`, which the hub's work runs on too.

`HubLink` offers what `tablewire.mqtt.MqttLink` offers (the tables and the tools keep that one, on
paho) and `HubService` runs its rules engine on `HubLink.loop`, so a table's event is read, applied
and answered on one thread: no hand-over between a network thread and a consumer, no fight for the GIL.
Every packet produced in one turn of the loop leaves in one write. Measured on a 16-core machine
(1,000 tables), the hub's CPU per table event fell from 0.71 ms (paho, two threads) to 0.22 ms, and
one worker went from ~1,450 events/s at 100 % of a core to 3,460 at 76 % (docs/scale-out.md).

What a room needs of it, as of paho's: MQTT 5, a will and a birth, user name and password, TLS,
a persistent session (`session_expiry`), publishes from any thread, QoS 1 publishes kept until the
broker acknowledges them and sent again after a reconnect (RETAIN kept), what the broker's CONNACK
says (Receive Maximum, Maximum Packet Size, Server Keep Alive) respected for that connection only,
publishes the broker refused or would refuse counted by topic and reason (`publish_refused`),
reconnects with a short backoff (longer when another process takes our client id), a broker that
never answers CONNECT left after `connect_timeout`, subscriptions and `on_connect` hooks replayed on
each. Bounded: at most `max_waiting` publishes wait for the broker (beyond it they are dropped,
counted in `dropped`, and said in the log), the broker is told it may send no packet over 256 kB (one
over it closes the connection), and the hub can stop the link reading while it catches up
(`pause_reading`). Which handlers a message goes to, by the filters subscribed: `hub.edge.routes`.
The brokers it is checked against, and how fast it recovers: docs/scale-out.md.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import ssl
import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from hub.edge import mqtt5
from hub.edge.broker import MAX_PACKET  # what the room's brokers accept too
from hub.edge.routes import Handler, Routes
from tablewire.mqtt import Message

log = logging.getLogger(__name__)

_SUBSCRIBE_BATCH = 200  # topic filters per SUBSCRIBE: a worker of a big room has thousands
_BACKOFF = (0.05, 2.0)  # first retry, longest wait between retries (seconds), as MqttLink
# Another process with our client id took the session (0x8E): each of us would take it back 20 times a
# second. Waits double from the first to the longest while it goes on.
_TAKEN_OVER_BACKOFF = (1.0, 60.0)


class HubLink:
    def __init__(self, *, client_id: str, host: str, port: int, will: tuple[str, bytes] | None = None,
                 username: str | None = None, password: str | None = None, session_expiry: int = 0,
                 keepalive: int = 15, tls: ssl.SSLContext | None = None, max_waiting: int = 200_000,
                 connect_timeout: float = 5.0) -> None:
        """`connect_timeout`: seconds a broker has to accept the TCP connection, then again to answer
        CONNECT; past either the link hangs up and tries again (one that never answers stalls nothing)."""
        self.client_id = client_id
        self._host, self._port, self._tls = host, port, tls
        self._keepalive_asked, self._session_expiry = keepalive, session_expiry
        self._keepalive = keepalive  # this connection's: the broker's Server Keep Alive if it said one
        self._connect_timeout = connect_timeout
        self._username, self._password, self._will = username, password, will
        self._max_waiting = max_waiting
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="hub", daemon=True)
        self._routes = Routes()  # which handlers each message goes to (`hub.edge.routes`)
        self._subscriptions: dict[str, bool] = {}  # filter -> no_local, replayed on each connect
        self._hooks: list[Callable[[], None]] = []
        self._before_write: list[Callable[[], None]] = []  # each turn's barrier: the store's sync
        self._held_since: float | None = None  # a barrier failed: the turn's packets wait since then
        self._transport: asyncio.Transport | None = None
        self._out = bytearray()  # packets of this turn of the loop, written together
        self._flush_due = False
        self._paused = False  # the socket's send buffer is full: publishes wait
        self._connected = threading.Event()
        self._answered = threading.Event()
        self._stopping = False
        self.refused: str | None = None
        self._last_error: str | None = None  # why the last attempt to connect failed, for start()'s error
        self.publish_refused: dict[tuple[str, str], int] = {}
        self.subscribe_refused: dict[str, str] = {}
        self.dropped = 0  # publishes dropped because `max_waiting` were already waiting
        self._receive_max = 65535
        self._max_out = 0  # the broker's Maximum Packet Size on this connection; 0: it said none
        self._next_id = 0
        self._inflight: dict[int, tuple[str, bytes, bool]] = {}  # id -> (topic, payload, retain), QoS 1
        self._waiting: deque[tuple[str, bytes, int, bool]] = deque()  # not yet sent: (topic, payload, qos, retain)
        self._pending_ids: dict[int, list[str]] = {}  # SUBSCRIBE id -> its filters
        self._from_threads: deque[tuple[str, bytes, int, bool]] = deque()
        self._wake_lock = threading.Lock()
        self._woken = False
        self._ping: asyncio.TimerHandle | None = None
        self._heard_at = 0.0
        self._reconnect: asyncio.Task[None] | None = None
        self._up = False  # CONNACK said yes on this connection (the loop's own view of `connected`)
        self._reading_paused = False
        self._retry = _BACKOFF[0]  # wait before the next attempt; doubles while the broker says no
        self._no_connack: asyncio.TimerHandle | None = None
        self._goodbye: int | None = None  # the reason of the broker's DISCONNECT on this connection
        self._taken_over = 0  # takeovers in a row (0x8E), for the backoff
        self._up_at = 0.0  # when CONNACK said yes on this connection

    # What MqttLink offers -----------------------------------------------------------------------

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    @property
    def pending_subscriptions(self) -> int:
        """SUBSCRIBE packets the broker has not acknowledged yet. What others publish before it has is
        not delivered; the hub's birth goes after its subscriptions, so a table hears it only once
        they hold."""
        return len(self._pending_ids)

    def start(self, timeout: float = 10.0) -> None:
        """Run the loop's thread and connect; returns once connected (raises on refusal or silence)."""
        if not self._thread.is_alive():
            self._thread.start()
        self.loop.call_soon_threadsafe(self._begin)
        # Said yes once is enough: a connection lost right after is the reconnect's to mend
        if not self._answered.wait(timeout) or self.refused is not None:
            why = self.refused or self._last_error
            self.stop()
            raise ConnectionError(f"{self.client_id}: no connection to mqtt://{self._host}:{self._port}"
                                  + (f" ({why})" if why else ""))

    def stop(self) -> None:
        """Disconnect cleanly (the broker drops the will) and end the loop's thread."""
        if not self._thread.is_alive():
            return
        done = threading.Event()

        def close() -> None:
            self._stopping = True
            if self._reconnect is not None:
                self._reconnect.cancel()
            if self._transport is not None:
                self._flush()
                self._transport.write(mqtt5.DISCONNECT_PACKET)
                self._transport.close()
            self.loop.call_later(0.05, self.loop.stop)  # let the close reach the socket
            done.set()

        self.loop.call_soon_threadsafe(close)
        done.wait(5)
        self._thread.join(5)

    def on_connect(self, hook: Callable[[], None]) -> None:
        """Run on every (re)connect, on the loop's thread: republish birth and retained state."""
        self._hooks.append(hook)

    def before_write(self, barrier: Callable[[], None]) -> None:
        """Run on the loop's thread before each write of a turn's packets (the store's group commit,
        `EventStore.group_sync`: what the turn stored is on the disk before its acknowledgements leave).
        A barrier that raises holds every packet of the turn, and those after, until it passes."""
        self._before_write.append(barrier)

    def subscribe(self, pattern: str, handler: Handler, *, no_local: bool = False) -> Callable[[], None]:
        """`handler` is called on the loop's thread. `no_local`: not this client's own publishes."""
        self._routes.add(pattern, handler)
        self._subscriptions[pattern] = no_local
        self._on_loop(lambda: self._send_subscribe([(pattern, no_local)]) if self._up else None)

        def unsubscribe() -> None:
            self._subscriptions.pop(pattern, None)
            self._routes.remove(pattern)
            self._on_loop(lambda: self._send(mqtt5.unsubscribe(self._new_id(), [pattern])) if self._up else None)
        return unsubscribe

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> None:
        """From any thread. On the loop's thread (the hub's work) it is queued for this turn's write;
        from another (the dashboard, the floor's commands), handed over with one wake-up per burst."""
        if self._on_thread():
            self._publish(topic, payload, qos, retain)
            return
        if self.loop.is_closed():
            log.debug("%s: stopped; publish on %s not sent", self.client_id, topic)
            return
        self._from_threads.append((topic, payload, qos, retain))
        with self._wake_lock:
            if self._woken:
                return
            self._woken = True
        self.loop.call_soon_threadsafe(self._take_from_threads)

    def pause_reading(self, paused: bool) -> None:
        """On the loop's thread: stop (True) or resume (False) reading the broker, when what was read
        waits too long in the hub (`HubService`'s backlog bound). The broker keeps the messages (its
        queue is bounded too: `max_queued_messages`), the tables keep theirs in their outboxes."""
        self._reading_paused = paused
        self._heard_at = self.loop.time()  # what the broker said while we did not read is not silence
        if self._transport is not None:
            if paused:
                self._transport.pause_reading()
            else:
                self._transport.resume_reading()

    # On the loop's thread -----------------------------------------------------------------------

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_forever()
        finally:
            self.loop.close()

    def _on_thread(self) -> bool:
        return threading.current_thread() is self._thread

    def _on_loop(self, call: Callable[[], object]) -> None:
        if self._on_thread():
            call()
        elif not self.loop.is_closed():  # stopped: replayed by nothing, needed by no one
            self.loop.call_soon_threadsafe(call)

    def _take_from_threads(self) -> None:
        with self._wake_lock:
            self._woken = False
        while self._from_threads:
            topic, payload, qos, retain = self._from_threads.popleft()
            self._publish(topic, payload, qos, retain)

    def _begin(self) -> None:
        if self._reconnect is None or self._reconnect.done():
            self._reconnect = self.loop.create_task(self._connect_until_up(first=True))

    async def _connect_until_up(self, *, first: bool = False) -> None:
        if not first:
            await asyncio.sleep(self._retry)
        delay = self._retry
        while not self._stopping:
            try:
                await asyncio.wait_for(
                    self.loop.create_connection(lambda: _Protocol(self), self._host, self._port, ssl=self._tls,
                                                server_hostname=self._host if self._tls else None),
                    self._connect_timeout)
                return  # CONNACK decides the rest (`_connack`)
            except (OSError, ssl.SSLError, TimeoutError) as err:
                self._last_error = str(err) or f"no TCP connection within {self._connect_timeout:g} s"
                if first:
                    log.warning("%s: no connection to mqtt://%s:%d yet: %s", self.client_id, self._host,
                                self._port, err)
                    first = False
            await asyncio.sleep(delay)
            delay = min(delay * 2, _BACKOFF[1])

    def _made(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:  # small packets leave at once; the loop already gathers a turn's packets
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
        self._heard_at = self.loop.time()
        self._goodbye = None
        if self._reading_paused:
            transport.pause_reading()
        self._no_connack = self.loop.call_later(self._connect_timeout, self._connack_late, transport)
        transport.write(mqtt5.connect(self.client_id, keepalive=self._keepalive_asked,
                                      clean_start=self._session_expiry == 0, session_expiry=self._session_expiry,
                                      username=self._username, password=self._password, will=self._will,
                                      max_packet=MAX_PACKET))

    def _connack_late(self, transport: asyncio.Transport) -> None:
        if transport is self._transport and not self._up:
            self._last_error = f"no CONNACK within {self._connect_timeout:g} s"
            log.warning("%s: the broker accepted the connection but did not answer CONNECT within %g s; "
                        "connecting again", self.client_id, self._connect_timeout)
            transport.abort()

    def _lost(self, err: Exception | None) -> None:
        was = self._up
        self._up = False
        self._transport = None
        self._out.clear()
        self._pending_ids.clear()  # every subscription goes again on the next connection
        self._paused = False
        self._connected.clear()
        for timer in (self._ping, self._no_connack):
            if timer is not None:
                timer.cancel()
        self._ping = self._no_connack = None
        if self._stopping:
            return
        if self._goodbye == mqtt5.SESSION_TAKEN_OVER:
            self._taken_over += 1
            self._retry = min(_TAKEN_OVER_BACKOFF[0] * 2 ** (self._taken_over - 1), _TAKEN_OVER_BACKOFF[1])
            log.warning("%s: another client connected with this client id and took the session (%d time(s) "
                        "in a row): two processes share the id; connecting again in %g s", self.client_id,
                        self._taken_over, self._retry)
        elif was and self.loop.time() - self._up_at >= _BACKOFF[1]:
            self._taken_over = 0
            self._retry = _BACKOFF[0]
            log.warning("%s: connection to the broker lost%s; connecting again", self.client_id,
                        f" ({err})" if err else "")
        else:
            # Refused, closed before it said yes, or right after (a broker that drops what it cannot
            # take, another process taking our client id without saying 0x8E: Mosquitto 2.0.11):
            # do not knock 20 times a second
            if was:
                log.warning("%s: connection to the broker lost %.1f s after it was made%s; connecting again",
                            self.client_id, self.loop.time() - self._up_at, f" ({err})" if err else "")
            self._retry = min(self._retry * 2, _BACKOFF[1])
        self._reconnect = self.loop.create_task(self._connect_until_up())

    def _packets(self, packets: list[tuple[int, bytes]]) -> None:
        self._heard_at = self.loop.time()
        for first, body in packets:
            kind = first >> 4
            if kind == mqtt5.PUBLISH:
                self._deliver(mqtt5.read_publish(first, body))
            elif kind == mqtt5.PUBACK:
                self._acked(*mqtt5.read_ack(body))
            elif kind == mqtt5.CONNACK:
                self._connack(mqtt5.read_connack(body))
            elif kind in (mqtt5.SUBACK, mqtt5.UNSUBACK):
                self._subacked(*mqtt5.read_suback(body))
            elif kind == mqtt5.PINGRESP:
                pass
            elif kind == mqtt5.DISCONNECT:
                code, said = mqtt5.read_disconnect(body)
                self._goodbye = code
                if code != mqtt5.SESSION_TAKEN_OVER:  # said by `_lost`, with what the link does about it
                    log.warning("%s: the broker disconnected this link: %s%s", self.client_id,
                                mqtt5.reason(code), f" ({said})" if said else "")
                # The broker closes its side next (§3.14.4); so do we, instead of pinging a dead line
                if self._transport is not None:
                    self._transport.abort()
                return
            else:
                raise mqtt5.ProtocolError(f"unexpected packet type {kind}")

    def _connack(self, ack: mqtt5.Connack) -> None:
        if self._no_connack is not None:
            self._no_connack.cancel()
            self._no_connack = None
        if ack.code >= 0x80:
            self.refused = mqtt5.reason(ack.code)
            log.error("%s: broker refused the connection: %s", self.client_id, self.refused)
            self._answered.set()
            if self._transport is not None:
                self._transport.close()
            return
        self.refused = None
        self._up = True
        self._up_at = self.loop.time()
        # What the broker says holds for this connection only: the next may say otherwise, or nothing
        receive_max = ack.properties.get(mqtt5.RECEIVE_MAXIMUM)
        self._receive_max = receive_max if isinstance(receive_max, int) and receive_max > 0 else 65535
        max_out = ack.properties.get(mqtt5.MAXIMUM_PACKET_SIZE)
        self._max_out = max_out if isinstance(max_out, int) else 0
        keepalive = ack.properties.get(mqtt5.SERVER_KEEP_ALIVE)
        self._keepalive = keepalive if isinstance(keepalive, int) else self._keepalive_asked
        if self._keepalive:
            self._ping = self.loop.call_later(self._keepalive / 2, self._pinger)
        filters = list(self._subscriptions.items())
        for k in range(0, len(filters), _SUBSCRIBE_BATCH):
            self._send_subscribe(filters[k:k + _SUBSCRIBE_BATCH])
        self._resend(ack.session_present)
        self._connected.set()
        self._answered.set()
        for hook in self._hooks:
            try:
                hook()
            except Exception:
                log.exception("%s: on-connect hook failed", self.client_id)
        self._pump()

    def _resend(self, session_present: bool) -> None:
        """QoS 1 publishes the broker never acknowledged go again, first and in order (DUP if it kept our
        session: it may have them), as many as its Receive Maximum allows; the rest wait at the head of
        the queue, and one over its Maximum Packet Size is refused as a new one would be."""
        unacked, self._inflight = self._inflight, {}
        held: list[tuple[str, bytes, int, bool]] = []
        for packet_id, (topic, payload, retain) in unacked.items():
            if len(self._inflight) >= self._receive_max:
                held.append((topic, payload, 1, retain))
                continue
            packet = mqtt5.publish(topic.encode(), payload, qos=1, retain=retain, packet_id=packet_id,
                                   dup=session_present)
            if self._max_out and len(packet) > self._max_out:
                self._refuse(topic, mqtt5.reason(mqtt5.PACKET_TOO_LARGE))
                continue
            self._inflight[packet_id] = (topic, payload, retain)
            self._send(packet)
        self._waiting.extendleft(reversed(held))

    def _pinger(self) -> None:
        if self._transport is None or not self._up:
            return
        if self._reading_paused:  # the hub stopped reading, not the broker answering: not silence
            self._heard_at = self.loop.time()
        elif self.loop.time() - self._heard_at > 1.5 * self._keepalive:  # the broker went silent
            log.warning("%s: no answer from the broker for %.0f s; connecting again", self.client_id,
                        self.loop.time() - self._heard_at)
            self._transport.abort()
            return
        self._send(mqtt5.PINGREQ_PACKET)
        self._ping = self.loop.call_later(self._keepalive / 2, self._pinger)

    def _deliver(self, message: mqtt5.Incoming) -> None:
        if message.qos:
            self._send(mqtt5.puback(message.packet_id))
        handed = Message(message.topic, message.payload, message.retain)
        for handler in self._routes.handlers(message.topic):
            try:
                handler(handed)
            except Exception:  # a handler must never stop the loop
                log.exception("%s: handler for %s failed", self.client_id, message.topic)

    def _acked(self, packet_id: int, code: int) -> None:
        sent = self._inflight.pop(packet_id, None)
        if sent is None:
            return
        if code >= 0x80:
            self._refuse(sent[0], mqtt5.reason(code))
        if self._waiting:
            self._pump()

    def _refuse(self, topic: str, why: str) -> None:
        key = (topic, why)
        self.publish_refused[key] = self.publish_refused.get(key, 0) + 1
        if self.publish_refused[key] == 1:
            log.error("%s: the broker refused a publish on %s: %s", self.client_id, topic, why)

    def _subacked(self, packet_id: int, codes: list[int]) -> None:
        filters = self._pending_ids.pop(packet_id, [])
        for pattern, code in zip(filters, codes, strict=False):
            if code >= 0x80:
                self.subscribe_refused[pattern] = mqtt5.reason(code)
                log.error("%s: the broker refused the subscription to %s: %s", self.client_id, pattern,
                          mqtt5.reason(code))

    def _new_id(self) -> int:
        for _ in range(65535):
            self._next_id = self._next_id % 65535 + 1
            if self._next_id not in self._inflight and self._next_id not in self._pending_ids:
                return self._next_id
        raise RuntimeError("no MQTT packet identifier free")  # never: Receive Maximum is at most 65,535

    def _send_subscribe(self, filters: list[tuple[str, bool]]) -> None:
        if not filters:
            return
        packet_id = self._new_id()
        packet = mqtt5.subscribe(packet_id, filters)
        if self._max_out and len(packet) > self._max_out:  # in halves, as the broker's packet size allows
            if len(filters) == 1:
                pattern = filters[0][0]
                self.subscribe_refused[pattern] = mqtt5.reason(mqtt5.PACKET_TOO_LARGE)
                log.error("%s: the subscription to %s is over the broker's packet size (%d bytes)",
                          self.client_id, pattern, self._max_out)
                return
            half = len(filters) // 2
            self._send_subscribe(filters[:half])
            self._send_subscribe(filters[half:])
            return
        self._pending_ids[packet_id] = [p for p, _ in filters]
        self._send(packet)

    def _publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        if not self._up:
            if not qos:
                return  # as paho: QoS 0 is not kept offline (the hub republishes its states on connect)
        elif not self._waiting and not self._paused and (not qos or len(self._inflight) < self._receive_max):
            self._send_publish(topic, payload, qos, retain)
            return
        if len(self._waiting) >= self._max_waiting:
            self.dropped += 1
            if self.dropped == 1 or self.dropped % 10_000 == 0:
                log.error("%s: %d publish(es) dropped: %d already wait for the broker (last on %s)",
                          self.client_id, self.dropped, self._max_waiting, topic)
            return
        self._waiting.append((topic, payload, qos, retain))

    def _send_publish(self, topic: str, payload: bytes, qos: int, retain: bool) -> None:
        raw = topic.encode()
        packet_id = self._new_id() if qos else 0
        packet = mqtt5.publish(raw, payload, qos=qos, retain=retain, packet_id=packet_id)
        if self._max_out and len(packet) > self._max_out:
            # The broker would hang up on it (§3.2.2.3.6), and it would go first again on every reconnect
            self._refuse(topic, mqtt5.reason(mqtt5.PACKET_TOO_LARGE))
            return
        if qos:
            self._inflight[packet_id] = (topic, payload, retain)
        self._send(packet)

    def _pump(self) -> None:
        """Send what waited, in order, as far as the broker's Receive Maximum allows."""
        waiting = self._waiting
        while waiting and self._up and not self._paused:
            topic, payload, qos, retain = waiting[0]
            if qos and len(self._inflight) >= self._receive_max:
                return
            waiting.popleft()
            self._send_publish(topic, payload, qos, retain)

    def _send(self, packet: bytes) -> None:
        self._out += packet
        if not self._flush_due:
            self._flush_due = True
            self.loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        if self._out and self._transport is not None:
            if not self._barriers_pass():
                return
            self._transport.write(bytes(self._out))
        self._out.clear()

    def _barriers_pass(self) -> bool:
        """The barriers before a write; one that fails holds the packets (tried again every 0.2 s):
        nothing the store has not synced is acknowledged, the tables keep it in their outboxes."""
        try:
            for barrier in self._before_write:
                barrier()
        except Exception as err:  # noqa: BLE001 - the disk's error, said once per outage; the loop goes on
            if self._held_since is None:
                self._held_since = self.loop.time()
                log.error("%s: nothing is sent until the store is on the disk (%s)", self.client_id, err)
            self._flush_due = True  # `_send` schedules no other flush meanwhile
            self.loop.call_later(0.2, self._flush)
            return False
        if self._held_since is not None:
            log.warning("%s: the store is on the disk again; sending what waited %.1f s", self.client_id,
                        self.loop.time() - self._held_since)
            self._held_since = None
        return True

    def _pause(self, paused: bool) -> None:
        self._paused = paused
        if not paused:
            self._pump()


class _Protocol(asyncio.Protocol):
    def __init__(self, link: HubLink) -> None:
        self._link = link
        self._reader = mqtt5.Reader(MAX_PACKET)
        self._transport: asyncio.Transport | None = None

    def connection_made(self, transport: Any) -> None:
        self._transport = transport
        self._link._made(transport)

    def data_received(self, data: bytes) -> None:
        packets, error = self._reader.feed(data)
        try:
            self._link._packets(packets)
            if error is not None:
                raise error
        except mqtt5.ProtocolError as err:
            log.error("%s: the broker sent what this link cannot read (%s); connecting again",
                      self._link.client_id, err)
            if self._transport is not None:
                self._transport.write(mqtt5.disconnect(err.code))  # an empty buffer: leaves at once
                self._transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._link._lost(exc)

    def pause_writing(self) -> None:
        self._link._pause(True)

    def resume_writing(self) -> None:
        self._link._pause(False)
