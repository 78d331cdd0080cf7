"""The games `sengoku` knows, and the one registry that answers "which game is this?".

A game is mostly data: a folder `card_db/<folder>/` with its cards (`cards.json`) and its
rule file (`game.toml`, vocabulary in `docs/rule-vocabulary.md`, schema
`schemas/game-rules.schema.json`) giving its sections, keys, rules and opening hand. Every
bundled folder that has a `game.toml` is a game. A decklist picks its game with its top-level
`game` key, a card database with its `meta.game`.

What a game has in code rather than data -- its card schema, its card model and checks, how
`sengoku cards` shows it, whether `sengoku goldfish` plays it turn by turn -- is its entry in
`REGISTRY`, one per game. Code that behaves differently per game asks `game_code()` (or a
`Game`'s properties), never compares game ids itself.

This module reads only what a decklist reader needs (sections, top-level keys); the rules
themselves are compiled by `sengoku.validate.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from sengoku.errors import DataError
from sengoku.files import RULES_BYTES, loads_toml, read_text_input
from sengoku.paths import data_dir, default_card_db

GAME_FILE = "game.toml"
DEFAULT_GAME = "sengoku-yugi"  # the game of a decklist or card database that names none
# Top-level decklist keys every game accepts; a game declares more in its `[keys]` table.
COMMON_KEYS = ("game", "name", "format")
DEFAULT_MAX_COUNT = 99  # an entry's `count` above this is a typo, not a deck


@dataclass(frozen=True)
class GameCode:
    """What one game has in code, beyond its data folder: its entry in `REGISTRY`."""

    card_schema: str  # the JSON Schema (in schemas/) its cards.json is checked against
    # "sengoku": SENGOKU YUGI's own card model and checks (carddb.models, carddb.card_checks);
    # "generic": the model and checks every other game shares (carddb.generic)
    card_model: str = "generic"
    engine: bool = False  # `sengoku goldfish` plays whole turns on sengoku.engine (else: opening hands)
    card_table: str = "every-field"  # how `sengoku cards` shows its cards: "sengoku" columns, or every field
    modes: bool = False  # its decks have a `mode` (Standard/Ultimate) that reports name beside the game


REGISTRY: dict[str, GameCode] = {
    DEFAULT_GAME: GameCode("sengoku-card-db.schema.json", card_model="sengoku", engine=True,
                           card_table="sengoku", modes=True),
    # issue 5: the games beside SENGOKU YUGI
    "champions": GameCode("champions-card-db.schema.json"),
    "clan-tactics": GameCode("clan-tactics-card-db.schema.json"),
    "fe-tcg": GameCode("fe-tcg-card-db.schema.json"),
    "senjutsu": GameCode("senjutsu-card-db.schema.json"),
}


def game_code(game_id: str) -> GameCode | None:
    """Return a game's registry entry, or None for a game `sengoku` has no code for."""
    return REGISTRY.get(game_id)


@dataclass(frozen=True)
class KeySpec:
    """A top-level decklist key a game accepts (e.g. SENGOKU YUGI's `mode`, champions' `players`)."""

    name: str
    type: str = "string"  # "string" | "integer" | "boolean"
    values: tuple[Any, ...] = ()  # allowed values; empty: any of the type
    min: int | None = None
    max: int | None = None
    default: Any = None
    required: bool = False
    description: str = ""


@dataclass(frozen=True)
class Game:
    """A game's identity and decklist shape, read from its `game.toml`."""

    id: str
    title: str
    folder: Path  # the card database folder (holds cards.json and game.toml)
    rule_file: Path
    sections: tuple[str, ...]
    keys: dict[str, KeySpec] = field(default_factory=dict, compare=False)
    max_count: int = DEFAULT_MAX_COUNT
    sample: bool = False
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def goldfish(self) -> str:
        """What `sengoku goldfish` does with this game's decks: "engine", "opening-hand" or "none"."""
        code = game_code(self.id)
        if code is not None and code.engine:
            return "engine"
        return "opening-hand" if opening_hand(self) is not None else "none"


