"""`tapis tournament ...`: the TD's command line for rooms without a screen (hub, TD side).

Builds a TD command (`hub.floor.commands`) from the arguments and runs it on the SQLite store
directly when the hub is not running (`--db`), or sends it over MQTT to the running hub (`--broker`)
and prints its answer. Emits readable text (or `--json`); refusals in plain words, exit status 2;
no answer from the hub over MQTT, exit status 3 (the command may or may not have been kept).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any, NoReturn, TextIO

from hub.floor.bag_sheet import bags_csv, bags_text
from hub.floor.command_words import usage_words
from hub.floor.commands import (
    TOURNAMENT_CMD,
    TOURNAMENT_RESULT,
    CommandError,
    CommandResult,
    decode_command,
)
from hub.floor.rulebook_files import SEEDS, rulebook_of
from hub.floor.store import EventStore, StoreError
from hub.tournament.errors import table_label
from hub.tournament.penalties import PenaltyKind
from hub.tournament.structure import pouques_2020, to_toml
from tablewire import credentials

DEFAULT_DB = "tapis-tournament.db"
MAX_BUY_IN = 1_000_000  # euros: far above any club's, far below a float's cents overflowing
RULESETS = SEEDS  # the five shipped with tapis; a club names its file instead


class _Parser(argparse.ArgumentParser):
    """argparse's errors in the TD's words, one line, French first (its sub-commands' parsers are of this
    class too: `add_subparsers` makes them so)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog} : {usage_words(message)} (tapis tournament --help)\n")


def _options() -> _Parser:
    common = _Parser(add_help=False)
    common.add_argument("--db", default=argparse.SUPPRESS,
                        help=f"the tournament's SQLite file when the hub is not running (default {DEFAULT_DB})")
    common.add_argument("--broker", default=argparse.SUPPRESS,
                        help="mqtt://host:port: send the command to the running hub instead")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON")
    # a closed room's broker (tablewire.credentials), before or after the verb like the options above
    common.add_argument("--user", default=argparse.SUPPRESS, help="broker user (default: the credentials file's)")
    common.add_argument("--password-file", default=argparse.SUPPRESS,
                        help="the broker password, or the TD's credentials JSON (room/credentials/td.json)")
    common.add_argument("--ca", default=argparse.SUPPRESS, help="the room's CA certificate: connect over TLS")
    return common


