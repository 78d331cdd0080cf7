"""The public validation API: `validate_deck`, `validate_file`, `validate_paths`.

A `Validator` holds what a run loads once (card catalogs, compiled rule books, tournament
formats) so a thousand decklists cost a thousand parses plus dictionary lookups.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sengoku.decklist.model import Decklist
from sengoku.decklist.read import NOT_A_DECKLIST, read_decklist
from sengoku.display import display_path
from sengoku.errors import DataError
from sengoku.folders import Found, find_tomls
from sengoku.games import Game, bundled_games, default_db_folder, game_for_db, get_game
from sengoku.paths import DB_ENV
from sengoku.carddb.catalog import Catalog, catalog_from_db, load_catalog
from sengoku.validate.deck_check import Checker, FORMAT_UNKNOWN
from sengoku.validate.result import ValidationResult, Problem
from sengoku.validate.rules import load_rules

DbArg = Any  # None | str | Path | CardDatabase | Catalog


def parse_as_of(as_of: dt.date | str | None) -> dt.date | None:
    """Return `as_of` as a date; a string must be an ISO date (2025-04-01)."""
    if as_of is None or isinstance(as_of, dt.date):
        return as_of
    try:
        return dt.date.fromisoformat(str(as_of).strip())
    except ValueError:
        raise DataError("--as-of", f"must be a date like 2025-04-01, not {as_of!r}") from None


class Validator:
    """Validate decklists of any known game; caches catalogs, rules and formats across decks."""

    def __init__(self, db: DbArg = None, format: Any = None, as_of: dt.date | str | None = None):
        self.format = format
        self.as_of = parse_as_of(as_of)
        self._checkers: dict[str, Checker] = {}
        self._formats: dict[tuple[str, str], Any] = {}
        self.games: dict[str, Game] = dict(bundled_games())
        self._own: dict[str, tuple[Catalog, Game]] = {}
        if db is not None:
            catalog, game = self._open_db(db)
            self._own[game.id] = (catalog, game)
            self.games[game.id] = game

    @staticmethod
    def _open_db(db: DbArg) -> tuple[Catalog, Game]:
        if isinstance(db, Catalog):
            catalog = db
        elif isinstance(db, (str, Path)):
            catalog = load_catalog(db)
        else:  # a loaded CardDatabase
            catalog = catalog_from_db(db)
        if catalog.path:
            game = game_for_db(catalog.path, catalog.game)
        else:
            game = get_game(catalog.game)
        if game.id != catalog.game:
            raise DataError(catalog.path, f"the card database is for {catalog.game!r} but its game.toml "
                            f"says {game.id!r}")
        return catalog, game

    def checker(self, game_id: str) -> Checker:
        """Return the checker of a game (its catalog and compiled rules), building it once."""
        checker = self._checkers.get(game_id)
        if checker is None:
            if game_id in self._own:
                catalog, game = self._own[game_id]
            else:
                folder = default_db_folder(game_id)
                catalog = load_catalog(folder)
                if catalog.game != game_id:  # $SENGOKU_DB names another game's database
                    raise DataError(folder, f"${DB_ENV} names a {catalog.game} card database; "
                                            f"{game_id} decks need a {game_id} one")
                game = game_for_db(catalog.path or folder, game_id)
            checker = self._checkers[game_id] = Checker(load_rules(game), catalog)
        return checker

    def validate_deck(self, deck: Decklist, syntax: Iterable[Problem] = ()) -> ValidationResult:
        """Check one decklist (with the syntax problems found reading it, if any).

        A decklist read from a file carries its own (`Decklist.syntax`); they count whether or
        not they are passed again, so no command can check or play a deck `validate` refuses.
        """
        given = list(syntax)
        syntax = given + [v for v in deck.syntax if isinstance(v, Problem) and v not in given]
        if deck.game not in self.games:  # a Decklist built in code; files are checked when read
            return ValidationResult(path=deck.path, game=deck.game, violations=[*syntax, Problem(
                "syntax", "error", f"unknown game {deck.game!r} (known: {', '.join(self.games)})")])
        checker = self.checker(deck.game)
        result, resolution = checker.check_resolved(deck, syntax)
        if self._own and deck.game not in self._own:  # --db names another game's database
            own = next(iter(self._own))
            result.info["card_db"] = (f"--db is a {own} card database; this {deck.game} deck was "
                                      f"checked against the bundled {deck.game} cards")
        tournament_format = self.format if self.format is not None else deck.format
        if tournament_format is not None:
            explicit = self.format is not None
            tournament_violations = self._format_violations(tournament_format, explicit, deck, checker,
                                                            resolution.resolved)
            if tournament_violations:
                result.violations.extend(tournament_violations)
                result.violations.sort(key=lambda v: (v.line is None, v.line or 0, v.column or 0))
            key = self._format_key(tournament_format, checker)
            if key in self._formats and self._formats[key] is None:
                result.format = None
                result.info["format"] = f"format {str(tournament_format)!r} belongs to another game; not applied"
            else:
                result.format = getattr(self._formats.get(key), "name", None) or (
                    tournament_format if isinstance(tournament_format, str) else result.format)
        return result

    def format_list(self, deck: Decklist) -> Any:
        """Return the list of the tournament format `validate_deck` checked `deck` against, in force on
        --as-of (a `formats.model.FormatList`), or None when no format applies; call it after
        `validate_deck(deck)` passed."""
        tournament_format = self.format if self.format is not None else deck.format
        if tournament_format is None:
            return None
        found = self._formats.get(self._format_key(tournament_format, self.checker(deck.game)))
        return None if found is None else found.in_force(self.as_of)

    def _format_of_another_game(self, tournament_format: Any, load_format: Any, game_id: str) -> bool:
        """Tell whether a named format belongs to another known game (its card database folder has it)."""
        for other in self.games.values():
            if other.id == game_id:
                continue
            try:
                load_format(tournament_format, other.folder)
            except DataError:
                continue
            return True
        return False

    @staticmethod
    def _format_key(tournament_format: Any, checker: Checker) -> tuple[str, str]:
        name = str(tournament_format) if isinstance(tournament_format, (str, Path)) else f"obj:{id(tournament_format)}"
        return (name, str(checker.catalog.folder))

    def _format_violations(self, tournament_format: Any, explicit: bool, deck: Decklist, checker: Checker,
                           resolved: list[Any]) -> list[Problem]:
        # deferred: start-up time of the runs whose decks name no tournament format (every goldfish run)
        from sengoku.formats.legality import format_violations
        from sengoku.formats.load import load_format

        pos = deck.positions.get("format", (None, None))
        key = self._format_key(tournament_format, checker)
        if key not in self._formats:
            if isinstance(tournament_format, (str, Path)):
                try:
                    # a decklist's own `format` key is a name, never a path (the file is a stranger's)
                    self._formats[key] = load_format(tournament_format, checker.catalog.folder, name_only=not explicit)
                except DataError as exc:
                    if explicit and self._format_of_another_game(tournament_format, load_format, deck.game):
                        self._formats[key] = None  # a --format for one game leaves the other games' decks alone
                    elif explicit:
                        raise
                    else:
                        return [Problem(FORMAT_UNKNOWN, "error", f"format {tournament_format!r}: {exc.message}",
                                          pos[0], pos[1])]
            else:
                self._formats[key] = tournament_format
        if explicit and getattr(self._formats[key], "game", deck.game) != deck.game:
            self._formats[key] = None
        if self._formats[key] is None:
            return []
        try:
            return list(format_violations(self._formats[key], resolved, checker.catalog.cards, self.as_of))
        except DataError as exc:  # e.g. no list of the format in force on --as-of
            if explicit:
                raise
            return [Problem(FORMAT_UNKNOWN, "error", f"format {tournament_format!r}: {exc.message}",
                              pos[0], pos[1])]

    def validate_file(self, path: Path | str) -> ValidationResult:
        """Read and check one decklist file; a file that cannot be read becomes a `syntax` result."""
        try:
            deck, syntax = read_decklist(path, self.games)
        except DataError as exc:
            return _unreadable(path, exc.message, exc.line, exc.column)
        if syntax and syntax[0].rule == NOT_A_DECKLIST:
            return ValidationResult(path=display_path(path), skipped=syntax[0].message)
        if syntax and deck.game not in self.games:
            return ValidationResult(path=str(path), violations=syntax, game=deck.game)
        return self.validate_deck(deck, syntax)


def _unreadable(path: Path | str, message: str, line: int | None = None,
                column: int | None = None) -> ValidationResult:
    """The result of a file that cannot be read at all: reported with the others, exit 2."""
    return ValidationResult(path=display_path(path), unreadable=True,
                            violations=[Problem("syntax", "error", message, line, column)])


class RunTally:
    """What a run keeps of its files as they go by: the totals and the card databases, no results."""

    def __init__(self, strict: bool = False):
        self.strict = strict
        self.files = self.passed = self.errors = self.warnings = 0
        self.unreadable = False
        self._dbs: dict[str, dict[str, str | None]] = {}

    def add(self, result: ValidationResult) -> None:
        self.files += 1
        self.passed += result.passed(self.strict)
        self.errors += len(result.errors)
        self.warnings += len(result.warnings)
        self.unreadable = self.unreadable or result.unreadable
        if result.db_hash is not None and result.db_hash not in self._dbs:
            self._dbs[result.db_hash] = {"game": result.game, "name": result.db_name, "version": result.db_version,
                                         "hash": result.db_hash}

    @property
    def ok(self) -> bool:
        """True when every file passed (warnings fail only under `strict`)."""
        return self.passed == self.files

    @property
    def exit_code(self) -> int:
        """0 every file passed, 1 a deck breaks a rule, 2 a file could not be read at all."""
        if self.unreadable:
            return 2
        return 0 if self.ok else 1

    def summary(self) -> dict[str, int]:
        return {"files": self.files, "passed": self.passed, "failed": self.files - self.passed,
                "errors": self.errors, "warnings": self.warnings}

    def card_dbs(self) -> list[dict[str, str | None]]:
        """The card databases the results were checked against (one per game), in order of use."""
        return [dict(db) for db in self._dbs.values()]


@dataclass
class ValidationRun:
    """Every file's result, plus what the run was checked against."""

    results: list[ValidationResult] = field(default_factory=list)
    strict: bool = False
    skipped: list[ValidationResult] = field(default_factory=list)  # TOML files that are not decklists

    def tally(self) -> RunTally:
        """The run's totals, as a streamed run keeps them."""
        tally = RunTally(self.strict)
        for result in self.results:
            tally.add(result)
        return tally

    @property
    def ok(self) -> bool:
        """True when every file passed (warnings fail only under `strict`)."""
        return self.tally().ok

    @property
    def exit_code(self) -> int:
        """0 every file passed, 1 a deck breaks a rule, 2 a file could not be read at all."""
        return self.tally().exit_code

    def summary(self) -> dict[str, int]:
        return self.tally().summary()

    def card_dbs(self) -> list[dict[str, str | None]]:
        """The card databases the results were checked against (one per game), in order of use."""
        return self.tally().card_dbs()


