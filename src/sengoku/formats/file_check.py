"""Check format files against their schema and the card database they belong to.

`sengoku db check` runs this over `<db>/formats/*.toml`: every problem of every file, each with
the file, line and card id -- schema errors, missing or impossible dates, two lists on one date,
card ids the database lacks, a card named twice in one list (banned and restricted, say), set
codes no card carries, a format for another game.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from sengoku.carddb.load import CARDS_FILE, read_json
from sengoku.errors import DataError
from sengoku.formats.load import formats_dir, read_format_file
from sengoku.formats.model import FormatError
from sengoku.problems import UNREADABLE, Problem, one_card


def _db_cards(folder: Path, db_data: Any = None) -> tuple[str | None, list[dict[str, Any]] | None, str | None]:
    """Return (game, raw cards, why not) of the card database beside the formats folder
    (`db_data`: that file, already parsed)."""
    cards_file = folder.parent / "cards.json"
    try:
        data = db_data if db_data is not None else read_json(cards_file)[0]
        cards = [c for c in data["cards"] if isinstance(c, dict)]
        game = data.get("meta", {}).get("game") if isinstance(data.get("meta"), dict) else None
        return game, cards, None
    except DataError as exc:
        return None, None, f"cannot read {cards_file} ({exc.message}), so card ids were not checked"
    except (KeyError, TypeError) as exc:
        return None, None, f"cannot read {cards_file} ({exc.__class__.__name__}), so card ids were not checked"


def check_format_files(folder: Path | str | None = None, db_data: Any = None) -> list[Problem]:
    """Check every format file of a card database folder (or its cards file, or its formats folder).

    Return every problem found: none for a database whose format files are clean, or that has no
    `formats` folder (nothing to check). Raise `DataError` (exit 2 for `sengoku db check`) for a
    path that does not exist, or a folder that is neither a card database (no cards file) nor a
    formats folder: a clean result must never stand for files that were not there to check.
    `db_data` is the folder's `cards.json` if the caller has parsed it already (else it is read).
    """
    given = Path(folder) if folder is not None else None
    if given is not None and not given.exists():
        raise DataError(given, "no such card database folder, cards file or formats folder")
    fdir = formats_dir(folder)
    if not fdir.is_dir():
        if given is not None and given.is_dir() and not (given / CARDS_FILE).is_file():
            raise DataError(given, f"not a card database folder (no {CARDS_FILE}) nor a formats folder")
        return []
    files = sorted(fdir.glob("*.toml"))
    if not files:
        return []
    game, cards, why = _db_cards(fdir, db_data)
    problems: list[Problem] = []
    if why:
        problems.append(Problem(path=str(fdir), message=why, severity="warning", rule="no-card-db"))
    for path in files:
        problems.extend(_check_file(path, game, cards))
    return problems


def _check_file(path: Path, game: str | None, cards: list[dict[str, Any]] | None) -> list[Problem]:
    where = str(path)
    try:
        tournament_format, problems, data, loc = read_format_file(path)
    except FormatError as exc:
        return [Problem(severity="error", path=where, message=exc.message, rule=UNREADABLE, line=exc.line)]
    if tournament_format is None or loc is None:
        return problems
    if game is not None and tournament_format.game != game:
        problems.append(Problem(severity="error", path=where,
                                message=f"format is for game {tournament_format.game!r}, but the card "
                                f"database beside it is {game!r}", json_path="$.game", rule="game",
                                line=loc.line(None, key="game")))
    ids = {c.get("id") for c in cards} if cards is not None else None
    known_sets = {c["set"] for c in cards if isinstance(c.get("set"), str)} if cards is not None else None

    for i, item in enumerate(data["lists"]):
        named: dict[str, str] = {}  # card id -> the first key (banned/restricted/limited) naming it
        for key in ("banned", "restricted", "limited"):
            for card_id in item.get(key, ()):
                line = loc.line(i, key=key, value=card_id)
                json_path = f"$.lists[{i}].{key}"
                if card_id in named:
                    problems.append(Problem(severity="error", path=where, cards=one_card(card_id),
                                            json_path=json_path, rule="duplicate",
                                            line=line, message=f"{card_id} is in both {named[card_id]} and "
                                            f"{key} of the list effective {item['effective']}"))
                else:
                    named[card_id] = key
                if ids is not None and card_id not in ids:
                    close = difflib.get_close_matches(card_id, sorted(i for i in ids if isinstance(i, str)), n=3)
                    hint = f" (did you mean {', '.join(close)}?)" if close else ""
                    problems.append(Problem(severity="error", path=where, cards=one_card(card_id),
                                            json_path=json_path, rule="unknown-card",
                                            line=line, message=f"no card with id {card_id!r} in the card "
                                            f"database{hint}"))
        for code in item.get("sets", ()) if known_sets is not None else ():
            if code not in known_sets:
                shown = ", ".join(sorted(known_sets)) or "none: no card has a `set` field"
                problems.append(Problem(severity="error", path=where, json_path=f"$.lists[{i}].sets",
                                        rule="unknown-set",
                                        line=loc.line(i, key="sets", value=code),
                                        message=f"no card in the database belongs to set {code!r} "
                                        f"(sets in the database: {shown})"))
    return sorted(problems, key=lambda p: (p.line or 0))