def parser() -> argparse.ArgumentParser:
    common = _options()
    p = _Parser(prog="tapis tournament", parents=[common],
                                description="The TD's commands: create, register, seat, clock, floor, results.")
    sub = p.add_subparsers(dest="command", required=True)
    new = sub.add_parser("new", parents=[common], help="create the tournament (an empty --db)")
    new.add_argument("--ruleset", required=True, metavar="ID|FILE",
                     help=f"one of {', '.join(RULESETS)}, or the club's rulebook file (.toml, docs/rulebooks.md): "
                          "its text is stored with the tournament")
    new.add_argument("--structure", required=True, help="structure TOML file, or `pouques` (built in)")
    new.add_argument("--tables", type=int, default=None, help="tables for the seat draw (default: as few as fit)")
    new.add_argument("--buy-in", type=float, required=True, help="buy-in in euros")
    new.add_argument("--name", default=None)
    new.add_argument("--seats", type=int, default=10, help="seats per table")
    new.add_argument("--payouts", default="ruleset",
                     help="`ruleset` (its table, if any), `pouques` (pouques-2020 81) or percents: 50,30,20")
    new.add_argument("--pool-percent", type=int, default=100, help="share of the buy-ins paid out")
    new.add_argument("--guarantee", type=float, default=0.0, metavar="EUR",
                     help="a guaranteed prize pool: the club pays what the entries do not reach")
    new.add_argument("--seed", type=int, default=None, help="draws' seed (default: random)")
    new.add_argument("--date", default=None, metavar="YYYY-MM-DD", help="the night's date (default: today)")
    reg = sub.add_parser("register", parents=[common], help="enter players (before the draw or late)")
    reg.add_argument("players", nargs="+", metavar="NAME")
    reg.add_argument("--absent", action="store_true", help="registered, not arrived yet")
    sub.add_parser("seat", parents=[common], help="draw the seats (tirage des places)")
    sub.add_parser("start", parents=[common], help="draw the button and start the clock")
    reenter = sub.add_parser("reenter", parents=[common], help="re-entry of an eliminated player (pouques 7)")
    reenter.add_argument("player", metavar="NAME")
    clock = sub.add_parser("clock", parents=[common],
                           help="pause, resume, add or remove time, jump to a level, set the time left")
    clock.add_argument("action", choices=("pause", "resume", "add", "remove", "level", "set"))
    clock.add_argument("value", nargs="?", type=float,
                       help="seconds (add, remove, set: the time left) or level number (level)")
    clock.add_argument("--reason", default="TD")
    elim = sub.add_parser("eliminate", parents=[common], help="rule a player out between hands")
    elim.add_argument("player", metavar="NAME")
    move = sub.add_parser("move", parents=[common], help="move a player between hands")
    move.add_argument("player", metavar="NAME")
    move.add_argument("table", help="t1, t2, ... (or 1, 2, ...)")
    move.add_argument("seat", type=int)
    cancel = sub.add_parser("cancel-hand", parents=[common],
                            help="annuler la donne: end a blocked table's hand in progress (needs --broker)")
    cancel.add_argument("table", help="t1, t2, ... (or 1, 2, ...)")
    cancel.add_argument("--by", default="TD", help="the TD's name, in the ruling")
    decide = sub.add_parser("decide", parents=[common],
                            help="décision du DT: carry out a decision a table waits for (needs --broker)")
    decide.add_argument("table", help="t1, t2, ... (or 1, 2, ...)")
    decide.add_argument("option", help="one the ruling offered: set_aside, hand_cancelled_pot_split, misdeal..., "
                        "grant_time or refuse_time (a Time request, cpt87 4.5)")
    decide.add_argument("--kind", default="", help="the fault's kind (default: the table's only decision pending)")
    decide.add_argument("--by", default="TD", help="the TD's name, in the ruling")
    arrive = sub.add_parser("arrive", parents=[common], help="arrivée tardive: a registered player arrives")
    arrive.add_argument("player", metavar="NAME")
    wait = sub.add_parser("wait-list", parents=[common],
                          help="liste d'attente (brest II.2): a player joins it, or --seat its first player")
    wait.add_argument("player", nargs="?", default="", metavar="NAME")
    wait.add_argument("--seat", action="store_true", help="seat the list's first player at the seat a bust freed")
    penalty = sub.add_parser("penalty", parents=[common],
                             help="sanction: warning, missed hands or rounds, suspension, disqualification")
    penalty.add_argument("player", metavar="NAME")
    penalty.add_argument("kind", choices=[k.value for k in PenaltyKind])
    penalty.add_argument("amount", nargs="?", type=int, default=0,
                         help="hands or rounds he misses, minutes of suspension")
    h4h = sub.add_parser("hand-for-hand", parents=[common], help="main par main: on, or off")
    h4h.add_argument("state", choices=("on", "off"))
    sub.add_parser("redraw", parents=[common],
                   help="tirage de la table finale: when the players left fit one table, between hands")
    race = sub.add_parser("chip-race", parents=[common],
                          help="course aux jetons at one table: the small chip's value, the chip it goes up to, "
                               "each player's small chips (NAME=COUNT)")
    race.add_argument("table", help="t1, t2, ... (or 1, 2, ...)")
    race.add_argument("small", type=int, help="the value of the chip taken off")
    race.add_argument("big", type=int, help="the chip it goes up to")
    race.add_argument("leftovers", nargs="*", metavar="NAME=COUNT", help="a player's chips of the small value")
    undo = sub.add_parser("undo", parents=[common],
                          help="annuler une action du DT: its number, as the command printed it")
    undo.add_argument("action", type=int)
    undo.add_argument("--by", default="TD", help="the TD's name, in the record")
    sub.add_parser("end-day", parents=[common],
                   help="fin de journée: stop the clock, bag the chips and draw the next day's seats")
    bags = sub.add_parser("bags", parents=[common],
                          help="the bag sheet: chip counts by table and seat (a break's, or a day's end with "
                               "its bags and the next day's draw)")
    bags.add_argument("--day", type=int, default=None, help="reprint that day's end (default: the latest)")
    bags.add_argument("--csv", action="store_true", help="CSV for a spreadsheet (`;`-separated)")
    sub.add_parser("status", parents=[common], help="clock, players left, average stack, tables, payouts")
    sub.add_parser("results", parents=[common], help="the ranking and the prizes")
    serve = sub.add_parser("serve", parents=[common], help="run the floor alone on MQTT (no tables)")
    serve.add_argument("--period", type=float, default=0.2)
    return p


