"""sengoku: decklist validation and goldfish simulation for SENGOKU YUGI.

The public API is re-exported here and imported lazily, so that `import sengoku` (and the
CLI's start-up) stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from sengoku.version import __version__

# name -> "module:attribute"; resolved on first access (PEP 562).
_API = {
    "SengokuError": "sengoku.errors:SengokuError",
    "DataError": "sengoku.errors:DataError",
    "load_card_db": "sengoku.carddb.load:load_card_db",
    "check_card_db": "sengoku.db_check:check_card_db",
    "CardDatabase": "sengoku.carddb.models:CardDatabase",
    "load_board": "sengoku.carddb.board:load_board",
    "Board": "sengoku.carddb.board:Board",
    "CardQuery": "sengoku.carddb.query:CardQuery",
    "find_cards": "sengoku.carddb.query:find_cards",
    "load_decklist": "sengoku.decklist.read:load_decklist",
    "read_decklist": "sengoku.decklist.read:read_decklist",
    "DecklistSyntaxError": "sengoku.decklist.read:DecklistSyntaxError",
    "Decklist": "sengoku.decklist.model:Decklist",
    "DeckEntry": "sengoku.decklist.model:DeckEntry",
    "validate_deck": "sengoku.validate.api:validate_deck",
    "validate_file": "sengoku.validate.api:validate_file",
    "validate_paths": "sengoku.validate.api:validate_paths",
    "ValidationResult": "sengoku.validate.result:ValidationResult",
    "ValidationRun": "sengoku.validate.api:ValidationRun",
    "Problem": "sengoku.problems:Problem",
    "Format": "sengoku.formats.model:Format",
    "FormatError": "sengoku.formats.model:FormatError",
    "load_format": "sengoku.formats.load:load_format",
    "list_formats": "sengoku.formats.load:list_formats",
    "format_violations": "sengoku.formats.legality:format_violations",
    "check_format_files": "sengoku.formats.file_check:check_format_files",
    "fmt_decklist": "sengoku.decklist.fmt:fmt_decklist",
    "canonical_decklist": "sengoku.decklist.fmt:canonical_decklist",
    "import_text": "sengoku.decklist.text_import:import_text",
    "goldfish": "sengoku.goldfish",  # the package, callable as goldfish() (see sengoku.goldfish)
    "compare": "sengoku.goldfish.compare:compare",
    "CompareResult": "sengoku.goldfish.compare_result:CompareResult",
    "CompareError": "sengoku.goldfish.compare:CompareError",
    "engine_build": "sengoku.build:engine_build",
    "GoldfishResult": "sengoku.goldfish.result:GoldfishResult",
    "InvalidDeckError": "sengoku.goldfish.api:InvalidDeckError",
    "PlayOptions": "sengoku.goldfish.options:PlayOptions",  # a simulation's options, one record
    "PolicySpec": "sengoku.goldfish.options:PolicySpec",  # a policy: its name and settings
    "trace_run": "sengoku.trace:trace_run",  # G8: one run of a simulation, step by step
    "Trace": "sengoku.trace:Trace",
    # issue 5: the games beside SENGOKU YUGI
    "list_games": "sengoku.carddb.game_overview:list_games",
    "opening_hand_report": "sengoku.goldfish.other_games:opening_hand_report",
    "NoOpeningHandError": "sengoku.goldfish.other_games:NoOpeningHandError",
    # issue 24: a better deck, one legal card change at a time
    "tune": "sengoku.tune",  # the package, callable as tune() (see sengoku.tune)
    "Tuner": "sengoku.tune.tuner:Tuner",
    "TuneResult": "sengoku.tune.result:TuneResult",
    # issue 37: what each card is worth, one copy fewer on the same deals (G9)
    "impact": "sengoku.impact",  # the package, callable as impact() (see sengoku.impact)
    "ImpactResult": "sengoku.impact.result:ImpactResult",
}

__all__ = ["__version__", *_API]

if TYPE_CHECKING:  # pragma: no cover
    from sengoku.carddb.load import load_card_db
    from sengoku.db_check import check_card_db
    from sengoku.carddb.models import CardDatabase
    from sengoku.errors import DataError, SengokuError


def __getattr__(name: str) -> Any:
    target = _API.get(name)
    if target is None:
        raise AttributeError(f"module 'sengoku' has no attribute {name!r}")
    module_name, _, attr = target.partition(":")
    module = importlib.import_module(module_name)
    value = getattr(module, attr) if attr else module
    globals()[name] = value
    return value