def read_game_file(path: Path | str) -> Game:
    """Read a `game.toml` (no schema check: `sengoku.validate.rules.load_rules` does that)."""
    path = Path(path)
    text, _ = read_text_input(path, RULES_BYTES, missing="no such game rule file")
    raw = loads_toml(text, path)
    game_id = raw.get("game")
    sections = raw.get("sections")
    if not isinstance(game_id, str) or not isinstance(sections, list) or not sections:
        raise DataError(path, "a game rule file needs `game` (a string) and `sections` (a non-empty array)")
    # A wrong type for `keys` or `max_count` is left to the schema check (rule_file_problems), which
    # reports it with the other problems; reading must not crash on it first.
    raw_keys = raw.get("keys") or {}
    max_count = raw.get("max_count", DEFAULT_MAX_COUNT)
    if not isinstance(max_count, int) or isinstance(max_count, bool):
        max_count = DEFAULT_MAX_COUNT
    keys = {}
    for name, spec in (raw_keys if isinstance(raw_keys, dict) else {}).items():
        if not isinstance(spec, dict):
            raise DataError(path, f"keys.{name} must be a table")
        keys[name] = KeySpec(
            name=name,
            type=spec["type"] if isinstance(spec.get("type"), str) else "string",  # else: schema problem
            values=tuple(spec["values"]) if isinstance(spec.get("values"), list) else (),
            min=spec.get("min"),
            max=spec.get("max"),
            default=spec.get("default"),
            required=bool(spec.get("required", False)),
            description=spec.get("description", ""),
        )
    return Game(
        id=game_id,
        title=str(raw.get("title", game_id)),
        folder=path.parent,
        rule_file=path,
        sections=tuple(str(s) for s in sections),
        keys=keys,
        max_count=max_count,
        sample=bool(raw.get("sample", False)),
        raw=raw,
    )


@lru_cache(maxsize=1)
def bundled_games() -> dict[str, Game]:
    """Return every bundled game (each `card_db/*/game.toml`), by game id, sorted by id."""
    root = data_dir("card_db")
    games: dict[str, Game] = {}
    for rule_file in sorted(root.glob(f"*/{GAME_FILE}")):
        game = read_game_file(rule_file)
        games[game.id] = game
    return dict(sorted(games.items()))


def game_ids() -> list[str]:
    """Return the ids of the bundled games."""
    return list(bundled_games())


def get_game(game_id: str) -> Game:
    """Return a bundled game by id; raise DataError naming the known ones."""
    games = bundled_games()
    if game_id not in games:
        raise DataError(None, f"unknown game {game_id!r} (known: {', '.join(games)})")
    return games[game_id]


def default_db_folder(game_id: str) -> Path:
    """Return the card database folder to use for a game ($SENGOKU_DB applies to SENGOKU YUGI)."""
    game = get_game(game_id)
    if game_id == DEFAULT_GAME:
        return default_card_db()  # honours $SENGOKU_DB
    return game.folder


def game_for_db(db_path: Path | str, game_id: str | None = None) -> Game:
    """Return the game of a card database given as a file or folder.

    Its own `game.toml` (beside the cards file) wins; otherwise the bundled one for `game_id`.
    """
    p = Path(db_path)
    folder = p if p.is_dir() else p.parent
    own = folder / GAME_FILE
    if own.is_file():
        return read_game_file(own)
    if game_id is None:
        raise DataError(p, f"no {GAME_FILE} beside this card database, and no game given")
    return get_game(game_id)


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


def opening_hand(game: Game) -> OpeningHand | None:
    """Return the game's opening hand, or None when it deals none from a shuffled deck."""
    raw = game.raw.get("opening_hand")
    if not isinstance(raw, dict):
        return None
    return OpeningHand(section=str(raw.get("section", game.sections[0])), size=int(raw.get("size", 0)),
                       per_round=int(raw.get("per_round", 0)), where=raw.get("where"))