def expand_paths(paths: Iterable[Path | str]) -> list[Found]:
    """Return the decklist files named: files as given, folders as every `*.toml` below, sorted.

    Entries of a folder that cannot be read come back with their reason (`Found.problem`).
    Raise DataError naming every path that does not exist or folder that holds no decklist.
    """
    return find_tomls(paths)


def validate_deck(deck: Decklist, db: DbArg = None, format: Any = None,
                  as_of: dt.date | str | None = None) -> ValidationResult:
    """Check a decklist against its game's rules and a card database (default: the bundled one)."""
    return _validator(db, format, as_of).validate_deck(deck)


def validate_file(path: Path | str, db: DbArg = None, format: Any = None,
                  as_of: dt.date | str | None = None) -> ValidationResult:
    """Read and check one decklist file; problems reading it are `syntax` violations."""
    return _validator(db, format, as_of).validate_file(path)


def validate_paths(paths: Iterable[Path | str], db: DbArg = None, format: Any = None,
                   as_of: dt.date | str | None = None, strict: bool = False) -> ValidationRun:
    """Check every decklist named (folders: every `*.toml` below, sorted); one result per file.

    A TOML file that is not a decklist at all (`decklist.read.not_a_decklist`) is not checked:
    it goes to `run.skipped`, with the reason as its `skipped`.

    Raise DataError when a path does not exist or a folder holds no `*.toml` (a usage error).
    """
    checked = list(iter_paths(paths, db=db, format=format, as_of=as_of))
    return ValidationRun([r for r in checked if r.skipped is None], strict=strict,
                         skipped=[r for r in checked if r.skipped is not None])


