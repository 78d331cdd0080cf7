"""The bundled games at a glance (`sengoku games`): each game's rule file beside its card database.

Everything here is read from the data: each game's `game.toml` (sections, rules, opening hand)
and its `cards.json` (title, size, sample flag). Adding a game folder adds a row.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from sengoku.carddb.load import read_json, resolve_cards_file
from sengoku.games import DEFAULT_GAME, Game, OpeningHand, bundled_games, default_db_folder, opening_hand


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


def summarize(game: Game) -> GameSummary:
    """Summarise one game from its rule file and its card database (read, not checked)."""
    folder = default_db_folder(game.id)
    data, _ = read_json(resolve_cards_file(folder))
    meta = data.get("meta", {}) if isinstance(data, dict) else {}
    cards = data.get("cards", []) if isinstance(data, dict) else []
    rules = tuple(dict.fromkeys(r.get("id", "?") for r in game.raw.get("rules", []))) + tuple(game.raw.get("checks", []))
    hand = opening_hand(game)
    # A game with a rules engine (SENGOKU YUGI: its opening hand, S3 and S6, is dealt by the
    # engine) goldfishes whole turns; the others get the opening-hand report of goldfish/other_games.py.
    goldfish = game.goldfish
    return GameSummary(id=game.id, title=game.title, db=str(folder), db_name=str(meta.get("name", "")),
                       cards=len(cards) if isinstance(cards, list) else 0, sections=game.sections,
                       sample=bool(meta.get("sample", game.sample)), rules=rules, opening_hand=hand,
                       goldfish=goldfish)


def list_games() -> list[GameSummary]:
    """Summarise every bundled game, SENGOKU YUGI first, then by id."""
    games = bundled_games()
    order = sorted(games, key=lambda g: (g != DEFAULT_GAME, g))
    return [summarize(games[g]) for g in order]
