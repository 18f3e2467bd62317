"""The paho-mqtt adapter the tables and the tools use: MQTT 5, QoS 1, a will and a birth, resubscribe on
reconnect. (`tapis hub` runs on its own link, `hub.edge.link.HubLink`; both meet `Link` below.)

`MqttLink` owns one paho client. Incoming messages are handed to the subscriber's callback on paho's
thread; callers only enqueue there (one thread owns the state). On every (re)connect it republishes
birth and retained state through `on_connect` hooks, because clubs' brokers restart. What paho leaves
out, it adds on each connection: the broker's Receive Maximum bounds the resend, a publish over its
Maximum Packet Size is refused (counted in `publish_refused`), and CONNECT asks our keepalive again.
"""

from __future__ import annotations

import logging
import socket
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion, MessageState, MQTTProtocolVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.subscribeoptions import SubscribeOptions

log = logging.getLogger(__name__)
_MAX_INFLIGHT = 1000  # QoS 1 publishes awaiting PUBACK, at most: the broker's Receive Maximum if lower


@dataclass(frozen=True, slots=True)
class Message:
    topic: str
    payload: bytes
    retain: bool


Handler = Callable[[Message], None]


class Link(Protocol):
    """What the hub's services need of an MQTT link: `MqttLink` here (paho, the tables' and the tools'),
    or the hub's own `hub.edge.link.HubLink`. Handlers and on-connect hooks run on the link's thread."""

    client_id: str

    @property
    def connected(self) -> bool: ...

    def start(self, timeout: float = 10.0) -> None: ...

    def stop(self) -> None: ...

    def on_connect(self, hook: Callable[[], None]) -> None: ...

    def subscribe(self, pattern: str, handler: Handler, *, no_local: bool = False) -> Callable[[], None]: ...

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> object: ...