def iter_paths(paths: Iterable[Path | str], db: DbArg = None, format: Any = None,
               as_of: dt.date | str | None = None) -> Iterator[ValidationResult]:
    """Yield the result of every decklist named, one at a time, in `validate_paths`'s order
    (skipped files too, with their `skipped` reason), so that a run of any size holds one at once.

    The paths are searched and the card database opened before this returns: a path that does
    not exist or a database that cannot be used raises DataError here, before any file is read.
    """
    files = expand_paths(paths)
    validator = Validator(db, format, as_of)
    return (validator.validate_file(f.path) if f.problem is None else _unreadable(f.path, f.problem)
            for f in files)


_VALIDATORS: dict[tuple[Any, ...], tuple[Any, Validator]] = {}


def _validator(db: DbArg, format: Any, as_of: dt.date | str | None) -> Validator:
    """Reuse a Validator for repeated calls with the same arguments (the API's hot path)."""
    key = (id(db) if not isinstance(db, (str, Path, type(None))) else db,
           id(format) if not isinstance(format, (str, Path, type(None))) else format, str(as_of),
           os.environ.get(DB_ENV))
    hit = _VALIDATORS.get(key)
    if hit is None:
        if len(_VALIDATORS) > 32:
            _VALIDATORS.clear()
        hit = _VALIDATORS[key] = ((db, format), Validator(db, format, as_of))  # keep db alive: ids stay unique
    return hit[1]