def build_command(args: argparse.Namespace) -> dict[str, Any]:
    """The JSON command for the parsed arguments (validated by the floor's models)."""
    c = args.command
    if c == "new":
        if args.structure == "pouques":
            text = to_toml(pouques_2020())
        else:
            try:
                text = Path(args.structure).read_text(encoding="utf-8")
            except OSError as err:
                raise CommandError(f"cannot read the structure file {args.structure}: {err.strerror}") from err
        if not (math.isfinite(args.buy_in) and 0 <= args.buy_in <= MAX_BUY_IN):
            raise CommandError(f"--buy-in {args.buy_in:g}: euros from 0 to {MAX_BUY_IN:,}")
        seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
        ruleset, rulebook = rulebook_of(args.ruleset)
        return {"cmd": "new", "name": args.name or f"Tournoi {ruleset}", "ruleset": ruleset,
                "rulebook": list(rulebook), "structure_toml": text, "seats_per_table": args.seats,
                "tables": args.tables,
                "buy_in_cents": round(args.buy_in * 100), "payouts": args.payouts,
                "pool_percent": args.pool_percent, "seed": seed,
                "guarantee_cents": _guarantee_cents(args.guarantee), "date": args.date}
    if c == "register":
        return {"cmd": "register", "players": args.players, "present": not args.absent}
    if c == "clock":
        cmd: dict[str, Any] = {"cmd": "clock", "action": args.action, "reason": args.reason}
        if args.value is not None and not math.isfinite(args.value):
            raise CommandError(f"clock {args.action} {args.value:g}: a finite number is expected")
        if args.action in ("add", "remove", "set"):
            cmd["seconds"] = args.value
        elif args.action == "level":
            if args.value is None or args.value != int(args.value):
                raise CommandError("clock level needs a whole level number, e.g. `clock level 5`")
            cmd["level"] = int(args.value)
        return cmd
    if c == "end-day":
        return {"cmd": "end_day"}
    if c == "bags":
        return {"cmd": "bags", "day": args.day}
    if c in ("eliminate", "reenter"):
        return {"cmd": c, "player": args.player}
    if c == "move":
        table = args.table if args.table.startswith("t") else f"t{args.table}"
        return {"cmd": "move", "player": args.player, "table": table, "seat": args.seat}
    if c == "cancel-hand":
        table = args.table if args.table.startswith("t") else f"t{args.table}"
        return {"cmd": "cancel_hand", "table": table, "by": args.by}
    if c == "decide":
        table = args.table if args.table.startswith("t") else f"t{args.table}"
        return {"cmd": "decide", "table": table, "option": args.option, "kind": args.kind, "by": args.by}
    if c == "arrive":
        return {"cmd": "arrive", "player": args.player}
    if c == "wait-list":
        if args.seat == bool(args.player):
            raise CommandError("wait-list: un nom pour l'inscrire, ou --seat pour placer le premier / a name to "
                               "join, or --seat to seat the first")
        return {"cmd": "wait_list", "action": "seat" if args.seat else "join", "player": args.player}
    if c == "penalty":
        return {"cmd": "penalty", "player": args.player, "kind": args.kind, "amount": args.amount}
    if c == "hand-for-hand":
        return {"cmd": "hand_for_hand", "on": args.state == "on"}
    if c == "chip-race":
        table = args.table if args.table.startswith("t") else f"t{args.table}"
        return {"cmd": "chip_race", "table": table, "small_value": args.small, "big_value": args.big,
                "leftovers": dict(_leftover(text) for text in args.leftovers)}
    if c == "undo":
        return {"cmd": "undo", "action": args.action, "by": args.by}
    return {"cmd": c}


def _leftover(text: str) -> tuple[str, int]:
    """`Ada=3`: a player's chips of the small value (a name may hold `=`: the count is after the last)."""
    name, _, count = text.rpartition("=")
    if not name or not count.isdigit():
        raise CommandError(f"chip-race: « {text} » : NOM=NOMBRE attendu / NAME=COUNT expected")
    return name, int(count)


