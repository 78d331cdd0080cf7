"""The board geometry (SPEC B1): read from `board.json` in the card DB folder, never hard-coded.

Coordinates are the owner's: a `Space` is `(row, column)`; row 0 is the owner's back edge and
rows grow toward the centre line; column 0 is the owner's left. Rows `0 .. len(rows)-1` are the
owner's half; rows from `len(rows)` up are the opponent's half seen from our side (mirrored), so
"ahead" is always `row + n`. The engine asks this object, not the file, where things are.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from sengoku.carddb.load import read_json, schema_problems
from sengoku.errors import DataError
from sengoku.pass_cache import pass_key, passed_before, remember_pass
from sengoku.paths import data_dir, default_card_db, schema_path
from sengoku.problems import Problem

BOARD_FILE = "board.json"
BOARD_SCHEMA = "board.schema.json"
NAMELESS_AT_SETUP = 2  # D2: a deck's Nameless, which all start on the Stronghold Perimeter (S2)

Space = tuple[int, int]  # (row, column) in the owner's frame
Offset = tuple[int, int]  # (ahead, side): side < 0 is left, > 0 is right


class BoardError(DataError):
    """A board file that fails its schema or its geometry checks."""

    def __init__(self, path: Path | str, problems: list[Problem]):
        lines = "\n".join(f"  {p}" for p in problems)
        super().__init__(path, f"the board file has {len(problems)} problem(s):\n{lines}")
        self.problems = problems


@dataclass(frozen=True)
class Board:
    """One player's half of the field plus the opponent's half as seen from it (B1)."""

    columns: int
    rows: tuple[str, ...]  # "frontline" / "backline", from the owner's back edge to the centre line
    stronghold: Space
    perimeter: tuple[Space, ...]  # Stronghold Perimeter, in file order
    invasion_rows: tuple[int, ...]  # opponent's rows allies may enter; 0 = next to the centre line
    common_range: tuple[Offset, ...]
    corners: dict[str, Offset] = field(hash=False)
    name: str = ""
    assumptions: tuple[str, ...] = ()
    path: str | None = None

    @classmethod
    def from_mapping(cls, data: Any, path: str | None = None) -> "Board":
        """Build a board from data shaped like board.json (spaces as {row, column} or [row, column]).

        Raise KeyError, TypeError or IndexError on a malformed mapping; `load_board` checks the
        file against its schema first.
        """

        def rc(s: Any) -> Space:
            return (s["row"], s["column"]) if isinstance(s, dict) else (int(s[0]), int(s[1]))

        def off(o: Any) -> tuple[int, int]:
            return (o["ahead"], o["side"]) if isinstance(o, dict) else (int(o[0]), int(o[1]))

        return cls(
            columns=data["columns"],
            rows=tuple(data["rows"]),
            stronghold=rc(data["stronghold"]),
            perimeter=tuple(rc(s) for s in data["stronghold_perimeter"]),
            invasion_rows=tuple(data["invasion_zone"]["enemy_rows"]),
            common_range=tuple(off(o) for o in data["attack_range"]["common"]),
            corners={k: off(v) for k, v in data["attack_range"]["corners"].items()},
            name=data.get("name", ""),
            assumptions=tuple(data.get("assumptions", ())),
            path=path,
        )

    @property
    def depth(self) -> int:
        """Return how many rows one half has."""
        return len(self.rows)

    @cached_property
    def enemy_stronghold(self) -> Space:
        """Return the opponent's Stronghold: ours mirrored across the centre line."""
        row, col = self.stronghold
        return (2 * self.depth - 1 - row, self.columns - 1 - col)

    @cached_property
    def invasion_zone(self) -> frozenset[Space]:
        """Return the opponent's spaces our allies may Move into (their Stronghold excluded)."""
        return frozenset(
            (self.depth + r, c) for r in self.invasion_rows for c in range(self.columns)
        ) - {self.enemy_stronghold}

    @cached_property
    def own_spaces(self) -> tuple[Space, ...]:
        """Return every space of our half an ally can stand on (all but the Stronghold)."""
        return tuple((r, c) for r in range(self.depth) for c in range(self.columns) if (r, c) != self.stronghold)

    @cached_property
    def spaces(self) -> tuple[Space, ...]:
        """Return every space an ally of ours can stand on: our half and the Invasion Zone."""
        return self.own_spaces + tuple(sorted(self.invasion_zone))

    def line(self, space: Space) -> str:
        """Return "frontline", "backline" (our half) or "invasion" (the opponent's half)."""
        row, _ = space
        if 0 <= row < self.depth:
            return self.rows[row]
        return "invasion"

    def is_frontline(self, space: Space) -> bool:
        """Check if a space of our half is in the Frontline (abilities such as "in the FL")."""
        return self.line(space) == "frontline"

    def on_board(self, space: Space) -> bool:
        """Check if a space lies on either half."""
        row, col = space
        return 0 <= row < 2 * self.depth and 0 <= col < self.columns

    @cached_property
    def _neighbours(self) -> dict[Space, tuple[Space, ...]]:
        standable = set(self.spaces)
        table = {}
        for r, c in self.spaces:
            # M4: one orthogonal step; the Stronghold is not a space one can enter or cross.
            steps = ((r + 1, c), (r - 1, c), (r, c - 1), (r, c + 1))
            table[(r, c)] = tuple(s for s in steps if s in standable)
        return table

    def neighbours(self, space: Space) -> tuple[Space, ...]:
        """Return the spaces one orthogonal step from `space` that an ally may stand on (M4, M5)."""
        return self._neighbours.get(space, ())

    def attack_range(self, space: Space, corners: tuple[str, ...] | list[str] = ()) -> tuple[Space, ...]:
        """Return the spaces an ally on `space` with these corner gems can target, on the board.

        Counted from the ally's own space, so a Backline ally's range sits one row further back.
        """
        row, col = space
        offsets = list(self.common_range) + [self.corners[c] for c in corners]
        out = []
        for ahead, side in offsets:
            target = (row + ahead, col + side)
            if self.on_board(target) and target not in out:
                out.append(target)
        return tuple(out)

    def reaches_enemy_stronghold(self, space: Space, corners: tuple[str, ...] | list[str] = ()) -> bool:
        """Check if an ally on `space` has the opponent's Stronghold in its attack range (K4)."""
        return self.enemy_stronghold in self.attack_range(space, corners)


