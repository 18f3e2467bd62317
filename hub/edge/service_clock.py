"""The hub service's clock: the tournament floor's turn, and the games where a Time countdown runs.

Every `tick` seconds (`hub.edge.service_loop`), the floor sees the wall's time (levels, breaks, the clock's
records) and each game whose countdown started is asked if it ran out (`TableGame.tick`, cdc 10.13): only
those, not every table, for a festival's thousand tables asked five times a second held the loop for
milliseconds. A table sent its hand's state again (`HubService._resend`) has its own countdown ticked
first, for the time left it is told. A part of `hub.edge.service.HubService`, which owns the state named
below.
"""

from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping

from hub.floor.store import StoreError
from hub.floor.tables import FloorTables
from hub.room.game import Output, TableGame
from hub.room.tables import TableView
from hw.ports import Clock

log = logging.getLogger("hub.edge.service")  # the service's log, whichever of its modules speaks


class GameClock(ABC):
    """The floor's turn and the Time countdowns, on the hub's two clocks."""

    # the service's state the clock reads and changes (set by `HubService.__init__`)
    _clock: Clock  # monotonic: this hub's own games count on it
    _wall: Callable[[], float]  # the tournament's: the floor and its games count on it
    floor_tables: FloorTables | None
    floor_lock: threading.RLock
    games: dict[str, TableGame]
    _countdowns: dict[str, None]  # own games where a Time countdown started (each game's `on_countdown`)
    _floor_store_error: str | None  # the floor's clock could not be stored (said once)
    _time_store_error: str | None  # a Time run out could not be counted by the floor (said once)

    @abstractmethod
    def _view(self, table: str) -> TableView: ...
    @abstractmethod
    def _emit(self, view: TableView, out: Output) -> None: ...

    def _timed_games(self) -> list[tuple[str, TableGame]]:
        """The games where a Time countdown runs (`TableGame.timing`), as `_games` would give them: the only
        ones the clock can change. Asked of the games whose countdown started, not of every table."""
        return self._own_timed() + (self.floor_tables.timed() if self.floor_tables is not None else [])

    def _own_timed(self) -> list[tuple[str, TableGame]]:
        """This hub's own games whose countdown runs; those it ran out, answered or ended are asked no more."""
        floor = self.floor_tables
        games = []
        for table in list(self._countdowns):
            game = self.games.get(table)
            if game is None or not game.timing:
                del self._countdowns[table]
            elif floor is None or floor.game(table) is None:
                games.append((table, game))
        return games

    def _tick_games(self) -> None:
        """The clock's turn: the floor's (levels, breaks...), then every game where a Time countdown runs."""
        now, wall = self._clock.now(), self._wall()
        if self.floor_tables is not None:
            try:
                with self.floor_lock:
                    self.floor_tables.floor.pump(wall)
                self._floor_store_error = None
            except StoreError as err:  # the clock's records wait; a TD's cancel or decision is held by the floor
                if self._floor_store_error is None:
                    log.warning("hub: the tournament floor cannot store its clock until the store writes: %s", err)
                self._floor_store_error = str(err)
            except Exception:
                log.exception("hub: the tournament floor failed on the clock")
        self._tick_timed(self._timed_games(), now, wall)

    def _tick_resent(self, tables: Collection[str], games: Mapping[str, TableGame]) -> bool:
        """The games of `tables` (sent their hand's state again) whose countdown runs, ticked; False: none.
        A countdown's time left is counted from the game's last tick: a hub rebuilt from its store had none
        since the Time call it replayed, and told the table the whole time again."""
        timed = sorted((t, g) for t in tables if (g := games.get(t)) is not None and g.timing)
        if timed:
            self._tick_timed(timed, self._clock.now(), self._wall())
        return bool(timed)

    def _tick_timed(self, timed: list[tuple[str, TableGame]], now: float, wall: float) -> None:
        """Each game's clock (`TableGame.tick`): a countdown that ran out is ruled, and told to the table."""
        floor = self.floor_tables
        for table, game in timed:
            try:
                # The floor's games count in the wall's time, as it plays them (`FloorTables.receive`, the
                # tournament's clock); this hub's own in its monotonic clock's (`_play`): a countdown is judged on
                # the clock it began on. A hand one ends at a floor's table is the floor's to count
                if floor is not None and floor.game(table) is game:
                    with self.floor_lock:
                        out = floor.tick(table, wall)
                    self._time_store_error = None
                else:
                    out = game.tick(now)
                view = self._view(table)
                view.hand, view.hand_open = game.hand_no, game.in_hand
                self._emit(view, out)
            except StoreError as err:  # the game as stored, its countdown running: the next tick tries again
                if self._time_store_error != str(err):
                    log.warning("hub: table %s: a Time run out waits for the store: %s", table, err)
                self._time_store_error = str(err)
            except Exception:
                log.exception("hub: table %s failed on the clock", table)