def _guarantee_cents(euros: float) -> int:
    if not (math.isfinite(euros) and 0 <= euros <= MAX_BUY_IN * 1000):
        raise CommandError(f"--guarantee {euros:g}: euros from 0 to {MAX_BUY_IN * 1000:,}")
    return round(euros * 100)


def run_local(db: str, command: dict[str, Any]) -> CommandResult:
    """Run on the store file itself: only when no hub has it open (one writer)."""
    from hub.floor.service import FloorService

    if command["cmd"] != "new" and not Path(db).exists():
        raise StoreError(f"no tournament file {db}: create it with `tapis tournament new --db {db} ...`")
    with EventStore(db) as store:
        floor = FloorService.open(store)
        return floor.execute(decode_command(command), time.time())


def run_remote(broker: str, command: dict[str, Any], *, timeout: float = 10.0, connect_timeout: float = 10.0,
               link_options: dict[str, object] | None = None) -> CommandResult:
    """Send to the running hub over MQTT and wait `timeout` for its answer on `.../cmd/result` (the broker
    may take `connect_timeout` to let us in: a busy one is not a hub that does not answer); `link_options`:
    the broker user, password and TLS of a closed room (`tablewire.credentials.link_options`)."""
    from tablewire.broker_url import parse_url
    from tablewire.mqtt import Message, MqttLink

    host, port = parse_url(broker)
    command = {**command, "id": uuid.uuid4().hex[:16]}
    decode_command(command)  # refuse a malformed command here, in plain words
    answers: queue.Queue[CommandResult] = queue.Queue()

    def on_result(message: Message) -> None:
        try:
            result = CommandResult.model_validate_json(message.payload)
        except ValueError:
            return
        if result.id == command["id"]:
            answers.put(result)

    link = MqttLink(client_id=f"tapis-td-{command['id']}", host=host, port=port,
                    **(link_options or {}))  # type: ignore[arg-type]
    subscribed = threading.Event()
    link.on_connect(subscribed.set)
    link.subscribe(TOURNAMENT_RESULT, on_result)
    link.start(timeout=connect_timeout)
    try:
        subscribed.wait(connect_timeout)
        link.publish(TOURNAMENT_CMD, json.dumps(command).encode())
        try:
            return answers.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no answer from the hub on {broker} within {timeout:g} s: is it running?") from None
    finally:
        link.stop()


class WallClock:
    """The floor's clock: wall time, because a tournament outlives a reboot (monotonic time restarts)."""

    def now(self) -> float:
        return time.time()


def serve(db: str, broker: str, *, period: float, link_options: dict[str, object] | None = None) -> int:
    """The floor alone on MQTT: TD commands and the retained clock, until Ctrl-C."""
    from hub.floor.service import FloorService
    from tablewire.broker_url import parse_url
    from tablewire.mqtt import MqttLink
    from tablewire.stopping import stop_on_signals
    host, port = parse_url(broker)
    stop = stop_on_signals()
    with EventStore(db) as store:
        link = MqttLink(client_id="tapis-floor", host=host, port=port, **(link_options or {}))  # type: ignore[arg-type]
        floor = FloorService.open(store, link=link)
        link.start()
        print(f"tapis tournament: floor of {db} on {broker}", file=sys.stderr)
        try:
            floor.serve(WallClock(), stop, period=period)
        finally:
            link.stop()
    return 0


