"""The embedded broker is the hub's own: a hub killed with SIGKILL must not leave it on the port."""

import os
import signal
import subprocess
import sys

from tests.support import wait_until

START = """
from hub.edge.broker import EmbeddedBroker
broker = EmbeddedBroker().start()
print(broker._proc.pid, flush=True)
import time
time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone too (its parent is init now)
        return stat.read().split(")")[-1].split()[0] != "Z"


def test_the_broker_dies_with_a_hub_killed_with_sigkill() -> None:
    hub = subprocess.Popen([sys.executable, "-c", START], stdout=subprocess.PIPE, text=True)
    assert hub.stdout is not None
    broker_pid = int(hub.stdout.readline())
    assert alive(broker_pid)
    hub.send_signal(signal.SIGKILL)
    hub.wait(10)
    assert wait_until(lambda: not alive(broker_pid), 5), "mosquitto outlived the hub"


def test_retained_messages_survive_a_broker_restart(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Persistence really writes (as root too): an ack retained before a restart is there after."""
    import queue

    from hub.edge.broker import EmbeddedBroker
    from tablewire import wire
    from tablewire.mqtt import Message, MqttLink

    broker = EmbeddedBroker(data_dir=tmp_path).start()
    port = broker.port
    link = MqttLink(client_id="hub", host=broker.host, port=port)
    link.start()
    ack = wire.encode(wire.Ack(boot="b1", seq=7))
    link.publish(wire.hub_ack("t1"), ack, retain=True).wait_for_publish(5)
    link.stop()
    broker.stop()  # a clean stop saves the database
    broker = EmbeddedBroker(port=port, data_dir=tmp_path).start()
    try:
        got: queue.Queue[Message] = queue.Queue()
        reader = MqttLink(client_id="table-t1", host=broker.host, port=port)
        reader.subscribe(wire.hub_ack("t1"), got.put)
        reader.start()
        assert got.get(timeout=5).payload == ack
        reader.stop()
    finally:
        broker.stop()


def test_a_free_port_is_none_an_outgoing_connection_can_take_and_never_given_twice() -> None:
    """`free_port` then a listener's bind: a port from the kernel's outgoing range (`bind(0)`) can be taken
    in between by a connection the same process opens (the hub's to its broker), and the dashboard's bind
    then fails: "Address already in use" (the decision matrix, once in CI). Below that range it cannot."""
    from hub.edge.broker import _outgoing_ports, free_port

    low, _ = _outgoing_ports()
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == len(ports)
    assert all(1024 <= p < low for p in ports), ports
