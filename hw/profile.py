"""Table profiles: how one table is wired, from a TOML file in `/etc/tapis/` (or a generated default).

Maps each reader antenna to a felt zone (seat N, board, burn, muck, dead-card tray) and names the
reader's serial URL. Read once by `tapis agent` at start; a wrong profile is refused with the file,
the key and what was expected.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from hw.errors import ConfigError
from hw.felt import Zone, ZoneKind
from hw.panel_pins import PanelConfig
from tablewire.wire import table_deck_ids


class ReaderConfig(BaseModel):
    model_config = ConfigDict(extra="forbid")

    backend: Literal["serial", "pcsc"] = "serial"
    url: str = Field("", description="serial URL: /dev/serial/by-id/..., a pty path, socket://host:port, loop://")
    baudrate: int = Field(115200, gt=0)
    scan_period_ms: int = Field(50, ge=5, le=2000)
    pcsc_readers: dict[str, int] = Field(default_factory=dict, description="PC/SC reader name -> antenna")

    @model_validator(mode="after")
    def _backend(self) -> ReaderConfig:
        if self.backend == "serial" and not self.url:
            raise ValueError("a serial reader needs its url")
        if self.backend == "pcsc" and not self.pcsc_readers:
            raise ValueError("PC/SC readers need pcsc_readers = {\"reader name\" = antenna, ...}")
        return self


class TableProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    table: str = Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")
    seats: int = Field(ge=2, le=10)
    reader: ReaderConfig
    antennas: dict[int, str]
    decks: tuple[str, str] | None = None  # if given, must be the one naming (`tablewire.wire.table_deck_ids`)
    panel: PanelConfig | None = None  # the seat and dealer panels (docs/panel-wiring.md); none: no panel

    @field_validator("antennas")
    @classmethod
    def _zones_parse(cls, antennas: dict[int, str]) -> dict[int, str]:
        for antenna, zone in antennas.items():
            if antenna < 0:
                raise ValueError(f"antenna {antenna}: numbers start at 0")
            Zone.parse(zone)  # raises ValueError with the zone text
        return antennas

    @model_validator(mode="after")
    def _layout(self) -> TableProfile:
        zones = [Zone.parse(z) for z in self.antennas.values()]
        for zone in zones:
            if zone.kind is ZoneKind.SEAT and zone.seat is not None and zone.seat > self.seats:
                raise ValueError(f"{zone} is beyond the table's {self.seats} seats")
        wanted = {Zone(k) for k in (ZoneKind.BOARD, ZoneKind.BURN, ZoneKind.MUCK, ZoneKind.TRAY)}
        wanted |= {Zone.seat_zone(s) for s in range(1, self.seats + 1)}
        missing = sorted(str(z) for z in wanted - set(zones))
        if missing:
            raise ValueError(f"no antenna for {', '.join(missing)}")
        if self.panel is not None:
            missing_seats = [s for s in range(1, self.seats + 1) if s not in self.panel.seats]
            if missing_seats:
                raise ValueError(f"panel.seats.{missing_seats[0]}: the table has {self.seats} seats but "
                                 f"[panel] wires none for seat {missing_seats[0]}")
        named = table_deck_ids(self.table)
        if self.decks is not None and tuple(self.decks) != named:
            # The hub deals every table from these two ids: other names would make every card foreign.
            raise ValueError(f"decks: le hub donne la table {self.table} avec les jeux {named[0]} et {named[1]}, "
                             f"nommez-les ainsi / the hub deals table {self.table} from decks {named[0]} "
                             f"and {named[1]}: name them so (or leave decks out)")
        return self

    def zone_of(self, antenna: int) -> Zone | None:
        text = self.antennas.get(antenna)
        return Zone.parse(text) if text is not None else None

    def antenna_map(self) -> dict[int, Zone]:
        """Antenna -> zone, several antennas may cover one zone (a long board)."""
        return {a: Zone.parse(z) for a, z in self.antennas.items()}

    def antenna_of(self, zone: Zone) -> int:
        for antenna, text in self.antennas.items():
            if Zone.parse(text) == zone:
                return antenna
        raise ConfigError(f"table {self.table}: no antenna for {zone}")

    @property
    def deck_ids(self) -> tuple[str, str]:
        return table_deck_ids(self.table)

    @property
    def antenna_count(self) -> int:
        return max(self.antennas) + 1

    @classmethod
    def default(cls, table: str, *, seats: int = 9, url: str = "loop://") -> TableProfile:
        """Seats on antennas 0..seats-1, then board, burn, muck and tray: the reference board layout."""
        antennas = {i: f"seat:{i + 1}" for i in range(seats)}
        for offset, zone in enumerate(("board", "burn", "muck", "tray")):
            antennas[seats + offset] = zone
        return cls(table=table, seats=seats, reader=ReaderConfig(url=url), antennas=antennas)

    @classmethod
    def load(cls, path: str | Path) -> TableProfile:
        try:
            data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
            raise ConfigError(f"table profile {path}: {err}") from err
        try:
            return cls.model_validate(data)
        except ValidationError as err:
            problems = "; ".join(_problem(e) for e in err.errors())
            raise ConfigError(f"table profile {path}: {problems}") from err


PANEL_HELP = ("section [panel] incorrecte, voir docs/panel-wiring.md / "
              "wrong [panel] section, see docs/panel-wiring.md")


def _problem(error: object) -> str:
    """One validation error as `key: message`; a [panel] one also says, in French and English, where to look."""
    assert isinstance(error, dict)
    loc = [str(p) for p in error["loc"]]
    msg = str(error["msg"]).removeprefix("Value error, ")
    if msg.startswith("panel.") and not loc:  # raised by the layout check, which names the key itself
        loc, msg = msg.split(":", 1)[0].split("."), msg.split(":", 1)[1].strip()
    key = ".".join(loc) or "profile"
    if loc[:1] == ["panel"]:
        return f"{key}: {msg} ({PANEL_HELP})"
    return f"{key}: {error['msg']}"