def nameless_at_setup(rules: Any) -> int:
    """Return how many Nameless a deck may hold under a game rule file's raw rules (default D2's 2).

    Each starts on its own Perimeter space (S2), so the board needs at least that many.
    """
    counts = [r.get("max") for r in rules if isinstance(r, dict) and r.get("type") == "count"
              and r.get("sections") == ["nameless"]] if isinstance(rules, list) else []
    found = [n for n in counts if isinstance(n, int) and not isinstance(n, bool)]
    return max(found) if found else NAMELESS_AT_SETUP


def check_board_data(path: str, data: dict[str, Any], nameless: int = NAMELESS_AT_SETUP) -> list[Problem]:
    """Check a schema-valid board beyond its schema: every space on the board and consistent,
    and room on the Perimeter for the `nameless` a deck starts with (the engine refuses less)."""
    problems: list[Problem] = []

    def bad(json_path: str, message: str, code: str, severity: str = "error") -> None:
        problems.append(Problem(path=path, message=message, json_path=json_path, rule=code, severity=severity))

    depth, columns = len(data["rows"]), data["columns"]

    def inside(space: dict[str, int]) -> bool:
        return space["row"] < depth and space["column"] < columns

    sh = data["stronghold"]
    if not inside(sh):
        bad("$.stronghold", f"the Stronghold at row {sh['row']}, column {sh['column']} is off the "
            f"{depth}x{columns} half", "board-off-grid")
    for i, space in enumerate(data["stronghold_perimeter"]):
        where = f"$.stronghold_perimeter[{i}]"
        if not inside(space):
            bad(where, f"row {space['row']}, column {space['column']} is off the {depth}x{columns} half",
                "board-off-grid")
        elif space == sh:
            bad(where, "the Stronghold itself cannot be a Perimeter space", "board-perimeter-stronghold")
        elif max(abs(space["row"] - sh["row"]), abs(space["column"] - sh["column"])) != 1:
            bad(where, f"row {space['row']}, column {space['column']} does not touch the Stronghold",
                "board-perimeter-apart", severity="warning")
    for i, row in enumerate(data["invasion_zone"]["enemy_rows"]):
        if row >= depth:
            bad(f"$.invasion_zone.enemy_rows[{i}]", f"the opponent's half has rows 0-{depth - 1}, not {row}",
                "board-off-grid")
    usable = [s for s in data["stronghold_perimeter"] if inside(s) and s != sh]
    if len(usable) < nameless:  # S2: the setup has nowhere to put them; every goldfish would fail
        bad("$.stronghold_perimeter", f"the Stronghold Perimeter has {len(usable)} usable space(s), but a deck's "
            f"{nameless} Nameless each start on one (S2)", "board-perimeter-too-small")
    if "frontline" not in data["rows"]:
        bad("$.rows", "no row is a Frontline", "board-no-frontline")
    return problems


def check_board_file(path: Path | str, nameless: int = NAMELESS_AT_SETUP) -> list[Problem]:
    """Return every schema and geometry problem of a board file; raise DataError if unreadable."""
    data, _ = read_json(Path(path))
    problems = schema_problems(str(path), data, BOARD_SCHEMA)
    if problems:
        return problems
    return check_board_data(str(path), data, nameless)


def board_file(db_folder: Path | str | None = None) -> Path:
    """Return the board file for a card DB (folder or cards file); fall back to the bundled one.

    A user's own card database need not ship a board: the bundled geometry then applies.
    """
    folder = Path(db_folder) if db_folder is not None else default_card_db()
    if folder.is_file():
        folder = folder.parent
    candidate = folder / BOARD_FILE
    if candidate.is_file():
        return candidate
    return data_dir("card_db") / "sengoku" / BOARD_FILE


def load_board(db_folder: Path | str | None = None) -> Board:
    """Load and check the board geometry of a card DB folder (default: $SENGOKU_DB, else bundled)."""
    path = board_file(db_folder)
    data, raw = read_json(path)
    key = pass_key(raw, schema_path(BOARD_SCHEMA))
    if not passed_before(key):
        problems = [p for p in check_board_file(path) if p.severity == "error"]
        if problems:
            raise BoardError(path, problems)
        remember_pass(key)
    return Board.from_mapping(data, path=str(path))