def td_main(argv: list[str], out: TextIO | None = None) -> int:
    """`tapis tournament ...`; 0 on success, 3 when the hub gave no answer, 2 with a plain-words error
    otherwise (a refusal, a bad argument, a store or broker that cannot be used)."""
    out = out or sys.stdout
    try:
        args = parser().parse_args(argv)
    except SystemExit as exit_:
        return 0 if exit_.code == 0 else 2
    db = getattr(args, "db", DEFAULT_DB)
    broker = getattr(args, "broker", None)
    as_json = getattr(args, "json", False)
    try:
        link_options = credentials.link_options(argparse.Namespace(
            user=getattr(args, "user", None), password_file=getattr(args, "password_file", None),
            ca=getattr(args, "ca", None)))
        if link_options and broker is None:
            raise CommandError("--user, --password-file and --ca are for the hub's broker: give --broker too")
        if args.command == "serve":
            if broker is None:
                raise CommandError("serve needs --broker mqtt://host:port")
            return serve(db, broker, period=args.period, link_options=link_options)
        command = build_command(args)
        result = run_remote(broker, command, link_options=link_options) if broker else run_local(db, command)
    except TimeoutError as err:  # sent, never answered: unlike a refusal, it may have been kept
        print(f"tapis tournament {args.command}: {err}", file=sys.stderr)
        return 3
    except (CommandError, OSError, ValueError) as err:  # StoreError, TimeoutError, ConnectionError
        print(f"tapis tournament {args.command}: {err}", file=sys.stderr)
        return 2
    if not result.ok:
        fr, en = result.error_fr or result.error, result.error_en or result.error
        said = f"refusé : {fr} / refused: {en}" if fr != en else f"refused: {en}"  # French first, as the desk
        print(f"tapis tournament {args.command}: {said}", file=sys.stderr)
        return 2
    if getattr(args, "csv", False):
        out.write(bags_csv(result.data))
        return 0
    out.write((json.dumps(result.model_dump()) if as_json else render(result)) + "\n")
    return 0


def _euros(cents: int) -> str:
    return f"{cents // 100:,}".replace(",", " ") + f",{cents % 100:02d} €"


def _mmss(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60:02d}:{s % 60:02d}"


# what the TD reads once a command is done, as the desk's notice says it (desk-i18n.js `done_*`)
_DONE = {
    "new": ("Tournoi créé", "tournament created"), "register": ("Inscription enregistrée", "registered"),
    "seat": ("Places tirées", "seats drawn"), "start": ("Tournoi lancé", "tournament started"),
    "reenter": ("Réentrée enregistrée", "re-entry recorded"), "arrive": ("Arrivée enregistrée", "arrival recorded"),
    "clock": ("Horloge mise à jour", "clock updated"), "eliminate": ("Joueur éliminé", "player eliminated"),
    "move": ("Joueur déplacé", "player moved"), "wait_list": ("Liste d'attente mise à jour", "wait-list updated"),
    "penalty": ("Sanction enregistrée", "penalty recorded"), "redraw": ("Table finale tirée", "final table drawn"),
    "hand_for_hand": ("Main par main mise à jour", "hand for hand updated"),
    "chip_race": ("Course aux jetons faite", "chip race done"), "undo": ("Action annulée", "action undone"),
    "deal": ("Accord enregistré", "deal recorded"),
}


# an elimination or a move asked while the player's table is in a hand: done when it ends
_LATER: dict[tuple[str, ...], tuple[str, str]] = {
    ("EliminationAsked",): ("Sortira à la fin de la donne en cours", "out when the hand in progress ends"),
    ("MoveAsked",): ("Changera de table à la fin de la donne en cours", "moves when the hand in progress ends")}


def render(result: CommandResult) -> str:
    """A command's answer as the TD reads it at a terminal: French first, then English, in words."""
    if result.cmd == "status":
        return render_status(result.data)
    if result.cmd == "results":
        return render_results(result.data)
    if result.cmd == "bags":
        return bags_text(result.data)
    if result.cmd == "end_day":
        changing = len(result.data.get("moves", []))
        return (f"ok — fin de journée : {changing} joueurs changent de place au tirage du jour suivant / day over: "
                f"{changing} players change seat at the next day's draw\n"
                "  la feuille / the sheet: tapis tournament bags")
    if result.cmd in ("cancel_hand", "decide"):
        d = result.data
        hand = f"{table_label(str(d['table']))}, donne / hand {d['hand']}"
        if d.get("text"):  # the hub said what it did, in words
            return f"{hand}\n  {d['text']}\n  {d['text_en']}"
        return (f"{hand} : « {d['option']} » envoyé au hub / sent to the hub (il le refuse s'il n'y a rien à "
                "décider / refused there if nothing is pending)")
    fr, en = _LATER.get(tuple(result.events), None) or _DONE.get(result.cmd, ("Fait", "done"))
    lines = [f"ok — {fr} / {en}"]
    lines += [f"  déplacement / move: {_move_words(m)}" for m in result.data.get("moves", [])]
    if isinstance(result.data.get("undo"), int):  # the TD's way back, as the desk's button
        lines.append(f"  pour l'annuler / to undo it: tapis tournament undo {result.data['undo']}")
    return "\n".join(lines)


