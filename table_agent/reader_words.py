"""The reader's status as the TD reads it on the dashboard: French first, then English (« … / … »).

Every `ReaderStatus.detail` the agent publishes is written here: the place named as the dealer knows
it (« siège 3 », « tableau / board », « défausse / muck »), never a code name (`reader_timeout`), and
what to do where it is plain. The agent's journal keeps its own English lines. Pure words: no IO.
"""

from __future__ import annotations

from firmware_bridge import FaultCode
from hw.felt import Zone, ZoneKind

ZONE_WORDS: dict[ZoneKind, tuple[str, str]] = {
    ZoneKind.BOARD: ("tableau", "board"),
    ZoneKind.BURN: ("brûlée", "burn"),
    ZoneKind.MUCK: ("défausse", "muck"),
    ZoneKind.TRAY: ("bac des cartes mortes", "dead-card tray"),
}

# code -> (French, English) of what is wrong, then of what to do ("" where nothing plain is to be done)
FAULT_WORDS: dict[FaultCode, tuple[str, str, str, str]] = {
    FaultCode.ANTENNA_OPEN: ("antenne non branchée", "antenna not connected",
                             "vérifier le câble de l'antenne", "check the antenna's cable"),
    FaultCode.ANTENNA_SHORT: ("antenne en court-circuit ou déréglée", "antenna shorted or detuned",
                              "retirer tout objet métallique posé dessus", "take off any metal object lying on it"),
    FaultCode.READER_TIMEOUT: ("module lecteur muet", "reader module silent",
                               "vérifier le câble du module", "check the module's cable"),
    FaultCode.COLLISION: ("trop de cartes à la fois pour les lire", "too many cards at once to read them",
                          "écarter les cartes", "spread the cards apart"),
    FaultCode.TX_OVERFLOW: ("lectures perdues (trop de messages)", "reads dropped (too many messages)", "", ""),
    FaultCode.BAD_COMMAND: ("réglage de l'agent refusé", "one of the agent's settings refused",
                            "vérifier le profil de la table", "check the table's profile"),
    FaultCode.REBOOTED: ("carte redémarrée", "board restarted", "", ""),
}


def both(fr: str, en: str) -> str:
    return f"{fr} / {en}"


# The board reset on its own and the agent set it reading again.
RESTARTED = both("lecteur redémarré, reprise de la lecture", "reader board restarted, reading again")


def place(antenna: int, zone: Zone | None) -> tuple[str, str]:
    """`("siège 3 (antenne 5)", "seat 3 (antenna 5)")`; an antenna the profile maps to no zone by number."""
    if zone is None:
        return f"antenne {antenna}", f"antenna {antenna}"
    if zone.kind is ZoneKind.SEAT:
        return f"siège {zone.seat} (antenne {antenna})", f"seat {zone.seat} (antenna {antenna})"
    fr, en = ZONE_WORDS[zone.kind]
    return f"{fr} (antenne {antenna})", f"{en} (antenna {antenna})"


def places(named: list[tuple[str, str]]) -> tuple[str, str]:
    return ", ".join(fr for fr, _ in named), ", ".join(en for _, en in named)


def fault(code: FaultCode, where: tuple[str, str] | None, said: str = "", *, unread: bool = False) -> str:
    """A `ReaderFault` from the board: on an antenna (`where`) or on the board itself (None). `unread`:
    the antenna's cards are unknown, not gone. `said`: the board's own words, quoted as such in the
    English half (its firmware speaks English)."""
    what_fr, what_en, do_fr, do_en = FAULT_WORDS.get(code, ("en défaut", "faulty", "", ""))
    fr, en = ("carte lecteur", "reader board") if where is None else where
    fr, en = f"{fr} : {what_fr}", f"{en}: {what_en}"
    if unread:
        fr += ", cartes non lues (pas parties)"
        en += ", cards unread (not gone)"
    if do_fr:
        fr, en = f"{fr} ; {do_fr}", f"{en}; {do_en}"
    if said:
        en += f" (the board says: {said})"
    return both(fr, en)


def reads_again(back: tuple[str, str], still: tuple[str, str] | None) -> str:
    fr, en = f"{back[0]} : lu de nouveau", f"{back[1]}: reads again"
    if still is not None:
        fr += f" ; toujours non lu : {still[0]}"
        en += f"; still unread: {still[1]}"
    return both(fr, en)


def stalled(seconds: float) -> str:
    return both(f"aucune nouvelle du lecteur depuis {seconds:.0f} s ; vérifier le câble USB de la carte lecteur",
                f"no frame from the reader for {seconds:.0f} s; check the reader board's USB cable")


def link_lost(said: str) -> str:
    """The link to the reader lost; `said`: the OS's (or pcscd's) own words, kept in both halves."""
    return both(f"liaison avec le lecteur perdue ({said}) ; vérifier son câble USB",
                f"link to the reader lost ({said}); check its USB cable")


def board_idle(tries: int) -> str:
    """The board counts no scan though its settings and StartScan went `tries` times: the table is blind."""
    return both(f"la carte lecteur ne lit plus (relancée {tries} fois sans effet) : aucune carte n'est vue ; "
                "la débrancher puis la rebrancher",
                f"the reader board does not scan (told {tries} times to no effect): no card is seen; "
                "unplug it and plug it back in")


def board_scans_again() -> str:
    return both("la carte lecteur lit de nouveau", "the reader board scans again")


def wrong_protocol(board: int, agent: int) -> str:
    return both(f"la carte lecteur parle le protocole v{board}, l'agent le v{agent} : mettre à jour l'un ou l'autre",
                f"the reader board speaks protocol v{board}, this agent v{agent}: update one or the other")


def connected(firmware: str, version: int, antennas: int) -> str:
    return both(f"lecteur connecté : {firmware} (protocole v{version}, {antennas} antennes)",
                f"reader connected: {firmware} (protocol v{version}, {antennas} antennas)")
