"""The table's verbs of `tapis` (the `tapis` command dispatches here). Each builds its object graph.

    tapis agent --profile FILE --decks FILE --broker URL    one table's agent on its reader
    tapis agent scan|capture|replay ...             install tools: live antenna reads, raw captures
    tapis doctor --profile FILE ...                 checks readers, panel, broker, clock sync
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tablewire import credentials
from tablewire.stopping import stop_on_signals

if TYPE_CHECKING:
    from gpiozero.pins import Factory

    from hw.panel import Panel
    from hw.panel_mcp23017 import I2CBus
    from table_agent.agent import TableAgent
    from tablewire.mqtt import MqttLink

AGENT_TOOLS = ("scan", "capture", "replay")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="tapis", description="RFID poker tables: one table's agent")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging (-vv for debug)")
    sub = p.add_subparsers(dest="command", required=True)

    agent = sub.add_parser("agent", help="run one table's agent")
    agent.add_argument("--profile", required=True, help="table profile TOML (antennas, reader URL)")
    agent.add_argument("--decks", required=True, help="deck registry TOML")
    agent.add_argument("--broker", required=True, help="mqtt://host:port")
    credentials.add_options(agent)
    agent.add_argument("--outbox", default=None,
                       help="SQLite file keeping events until the hub acknowledges them (default: memory)")

    doctor = sub.add_parser("doctor", help="check this table's readers, panel, broker and clock, in plain words",
                            add_help=False)
    doctor.add_argument("args", nargs=argparse.REMAINDER)
    return p


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Subcommands with their own parsers get every argument, options first included (-v before them: none).
    verb = next((i for i, arg in enumerate(argv) if arg not in ("-v", "-vv", "-vvv", "--verbose")), len(argv))
    if argv[verb:verb + 1] == ["doctor"]:
        from table_agent.doctor import doctor_main
        return doctor_main(argv[verb + 1:])
    if argv[verb:verb + 1] == ["agent"] and argv[verb + 1:verb + 2] and argv[verb + 1] in AGENT_TOOLS:
        from table_agent.tools import main_agent_tools
        return main_agent_tools(argv[verb + 1:])
    args = parser().parse_args(argv)
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)]
    logging.basicConfig(level=level, stream=sys.stderr, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        return run_agent(args.profile, args.decks, args.broker, args.outbox, credentials.link_options(args))
    except (ValueError, OSError, RuntimeError) as err:  # config and environment errors, in plain words
        print(f"tapis {args.command}: {err}", file=sys.stderr)
        return 2


def _wait_for_signal() -> None:
    stop_on_signals().wait()


@dataclass
class RunningTable:
    """What `start_agent` built and started: the agent, its MQTT link, its panel (None without [panel])."""

    agent: TableAgent
    link: MqttLink
    panel: Panel | None
    close: Callable[[], None]  # agent, panel, link, in that order


def start_agent(profile_path: str, decks_path: str, broker: str, outbox_path: str | None = None,
                link_options: dict[str, object] | None = None, *, reader_url: str | None = None,
                pin_factory: Factory | None = None, bus: I2CBus | None = None) -> RunningTable:
    """`tapis agent`'s object graph from its files, started. A simulated table (`tapis sim table`) injects
    only what differs from a real one: the reader's serial URL, the pin factory and the I2C bus."""
    from hw.decks import DeckRegistry
    from hw.ports import MonotonicClock
    from hw.profile import TableProfile
    from hw.serial_link import SerialLink
    from table_agent.agent import TableAgent
    from table_agent.outbox import Outbox
    from table_agent.panel_setup import attach_profile_panel
    from tablewire import wire
    from tablewire.broker_url import parse_url
    from tablewire.mqtt import MqttLink

    profile = TableProfile.load(profile_path)
    if reader_url is not None:
        profile = profile.model_copy(update={"reader": profile.reader.model_copy(update={"url": reader_url})})
    registry = DeckRegistry.load(decks_path)
    host, port = parse_url(broker)
    link = MqttLink(client_id=f"tapis-table-{profile.table}", host=host, port=port,
                    will=(wire.table_status(profile.table), wire.OFFLINE), **(link_options or {}))  # type: ignore[arg-type]
    reader_factory = None
    if profile.reader.backend == "pcsc":
        from hw.pcsc_worker import pcsc_worker_factory
        reader_factory = pcsc_worker_factory(profile.reader.pcsc_readers)
    agent = TableAgent(profile=profile, registry=registry, publisher=link, clock=MonotonicClock(),
                       open_link=lambda: SerialLink(profile.reader.url, baudrate=profile.reader.baudrate),
                       reader_factory=reader_factory, outbox=Outbox(outbox_path or ":memory:"))
    # the profile's [panel]; none: said once in the log
    panel, close_panel = attach_profile_panel(agent, profile, pin_factory=pin_factory, bus=bus)
    agent.start()
    try:
        link.start(timeout=30)
    except BaseException:
        agent.stop()
        close_panel()
        raise

    def close() -> None:
        agent.stop()
        close_panel()
        link.stop()

    return RunningTable(agent, link, panel, close)


def run_agent(profile_path: str, decks_path: str, broker: str, outbox_path: str | None = None,
              link_options: dict[str, object] | None = None) -> int:
    table = start_agent(profile_path, decks_path, broker, outbox_path, link_options)
    profile = table.agent.profile
    print(f"tapis agent: table {profile.table} on {profile.reader.url}", file=sys.stderr)
    try:
        _wait_for_signal()
    finally:
        table.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
