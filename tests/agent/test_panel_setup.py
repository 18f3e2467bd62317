"""The panel in the production agent: the profile's `[panel]` section, `build_panel` on gpiozero mock pins
and on the MCP23017 driver over a simulated I2C bus, and `tapis agent`'s start path attaching it."""

from __future__ import annotations

import json
import logging
import queue
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from hw.decks import DeckRegistry
from hw.errors import ConfigError
from hw.panel import Panel, PanelError
from hw.panel_expander import MockExpanderFactory
from hw.panel_pins import PanelConfig
from hw.ports import ManualClock
from hw.profile import TableProfile
from simulators.panel import PanelSimulator, SimulatedExpanderBus
from table_agent.agent import TableAgent
from table_agent.panel_setup import attach_profile_panel, build_panel
from tablewire import wire
from tablewire.mqtt import Message
from tests.support import wait_until

DEPLOY_PROFILE = Path(__file__).resolve().parents[2] / "deploy" / "etc-tapis" / "table.toml"


# -- the [panel] section of the profile -------------------------------------------------------------


def test_the_shipped_profile_has_the_reference_panel_of_docs_panel_wiring() -> None:
    profile = TableProfile.load(DEPLOY_PROFILE)
    assert profile.panel is not None
    reference = PanelConfig.reference(profile.seats)
    assert profile.panel.seats == reference.seats and profile.panel.dealer == reference.dealer
    assert profile.panel.expanders == (0x20, 0x21, 0x22, 0x23, 0x24)
    assert profile.panel.expander_interrupt == "GPIO4" and profile.panel.i2c_bus == 1
    assert profile.panel.display is not None


def test_a_profile_without_panel_section_has_no_panel() -> None:
    assert TableProfile.default("t1").panel is None


def _without_section(text: str, header: str) -> str:
    start = text.index(header)
    end = text.find("\n[", start + 1)
    return text[:start] + (text[end + 1:] if end != -1 else "")


