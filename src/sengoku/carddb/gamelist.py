"""The bundled games at a glance (`sengoku games`), and any game's cards as plain rows (`sengoku cards --game`).

Everything here is read from the data: each game's `game.toml` (sections, rules, opening hand)
and its `cards.json` (title, size, sample flag). Adding a game folder adds a row.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from sengoku.games import DEFAULT_GAME, Game, bundled_games, default_db_folder


@dataclass(frozen=True)
class OpeningHand:
    """How a game deals its opening hand from a shuffled section (`[opening_hand]` of game.toml)."""

    section: str
    size: int
    per_round: int = 0  # cards drawn in each later round (0: not stated)
    where: dict[str, Any] | None = None  # which cards of the section are shuffled in

    def describe(self) -> str:
        more = f", then {self.per_round} per round" if self.per_round else ""
        return f"{self.size} from [[{self.section}]]{more}"


@dataclass(frozen=True)
class GameSummary:
    """One row of `sengoku games`."""

    id: str
    title: str
    db: str  # the card database folder
    db_name: str
    cards: int
    sections: tuple[str, ...]
    sample: bool
    rules: tuple[str, ...]  # rule ids, in file order, without repeats
    opening_hand: OpeningHand | None
    goldfish: str  # "engine" (SENGOKU YUGI's turn-by-turn simulator), "opening-hand", or "none"

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["sections"] = list(self.sections)
        out["rules"] = list(self.rules)
        return out


def opening_hand(game: Game) -> OpeningHand | None:
    """Return the game's opening hand, or None when it deals none from a shuffled deck."""
    raw = game.raw.get("opening_hand")
    if not isinstance(raw, dict):
        return None
    return OpeningHand(section=str(raw.get("section", game.sections[0])), size=int(raw.get("size", 0)),
                       per_round=int(raw.get("per_round", 0)), where=raw.get("where"))


def summarize(game: Game) -> GameSummary:
    """Summarise one game from its rule file and its card database (read, not checked)."""
    from sengoku.carddb.load import read_json, resolve_cards_file

    folder = default_db_folder(game.id)
    data, _ = read_json(resolve_cards_file(folder))
    meta = data.get("meta", {}) if isinstance(data, dict) else {}
    cards = data.get("cards", []) if isinstance(data, dict) else []
    rules = tuple(dict.fromkeys(r.get("id", "?") for r in game.raw.get("rules", []))) + tuple(game.raw.get("checks", []))
    hand = opening_hand(game)
    # SENGOKU YUGI's opening hand (S3, S6) is dealt by the full rules engine, which goldfishes
    # whole turns; the other games get the opening-hand report of goldfish/other_games.py.
    goldfish = "engine" if game.id == DEFAULT_GAME else ("opening-hand" if hand else "none")
    return GameSummary(id=game.id, title=game.title, db=str(folder), db_name=str(meta.get("name", "")),
                       cards=len(cards) if isinstance(cards, list) else 0, sections=game.sections,
                       sample=bool(meta.get("sample", game.sample)), rules=rules, opening_hand=hand,
                       goldfish=goldfish)


def list_games() -> list[GameSummary]:
    """Summarise every bundled game, SENGOKU YUGI first, then by id."""
    games = bundled_games()
    order = sorted(games, key=lambda g: (g != DEFAULT_GAME, g))
    return [summarize(games[g]) for g in order]


def card_rows(cards: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Return (columns, rows) showing every field any of `cards` has: id, name, kind first."""
    columns = ["id", "name", "kind"]
    for card in cards:
        for key in card:
            if key not in columns and key != "text":
                columns.append(key)

    def show(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            return ", ".join(map(show, value))
        return str(value).replace("_", " ") if isinstance(value, str) else str(value)

    return columns, [[show(card.get(c)) for c in columns] for card in cards]


def check_game_file(path: Any, cards_game: str | None = None) -> list[Any]:
    """Return every problem of a game folder's `game.toml` (`sengoku db check`), as card-DB problems.

    The schema and the vocabulary (placeholders, sections, bound keys, named checks) are checked by
    the validator's own `rule_file_problems`; here we add that the rule file and the cards file
    must name the same game. Raise DataError if the file is not TOML at all.
    """
    import re
    from pathlib import Path

    from sengoku.problems import Problem
    from sengoku.games import read_game_file
    from sengoku.validate.rules import rule_file_problems

    path = Path(path)
    game = read_game_file(path)
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    headers = [n for n, line in enumerate(lines, 1) if re.match(r"^\s*\[\[\s*rules\s*\]\]", line)]
    problems = []
    for message in rule_file_problems(game):
        m = re.match(r"rules\[(\d+)\]", message)
        index = int(m.group(1)) if m else None
        line = headers[index] if index is not None and index < len(headers) else None
        problems.append(Problem(path=str(path), message=message, line=line, code="game-rules",
                                json_path=f"$.rules[{index}]" if index is not None else "$"))
    if cards_game is not None and game.id != cards_game:
        problems.append(Problem(path=str(path), message=f"game = {game.id!r}, but cards.json is for {cards_game!r}",
                                json_path="$.game", code="game-mismatch"))
    return problems