def _move_words(m: dict[str, Any]) -> str:
    """One move as the dealers read it: "Ada — Table 1 siège / seat 3 → Table 2 siège / seat 5 (article)"."""
    return (f"{m['player']} — {table_label(str(m['from_table']))} siège / seat {m['from_seat']} → "
            f"{table_label(str(m['to_table']))} siège / seat {m['to_seat']} ({m['article']})")


def _thousands(n: int) -> str:
    return f"{n:,}".replace(",", " ")  # 50 000, as the French write it


def render_status(s: dict[str, Any]) -> str:
    """The clock screen as text: what a TD reads at a glance, French first."""
    state = "pas lancée / not started" if not s["started"] else (
        "en marche / running" if s["running"] else "ARRÊTÉE / PAUSED")
    if s["on_break"]:
        where = f"PAUSE / BREAK ({s['break']})"
    else:
        where = f"niveau / level {s['level']}  {s['small_blind']}/{s['big_blind']}" + (
            f" ante {s['ante']}" if s["ante"] else "")
    lines = [f"{s['name']}  [{s['ruleset']}]",
             f"  horloge / clock     {where}  {_mmss(s['time_left'])} restant / left  ({state})"]
    nxt = s.get("next_level")
    if nxt:
        lines.append(f"  ensuite / next      niveau / level {nxt['level']}  {nxt['small_blind']}/{nxt['big_blind']}"
                     + (f" ante {nxt['ante']}" if nxt["ante"] else "")
                     + (f"   pause dans / break in {_mmss(s['next_break_in'])}"
                        if s.get("next_break_in") is not None else ""))
    lines.append(f"  joueurs / players   {s['players_left']} restants sur {s['entries']} entrées / "
                 f"{s['players_left']} left of {s['entries']} entries   tapis moyen / average stack "
                 f"{_thousands(s['average_stack'])}")
    flags = [words for words, on in (("main par main / hand for hand", s["hand_for_hand"]),
                                     ("tête-à-tête / heads-up", s["heads_up"]),
                                     ("table finale / final table", s["final_table"] is not None)) if on]
    if flags:
        lines.append(f"  floor               {', '.join(flags)}")
    lines.append("  tables")
    for number, t in s["tables"].items():
        chips = sum(seat["chips"] for seat in t["seats"].values())
        state_t = f"donne / hand {t['hand_no']} en cours / in play" if t["in_hand"] else \
            f"entre deux donnes / between hands ({t['hand_no']} jouées / played)"
        lines.append(f"    {table_label(number):<9} {len(t['seats']):>2} joueurs / players  "
                     f"{_thousands(chips):>9} jetons / chips  {state_t}"
                     + ("  ARRÊTÉE, incomplète / STOPPED, short" if t["stopped"] else ""))
    lines += [f"  déplacement / move  {_move_words(m)}" for m in s.get("moves", [])]
    if s["payouts_cents"]:
        lines.append(f"  prix / prizes       prize pool {_euros(s['prize_pool_cents'])} : " + ", ".join(
            f"{place}. {_euros(c)}" for place, c in enumerate(s["payouts_cents"], start=1)))
    return "\n".join(lines)


def render_results(r: dict[str, Any]) -> str:
    """The ranking; during play the players still in come first, unranked (their places are not won yet)."""
    lines = [f"{r['name']} : {r['players_left']} restants sur {r['entries']} entrées / {r['players_left']} left "
             f"of {r['entries']} entries, prize pool {_euros(r['prize_pool_cents'])}"]
    for row in r["ranking"]:
        if row.get("place") is None:
            words = "inscrit / registered" if row.get("status") == "registered" else "en jeu / still playing"
            lines.append(f"  {'—':>4}  {row['player']}  {words}")
            continue
        tie = " (ex aequo)" if row["tied"] > 1 else ""
        prize = f"  {_euros(row['prize_cents'])}" if row["prize_cents"] else ""
        by = ", ".join(row.get("knocked_out_by") or ())
        knocked = f"  (éliminé par {by} / knocked out by {by})" if by else ""
        lines.append(f"  {row['place']:>4}  {row['player']}{tie}{prize}{knocked}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(td_main(sys.argv[1:]))