@pytest.mark.parametrize("edit, key", [
    (lambda t: t.replace('time = "GPIO23"\n', ""), "panel.dealer.time"),
    (lambda t: t.replace('fold = "MCP20:B0"', 'fold = "MCP20:A0"'), "MCP20:A0 used twice"),
    (lambda t: t.replace("i2c_bus = 1 ", "bogus = 1\ni2c_bus = 1 "), "panel.bogus"),
    (lambda t: _without_section(t, "[panel.seats.9]"), "panel.seats.9"),
    (lambda t: t.replace("0x24]", "0x30]"), "0x30"),
    (lambda t: t.replace('allin = "MCP21:A3"', 'allin = "MCP21:A7"'), "MCP21:A7"),
])
def test_a_wrong_panel_section_is_one_line_naming_the_key(tmp_path: Path, edit: Any, key: str) -> None:
    path = tmp_path / "table.toml"
    path.write_text(edit(DEPLOY_PROFILE.read_text(encoding="utf-8")), encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        TableProfile.load(path)
    text = str(err.value)
    assert key in text and "\n" not in text
    assert "section [panel] incorrecte" in text and "wrong [panel] section" in text
    assert "docs/panel-wiring.md" in text


def test_other_profile_errors_keep_their_words(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(DEPLOY_PROFILE.read_text(encoding="utf-8").replace("seats = 9", "seats = 1"), encoding="utf-8")
    with pytest.raises(ConfigError, match="seats: ") as err:
        TableProfile.load(path)
    assert "[panel]" not in str(err.value)


# -- the agent with its panel ---------------------------------------------------------------------------


class _Reader:
    def __init__(self, **_: object) -> None: ...

    def start(self) -> None: ...

    def stop(self, timeout: float = 2.0) -> None: ...


class _Hub:
    """The agent's MQTT link: keeps the table's events, hands the hub's commands to the agent."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.events: list[dict[str, Any]] = []
        self.handlers: dict[str, Any] = {}

    def publish(self, topic: str, payload: bytes, *, retain: bool = False, qos: int = 1) -> object:
        if topic == wire.table_events(self.table):
            self.events.append(json.loads(payload))
        return None

    def on_connect(self, hook: Any) -> None:
        pass

    def subscribe(self, pattern: str, handler: Any) -> Any:
        self.handlers[pattern] = handler
        return lambda: None

    def command(self, cmd: Any) -> None:
        topic = wire.table_commands(self.table)
        self.handlers[topic](Message(topic, wire.encode(cmd), False))


def _drain(agent: TableAgent) -> None:
    inbox: queue.Queue[object] = agent._inbox
    while not inbox.empty():
        agent._handle(inbox.get())


@pytest.fixture
def pi() -> Iterator[MockFactory]:
    base = MockFactory()
    yield base
    base.reset()
    base.close()


def _agent(profile: TableProfile, hub: _Hub) -> TableAgent:
    return TableAgent(profile=profile, registry=DeckRegistry.generate([profile.table]), open_link=None,
                      publisher=hub, clock=ManualClock(0.0), reader_factory=_Reader)


def _deal_to(hub: _Hub, seat: int, to_call: int) -> None:
    hub.command(wire.HandContextCmd(hand=1, seats=list(range(1, 10)), button=1, first_to_deal=2,
                                    deck="t1/A", table_decks=["t1/A", "t1/B"]))
    hub.command(wire.BettingCmd(hand=1, street="preflop", open=True, to_act=seat, to_call=to_call, opened=True))


def test_the_shipped_panel_on_the_mcp23017_driver_lights_the_seat_to_act_and_publishes_its_press(
        pi: MockFactory) -> None:
    profile = TableProfile.load(DEPLOY_PROFILE)
    assert profile.panel is not None
    bus = SimulatedExpanderBus(profile.panel.expanders, interrupt=pi.pin("GPIO4"))
    hub = _Hub("t1")
    agent = _agent(profile, hub)
    clock = ManualClock(100.0)
    attached, close = attach_profile_panel(agent, profile, pin_factory=pi, bus=bus, clock=clock)
    try:
        panel = agent._panel
        assert isinstance(panel, Panel) and panel.seats == 9 and attached is panel
        _deal_to(hub, 3, 100)
        _drain(agent)
        assert bus.output("MCP21:A4")  # seat 3: chip 0x21, port A, to-act LED on bit 4
        assert not any(bus.output(f"MCP2{(s - 1) // 2}:{'A' if s % 2 else 'B'}4") for s in range(1, 10) if s != 3)
        PanelSimulator(panel, clock, bus=bus).press(3, "call")
        _drain(agent)
        acted = [e for e in hub.events if e["type"] == "action"]
        assert [(e["seat"], e["action"]) for e in acted] == [(3, "call")]
    finally:
        close()
    assert not bus.output("MCP21:A4")  # closing turns the LEDs off


def test_build_panel_on_gpiozero_mock_expander_pins_needs_no_bus() -> None:
    config = PanelConfig.reference(4)
    pins = MockExpanderFactory(config.expanders)
    events: list[object] = []
    clock = ManualClock(10.0)
    try:
        with build_panel(config, seats=4, clock=clock, on_event=events.append, pin_factory=pins) as panel:
            PanelSimulator(panel, clock).press(2, "fold")
            assert [(e.seat, str(e.action)) for e in events] == [(2, "fold")]  # type: ignore[attr-defined]
    finally:
        pins.reset()
        pins.close()


def test_without_the_int_wire_the_expanders_are_polled(pi: MockFactory) -> None:
    config = PanelConfig.reference(4).model_copy(update={"expander_interrupt": None})
    bus = SimulatedExpanderBus(config.expanders)  # no interrupt line at all
    events: list[object] = []
    with ExitStack() as cleanup:
        build_panel(config, seats=4, clock=ManualClock(5.0), on_event=events.append, pin_factory=pi, bus=bus,
                    cleanup=cleanup)
        bus.press("MCP21:A0")  # seat 3 fold
        assert wait_until(lambda: len(events) == 1, timeout=5)
        assert (events[0].seat, str(events[0].action)) == (3, "fold")  # type: ignore[attr-defined]
    reads = bus.transactions
    wait_until(lambda: False, timeout=0.1)
    assert bus.transactions == reads  # the poller stopped with the panel


def test_an_expander_that_does_not_answer_stops_the_start_in_one_line(pi: MockFactory) -> None:
    config = PanelConfig.reference(10)
    bus = SimulatedExpanderBus((0x20, 0x21, 0x22, 0x23))  # the chip of seats 9 and 10 missing
    with pytest.raises(PanelError) as err:
        build_panel(config, seats=10, clock=ManualClock(0.0), on_event=lambda e: None, pin_factory=pi, bus=bus)
    assert "0x24" in str(err.value) and "\n" not in str(err.value)


def test_without_panel_section_the_agent_runs_without_and_says_it_once(caplog: pytest.LogCaptureFixture) -> None:
    profile = TableProfile.default("t1")
    agent = _agent(profile, _Hub("t1"))
    with caplog.at_level(logging.WARNING):
        attached, close = attach_profile_panel(agent, profile)
    close()
    assert agent._panel is None and attached is None
    said = [r for r in caplog.records if "[panel]" in r.getMessage()]
    assert len(said) == 1 and "no seat or dealer panel" in said[0].getMessage()


# -- `tapis agent`'s start path -------------------------------------------------------------------------

BARE_PANEL = """
[panel]
[panel.seats.1]
fold = "GPIO5"
check_call = "GPIO6"
bet_raise = "GPIO13"
allin = "GPIO19"
to_act_led = "GPIO20"
fault_led = "GPIO21"
[panel.seats.2]
fold = "GPIO14"
check_call = "GPIO15"
bet_raise = "GPIO18"
allin = "GPIO23"
to_act_led = "GPIO24"
fault_led = "GPIO25"
[panel.dealer]
new_hand = "GPIO17"
away = "GPIO27"
back = "GPIO22"
time = "GPIO26"
encoder_a = "GPIO9"
encoder_b = "GPIO10"
encoder_push = "GPIO11"
"""


def test_run_agent_attaches_the_profiles_panel_and_a_press_reaches_the_broker(
        tmp_path: Path, broker: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import table_agent.cli as cli
    from tablewire.mqtt import MqttLink

    profile = TableProfile.default("t7", seats=2, url="loop://")
    antennas = "\n".join(f'{a} = "{z}"' for a, z in profile.antennas.items())
    (tmp_path / "table.toml").write_text(f'table = "t7"\nseats = 2\n[reader]\nurl = "loop://"\n'
                                         f"[antennas]\n{antennas}\n{BARE_PANEL}", encoding="utf-8")
    (tmp_path / "decks.toml").write_text(DeckRegistry.generate(["t7"]).dump(), encoding="utf-8")
    pins = MockFactory()  # the Pi's pins, as gpiozero's default factory would give them
    monkeypatch.setattr(Device, "pin_factory", pins)
    attached: list[Panel] = []
    original = TableAgent.attach_panel
    def attach(self: TableAgent, p: Panel) -> None:
        attached.append(p)
        original(self, p)

    monkeypatch.setattr(TableAgent, "attach_panel", attach)
    seen: list[dict[str, Any]] = []
    watcher = MqttLink(client_id="watcher", host=broker.host, port=broker.port)
    watcher.subscribe(wire.table_events("t7"), lambda m: seen.append(json.loads(m.payload)))
    watcher.start()
    outcome: dict[str, bool] = {}

    def pressed_then_stop() -> None:  # replaces the wait for SIGTERM: a croupier's finger, then stop
        fold = pins.pin("GPIO14")
        fold.drive_low()
        fold.drive_high()
        outcome["published"] = wait_until(
            lambda: any(e.get("type") == "action" and e.get("seat") == 2 for e in seen), timeout=10)

    monkeypatch.setattr(cli, "_wait_for_signal", pressed_then_stop)
    try:
        assert cli.run_agent(str(tmp_path / "table.toml"), str(tmp_path / "decks.toml"),
                             f"mqtt://{broker.host}:{broker.port}") == 0
    finally:
        watcher.stop()
        pins.reset()
        pins.close()
    assert len(attached) == 1 and attached[0].seats == 2
    assert outcome == {"published": True}
    assert all(led.closed for led in attached[0].to_act_leds.values())  # released when the agent stopped


def test_run_agent_refuses_a_wrong_panel_section_in_one_line(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    import table_agent.cli as cli

    bad = DEPLOY_PROFILE.read_text(encoding="utf-8").replace('time = "GPIO23"\n', "")
    (tmp_path / "table.toml").write_text(bad, encoding="utf-8")
    (tmp_path / "decks.toml").write_text(DeckRegistry.generate(["t1"]).dump(), encoding="utf-8")
    code = cli.main(["agent", "--profile", str(tmp_path / "table.toml"), "--decks", str(tmp_path / "decks.toml"),
                     "--broker", "mqtt://127.0.0.1:1"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "panel.dealer.time" in err
    assert re.search(r"section \[panel\] incorrecte.* wrong \[panel\] section", err)

