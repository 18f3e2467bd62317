"""The rulebook a tournament is made with: a seed by its id, or a club's file read and checked once, its
text kept with the tournament (`hub.rulebooks.stored`). Used by `tapis tournament new --ruleset` and by the
desk, which offers the seeds and the club's files of the folder the install gives the hub
(`tapis hub --rulebooks /etc/tapis/rulebooks`). A bad file is refused in one line, as `tapis rules check`
says its first problem."""

from __future__ import annotations

from pathlib import Path

import hub.rulebooks as rb
from hub.floor.commands import MAX_RULEBOOK_CHARS, CommandError

SEEDS = rb.SEED_IDS


def rulebook_of(name: str | Path) -> tuple[str, tuple[str, ...]]:
    """(id, texts to store) for a seed's id (nothing stored: it ships with tapis) or a club's .toml file."""
    text = str(name)
    if text in SEEDS:
        return text, ()
    if not text.endswith(".toml"):
        raise CommandError(f"--ruleset {text}: one of {', '.join(SEEDS)}, or a club's rulebook file (.toml)")
    try:
        book = rb.load_file(text)
        texts = rb.stored(book)
    except rb.RulebookError as err:
        raise CommandError(rb.one_line(err)) from err
    if book.floor is None:
        raise CommandError(f"{text}: pas de section [tournament] ni de règlement hérité qui en ait une / no "
                           "[tournament] section: inherits = \"cdc-2013\" (or another rulebook) gives one")
    if len(texts) > 6 or any(len(t) > MAX_RULEBOOK_CHARS for t in texts):
        raise CommandError(f"{text}: trop long pour un tournoi / too long for a tournament: at most 6 files "
                           f"of {MAX_RULEBOOK_CHARS} characters")
    return book.id, texts


def offered(folder: Path | None) -> list[dict[str, str]]:
    """What the desk's list shows: each seed, then each club file of `folder` (`file`: its name there),
    a broken one with its `error` in one line (offered to nobody, shown so the TD knows why)."""
    out = [{"id": rid, "name": rb.get(rid).name} for rid in SEEDS]
    if folder is None or not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.toml")):
        try:
            rid, _ = rulebook_of(path)
            out.append({"id": rid, "name": rb.load_file(path).name, "file": path.name})
        except CommandError as err:
            out.append({"id": "", "name": path.name, "file": path.name, "error": str(err)})
    return out


def from_folder(folder: Path | None, file: str) -> tuple[str, tuple[str, ...]]:
    """The club's file the desk named, read now: only a file directly in the folder, by its name."""
    if folder is None:
        raise CommandError("ce hub n'a pas de dossier de règlements (tapis hub --rulebooks) / this hub has no "
                           "rulebooks folder")
    if not file.endswith(".toml") or Path(file).name != file or file.startswith("."):
        raise CommandError(f"{file!r}: un fichier .toml du dossier des règlements / a .toml file of the folder")
    path = folder / file
    if not path.is_file():
        raise CommandError(f"{file}: absent du dossier {folder} / not in the rulebooks folder")
    return rulebook_of(path)