class MqttLink:
    def __init__(self, *, client_id: str, host: str, port: int, will: tuple[str, bytes] | None = None,
                 username: str | None = None, password: str | None = None,
                 session_expiry: int = 0, keepalive: int = 15, tls: ssl.SSLContext | None = None) -> None:
        """`tls`: the room's TLS listener (`tablewire.credentials.client_tls_context(ca_file)`)."""
        self.client_id = client_id
        self._host, self._port, self._keepalive = host, port, keepalive
        self._session_expiry = session_expiry
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                   protocol=MQTTProtocolVersion.MQTTv5)
        self._client.max_queued_messages_set(0)  # unbounded while offline: the outbox bounds it
        self._client.max_inflight_messages_set(_MAX_INFLIGHT)
        self._max_packet = 0  # the broker's Maximum Packet Size on this connection; 0: it said none
        # paho's hint says int; its reconnect loop sleeps any number (a first retry after 50 ms)
        self._client.reconnect_delay_set(min_delay=0.05, max_delay=2)  # type: ignore[arg-type]
        if username is not None:
            self._client.username_pw_set(username, password)
        if tls is not None:
            self._client.tls_set_context(tls)
        if will is not None:
            self._client.will_set(will[0], will[1], qos=1, retain=True)
        self._subscriptions: dict[str, SubscribeOptions] = {}
        self._on_connect: list[Callable[[], None]] = []
        self._connected = threading.Event()
        self._answered = threading.Event()  # the broker said yes or no to the first connection
        self.refused: str | None = None
        # Publishes the broker answered with a failure (MQTT 5 PUBACK reason, e.g. "Not authorized"
        # when the ACL denies the topic): (topic, reason) -> count. MQTT 3.1.1 would say "success".
        self.publish_refused: dict[tuple[str, str], int] = {}
        self._topics_in_flight: dict[int, str] = {}
        self._client.on_publish = self._published_cb
        self._client.on_connect = self._connected_cb
        self._client.on_disconnect = self._disconnected_cb
        self._client.on_message = self._message_cb
        self._client.on_pre_connect = self._pre_connect_cb

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def start(self, timeout: float = 10.0) -> None:
        """Connect and run paho's network thread; returns once connected (raises on refusal)."""
        props = Properties(PacketTypes.CONNECT)
        if self._session_expiry:
            props.SessionExpiryInterval = self._session_expiry
        self._client.connect_async(self._host, self._port, self._keepalive,
                                   clean_start=self._session_expiry == 0, properties=props)
        self._client.loop_start()
        self._answered.wait(timeout)
        if not self._connected.is_set():  # refused (wrong password, not authorised) or no answer
            self.stop()
            raise ConnectionError(f"{self.client_id}: no connection to mqtt://{self._host}:{self._port}"
                                  + (f" ({self.refused})" if self.refused else ""))

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()

    def on_connect(self, hook: Callable[[], None]) -> None:
        """Run on every (re)connect, on paho's thread: republish birth and retained state."""
        self._on_connect.append(hook)

    def subscribe(self, pattern: str, handler: Handler, *, no_local: bool = False) -> Callable[[], None]:
        """`no_local`: not this client's own publishes (MQTT 5); retained ones still come at subscribe,
        even those an earlier run of this client id left (Mosquitto 2.0, checked)."""
        options = SubscribeOptions(qos=1, noLocal=no_local)
        self._subscriptions[pattern] = options
        self._client.message_callback_add(pattern, self._wrap(handler))
        if self.connected:
            self._client.subscribe(pattern, options=options)

        def unsubscribe() -> None:
            self._subscriptions.pop(pattern, None)
            self._client.message_callback_remove(pattern)
            self._client.unsubscribe(pattern)
        return unsubscribe

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> mqtt.MQTTMessageInfo:
        if self._max_packet and _publish_size(topic, payload, qos) > self._max_packet:
            # paho would send it; the broker would hang up, and paho would send it first again on every
            # reconnect [MQTT-3.2.2-15]
            self._refuse(topic, "Packet too large")
            info = mqtt.MQTTMessageInfo(0)
            info.rc = mqtt.MQTT_ERR_PAYLOAD_SIZE
            return info
        info = self._client.publish(topic, payload, qos=qos, retain=retain)
        if qos:
            # No lock: paho calls on_publish holding its own. Bounded by the 65,535 message ids.
            self._topics_in_flight[info.mid] = topic
        if info.rc not in (mqtt.MQTT_ERR_SUCCESS, mqtt.MQTT_ERR_NO_CONN):
            log.warning("%s: publish on %s failed: %s", self.client_id, topic, mqtt.error_string(info.rc))
        return info

    def _wrap(self, handler: Handler) -> Callable[[mqtt.Client, object, mqtt.MQTTMessage], None]:
        def deliver(_c: mqtt.Client, _u: object, msg: mqtt.MQTTMessage) -> None:
            try:
                handler(Message(msg.topic, bytes(msg.payload), bool(msg.retain)))
            except Exception:  # a callback must never kill paho's loop
                log.exception("%s: handler for %s failed", self.client_id, msg.topic)
        return deliver

    def _connected_cb(self, client: mqtt.Client, _u: object, _flags: object, reason: object,
                      props: object) -> None:
        if getattr(reason, "is_failure", False):
            self.refused = str(reason)
            log.error("%s: broker refused the connection: %s", self.client_id, reason)
            self._answered.set()
            return
        sock = client.socket()
        if sock is not None and hasattr(sock, "setsockopt"):
            # paho leaves Nagle on: a QoS 1 publish right after another waited for the broker's
            # delayed ACK (~40 ms tails). A table's events are small and should leave at once.
            try:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            except OSError:
                pass
        # What the broker says holds for this connection only (paho would keep the first Maximum Packet
        # Size it heard, and not read Receive Maximum at all)
        max_packet = getattr(props, "MaximumPacketSize", 0)
        self._max_packet = max_packet if isinstance(max_packet, int) else 0
        receive_max = getattr(props, "ReceiveMaximum", 65535)
        # private: the public setter refuses while connected, and CONNACK is the first time we know it
        client._max_inflight_messages = min(_MAX_INFLIGHT, receive_max if isinstance(receive_max, int) else 65535)
        self._drop_oversized(client)
        for pattern, options in self._subscriptions.items():
            client.subscribe(pattern, options=options)
        for hook in self._on_connect:
            try:
                hook()
            except Exception:
                log.exception("%s: on-connect hook failed", self.client_id)
        self._hold_back(client)
        self._connected.set()
        self._answered.set()

    def _drop_oversized(self, client: mqtt.Client) -> None:
        """Publishes kept from before this connection that its broker would hang up on: refused now."""
        if not self._max_packet:
            return
        # paho's own queue, private: it offers no way to take a message back
        with client._out_message_mutex:
            for mid, message in list(client._out_messages.items()):
                if _publish_size(message.topic, message.payload, message.qos) > self._max_packet:
                    del client._out_messages[mid]
                    self._topics_in_flight.pop(mid, None)
                    self._refuse(message.topic, "Packet too large")

    def _hold_back(self, client: mqtt.Client) -> None:
        """paho resends every QoS 1 publish left from the last connection, whatever this broker's Receive
        Maximum [MQTT-4.9.0-2]: those past it are queued instead, sent as acknowledgements come."""
        with client._out_message_mutex:
            room = client._max_inflight_messages - client._inflight_messages
            for message in client._out_messages.values():
                if message.qos and message.state == MessageState.MQTT_MS_PUBLISH:
                    if room > 0:
                        room -= 1
                    else:
                        message.state = MessageState.MQTT_MS_QUEUED

    def _pre_connect_cb(self, client: mqtt.Client, _u: object) -> None:
        # paho keeps a broker's Server Keep Alive for every later connection: after one said 0, a
        # half-open line would never be noticed [MQTT-3.2.2-21]. Each connection asks ours again.
        client._keepalive = self._keepalive

    def _published_cb(self, _c: mqtt.Client, _u: object, mid: int, reason: object, _props: object) -> None:
        topic = self._topics_in_flight.pop(mid, "?")  # "?": answered before publish() returned
        if getattr(reason, "is_failure", False):
            self._refuse(topic, str(reason))

    def _refuse(self, topic: str, why: str) -> None:
        key = (topic, why)
        first = key not in self.publish_refused
        self.publish_refused[key] = self.publish_refused.get(key, 0) + 1
        if first:  # once per topic and reason: a denied table would otherwise flood the log
            log.error("%s: the broker refused a publish on %s: %s", self.client_id, topic, why)

    def _disconnected_cb(self, _c: mqtt.Client, _u: object, _flags: object, reason: object,
                         _props: object) -> None:
        self._connected.clear()
        if getattr(reason, "is_failure", False):
            log.warning("%s: disconnected: %s", self.client_id, reason)

    def _message_cb(self, _c: mqtt.Client, _u: object, msg: mqtt.MQTTMessage) -> None:
        log.debug("%s: unrouted message on %s", self.client_id, msg.topic)


def _publish_size(topic: str, payload: bytes | bytearray, qos: int) -> int:
    """The bytes of a PUBLISH with no properties, as paho writes it (MQTT 5.0 §3.3)."""
    body = 2 + len(topic.encode()) + (2 if qos else 0) + 1 + len(payload)
    return 1 + (1 if body < 128 else 2 if body < 16_384 else 3 if body < 2_097_152 else 4) + body
