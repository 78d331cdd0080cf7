"""`sengoku db check`: a card database folder checked whole -- cards, board, rule file, formats.

Each part is checked by the layer that reads it (`sengoku.carddb` the cards and the board,
`sengoku.validate.rules` the game rule file, `sengoku.formats` the format files); this module
sits above them all and only gathers their problems into one `CheckReport`, never stopping at
the first.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sengoku.carddb.board import BOARD_FILE, NAMELESS_AT_SETUP, check_board_file, nameless_at_setup
from sengoku.carddb.load import check_cards_file, game_of, read_and_check, resolve_cards_file
from sengoku.errors import DataError
from sengoku.files import RULES_BYTES, read_text_input
from sengoku.formats.file_check import check_format_files
from sengoku.games import GAME_FILE, read_game_file
from sengoku.paths import default_card_db
from sengoku.problems import UNREADABLE, CheckReport, Problem
from sengoku.validate.rules import rule_file_problems


def _nameless_at_setup(folder: Path) -> int:
    """Return how many Nameless a deck holds under the folder's own game.toml (else the bundled D2's)."""
    if not (folder / GAME_FILE).is_file():
        return NAMELESS_AT_SETUP
    try:
        return nameless_at_setup(read_game_file(folder / GAME_FILE).raw.get("rules"))
    except DataError:  # reported with the rule file's own problems
        return NAMELESS_AT_SETUP


def problem_json(problem: Problem) -> dict[str, Any]:
    """Return one problem in the shape `db check --json` documents (the rule id is named `code` there)."""
    return {"path": problem.path, "message": problem.message, "card_id": problem.card_id,
            "json_path": problem.json_path, "severity": problem.severity, "code": problem.rule,
            "line": problem.line}


def check_card_db(path: Path | str | None = None) -> CheckReport:
    """Check a card database; collect every problem. Raise DataError if it cannot be read.

    `path` is a cards file, a `board.json`, or a folder (default: $SENGOKU_DB, else the bundled
    sample set); a folder has its `cards.json`, its `board.json` (if any) and its format files
    (if any) checked together.
    """
    p = Path(path) if path is not None else default_card_db()
    report = CheckReport()
    if p.is_dir():
        cards_file = resolve_cards_file(p)

        def each(file: Path, check: Any) -> None:
            # One unreadable file of a folder is reported with the others' problems, not alone.
            report.files.append(str(file))
            try:
                report.problems.extend(check())
            except DataError as exc:
                report.unreadable.append(str(file))
                report.problems.append(Problem(severity="error", path=str(file), message=exc.message, line=exc.line,
                                               rule=UNREADABLE))

        cards: list[Any] = []  # the parsed cards file, read once for every check that needs it

        def check_cards() -> list[Problem]:
            data, problems = read_and_check(cards_file)
            cards.append(data)
            return problems

        each(cards_file, check_cards)
        if (p / BOARD_FILE).is_file():
            each(p / BOARD_FILE, lambda: check_board_file(p / BOARD_FILE, _nameless_at_setup(p)))
        if (p / "formats").is_dir():
            format_problems = check_format_files(p, cards[0] if cards else None)
            report.files.extend(str(f) for f in sorted((p / "formats").glob("*.toml")))
            report.problems.extend(format_problems)
            report.unreadable.extend(f.path for f in format_problems if f.rule == UNREADABLE)
        if (p / "game.toml").is_file() and str(cards_file) not in report.unreadable:
            # issue 5: a game folder's rule file
            each(p / "game.toml", lambda: check_game_file(p / "game.toml", game_of(cards[0])))
    elif p.name == BOARD_FILE:
        report.files.append(str(p))
        report.problems.extend(check_board_file(p))
    else:
        cards_file = resolve_cards_file(p)
        report.files.append(str(cards_file))
        report.problems.extend(check_cards_file(cards_file))
    return report


def check_game_file(path: Any, cards_game: str | None = None) -> list[Any]:
    """Return every problem of a game folder's `game.toml` (`sengoku db check`), as card-DB problems.

    The schema and the vocabulary (placeholders, sections, bound keys, named checks) are checked by
    the validator's own `rule_file_problems`; here we add that the rule file and the cards file
    must name the same game. Raise DataError if the file is not TOML at all.
    """
    path = Path(path)
    game = read_game_file(path)
    lines = read_text_input(path, RULES_BYTES)[0].splitlines()
    headers = [n for n, line in enumerate(lines, 1) if re.match(r"^\s*\[\[\s*rules\s*\]\]", line)]
    problems = []
    for message in rule_file_problems(game):
        m = re.match(r"rules\[(\d+)\]", message)
        index = int(m.group(1)) if m else None
        line = headers[index] if index is not None and index < len(headers) else None
        problems.append(Problem(severity="error", path=str(path), message=message, line=line, rule="game-rules",
                                json_path=f"$.rules[{index}]" if index is not None else "$"))
    if cards_game is not None and game.id != cards_game:
        problems.append(Problem(severity="error", path=str(path),
                                message=f"game = {game.id!r}, but cards.json is for {cards_game!r}",
                                json_path="$.game", rule="game-mismatch"))
    return problems
