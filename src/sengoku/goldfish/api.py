"""`goldfish()`: validate a deck, compile it for the engine, play many games, summarise them.

The data flows one way: decklist + card DB -> validation -> engine tables -> games -> integer
tallies -> `GoldfishResult`. Nothing here prints; the CLI and reporters do.

The card database is read as its checked plain rows (`carddb.catalog.Catalog`, loaded by
`carddb.playable.load_cards`), the form the validator reads too: the engine's tables are
compiled from them, and no pydantic model is built (pydantic's import and the models are a third
of a short run's start-up).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from pathlib import Path
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sengoku.carddb.catalog import Catalog
from sengoku.carddb.names import fold
from sengoku.carddb.playable import load_cards
from sengoku.decklist.model import Decklist
from sengoku.decklist.read import read_decklist
from sengoku.engine import MEASURES, POLICIES, choose_commander, compile_deck
from sengoku.errors import DataError
from sengoku.games import DEFAULT_GAME, bundled_games
from sengoku.goldfish.errors import EngineOptionError, GoldfishError, InvalidDeckError
from sengoku.goldfish.statistics.hand import CardFacts, OpeningHandModel
from sengoku.goldfish.statistics.kill_turn import MIRROR, kill_turn_sums, kill_turn_summary
from sengoku.goldfish.options import DEFAULT_RUNS, DEFAULT_TURNS, GOINGS, MAX_TURNS, MODES
from sengoku.goldfish.other_games import opening_hand_report
from sengoku.goldfish.result import GoldfishResult
from sengoku.goldfish.play.rounds import Rounds, play_rounds
from sengoku.goldfish.play.seeds import DEFAULT_SEED
from sengoku.goldfish.play.simulate import Plan, Tally, default_jobs, play_all
from sengoku.goldfish.statistics.stats import first_turn_distribution
from sengoku.goldfish.wants import Want, resolve_wants
from sengoku.paths import data_dir
from sengoku.validate.api import Validator
from sengoku.validate.result import ValidationResult

if TYPE_CHECKING:
    from sengoku.carddb.models import CardDatabase

__all__ = ["EngineOptionError", "GoldfishError", "InvalidDeckError", "goldfish"]


def default_decklist() -> Path:
    """Return the bundled default decklist (`sengoku goldfish` with no DECK)."""

    return data_dir("decklists") / "default.toml"


def read_deck(deck: Decklist | Path | str | None) -> tuple[Decklist, list[Any]]:
    """Return a deck to goldfish (None: the bundled default deck) and its syntax problems."""

    if deck is None:
        deck = default_decklist()
    if isinstance(deck, Decklist):
        return deck, []
    return read_decklist(deck)


def goldfish_kind(game_id: str) -> str:
    """What goldfishing a deck of this game does: "engine", "opening-hand" or "none" (the registry's answer).

    A game sengoku does not know takes the engine path, whose validation names the problem.
    """
    game = bundled_games().get(game_id)
    return game.goldfish if game is not None else "engine"


def validate(deck: Decklist | Path | str | None, db: CardDatabase | Catalog, mode: str | None = None,
             syntax: list[Any] | None = None, role: str = "deck") -> tuple[Decklist, ValidationResult]:
    """Read (if a path) and validate a deck under `mode` (None: the decklist's own mode).

    A file that cannot be read at all raises DataError (exit 2); a malformed or rule-breaking
    deck raises `InvalidDeckError` carrying the validator's result (exit 1). `role` names the
    deck in messages ("deck", or "opponent" for the opponent's deck).
    """

    if syntax is None:
        deck, syntax = read_deck(deck)
    if goldfish_kind(deck.game) != "engine":
        raise GoldfishError(f"{deck.path or 'the ' + role + ' deck'}: goldfish simulates SENGOKU YUGI decks "
                            f"({DEFAULT_GAME!r}), not {deck.game!r}")
    if mode is not None and mode != deck.mode:
        deck = dataclasses.replace(deck, mode=mode)  # validate under the mode we will play (D5-D7)
    result = Validator(db).validate_deck(deck, syntax)
    if not result.valid:
        raise InvalidDeckError(result, role)
    return deck, result


def check_options(runs: int, turns: int, going: str, policy: str, mode: str | None, jobs: int,
                  precision: float | None = None) -> None:
    """Refuse unusable engine options with a `GoldfishError` (exit 2)."""
    if runs < 1:
        raise GoldfishError(f"runs must be at least 1, not {runs}")
    if not 1 <= turns <= MAX_TURNS:
        raise GoldfishError(f"turns must be between 1 and {MAX_TURNS}, not {turns}")
    if going not in GOINGS:
        raise GoldfishError(f"going must be 'first' or 'second', not {going!r}")
    if policy not in POLICIES:
        raise GoldfishError(f"unknown policy {policy!r} (known: {', '.join(POLICIES)})")
    if mode is not None and mode not in MODES:
        raise GoldfishError(f"mode must be 'standard' or 'ultimate', not {mode!r}")
    if jobs < 1:
        raise GoldfishError(f"jobs must be at least 1, not {jobs}")
    if precision is not None and not (precision > 0 and math.isfinite(precision)):
        raise GoldfishError(f"precision must be a positive number of turns, not {precision}")


def engine_options(runs: int, turns: int | None, policy: str | None, going: str | None, mode: str | None,
                   jobs: int | None, precision: float | None = None) -> tuple[int, str, str, int]:
    """Fill in the engine options `goldfish()` leaves to None and refuse unusable ones (`check_options`).

    Return (turns, policy, going, jobs): default 8 turns, "greedy", going "first", all cores.
    """
    turns = DEFAULT_TURNS if turns is None else turns
    policy, going = policy or "greedy", going or "first"
    jobs = default_jobs() if jobs is None else jobs
    check_options(runs, turns, going, policy, mode, jobs, precision)
    return turns, policy, going, jobs


def goldfish(
    deck: Decklist | Path | str | None = None,
    db: CardDatabase | Path | str | None = None,
    *,
    runs: int = DEFAULT_RUNS,
    turns: int | None = None,
    seed: int = DEFAULT_SEED,
    policy: str | None = None,
    going: str | None = None,
    commander: str | None = None,
    mode: str | None = None,
    jobs: int | None = None,
    wants: Iterable[Want | str] = (),
    progress: Callable[[int], None] | None = None,
    opponent: Decklist | Path | str | None = None,
    opponent_defends: bool | None = None,
    play_on: bool | None = None,
    precision: float | None = None,
    kill_turns: bool = False,
) -> GoldfishResult | dict[str, Any]:
    """Goldfish a deck the way its game allows (the game registry says which).

    A SENGOKU YUGI deck plays `runs` seeded games of `turns` turns (default 8) on the rules
    engine, `policy` (default "greedy") choosing, going `going` (default "first"), in `jobs`
    processes (default: all cores, as `sengoku goldfish`; the result is the same for any
    `jobs`), and returns a `GoldfishResult`. The opponent (G4) plays `opponent` (a `Decklist`
    or a path, validated like the deck under the mode played; default: a mirror of the deck),
    and adds its Commander's ATK and self-boosts only with `opponent_defends`. A game stops at
    the end of the turn it is won (G5) unless `play_on`; `result.kill_turn` says when games
    were won. A deck of another game gets its opening-hand report
    (`goldfish.other_games.opening_hand_report`, a dict); the engine's options (turns, going,
    policy, commander, mode, jobs, opponent, opponent_defends, play_on) are refused for it with
    `EngineOptionError`, and a game that deals no opening hand raises `NoOpeningHandError`.

    With `precision` (turns), games are played in rounds (`goldfish.rounds`) until the 95%
    interval of the mean kill turn over every game (`kill_turn["mean_all_games"]`, a game never
    won counting as turns + 1) is at most ± `precision`, or `runs` are played; `result.runs`
    says how many were, `result.precision` how it went (same for any `jobs`).

    With `kill_turns`, `result.run_kill_turns` holds each run's kill turn in run order (0: not won),
    from which `sengoku.trace.pick_run` picks the fastest, median or slowest game to trace.

    `deck` is a `Decklist`, a decklist path, or None (the bundled default deck); `db` a card
    database or a path, or None (the game's default database). `wants` are 'NAME[:N]' strings or
    `Want`s. Raise `InvalidDeckError` (with `.validation`) for a deck breaking the rules and
    another `SengokuError` for unusable options. Same inputs and seed -> same result, for any
    `jobs`.
    """
    decklist, syntax = read_deck(deck)
    if goldfish_kind(decklist.game) != "engine":
        engine_options = {"turns": turns, "going": going, "policy": policy, "commander": commander,
                          "mode": mode, "jobs": jobs, "opponent": opponent,
                          "opponent_defends": opponent_defends, "play_on": play_on, "precision": precision}
        given = [name for name, value in engine_options.items() if value is not None]
        if given:
            raise EngineOptionError(given[0], decklist.game)
        return opening_hand_report(decklist, db, runs=runs, seed=seed, wants=wants)
    return _goldfish_engine(decklist, syntax, db, runs=runs, seed=seed, wants=wants, progress=progress,
                            turns=turns, policy=policy, going=going, commander=commander, mode=mode, jobs=jobs,
                            opponent=opponent, opponent_defends=bool(opponent_defends), play_on=bool(play_on),
                            precision=precision, kill_turns=kill_turns)


@dataclass
class EngineSetup:
    """A validated, compiled deck ready to play: its `Plan` and what its result reports beside the tallies."""

    plan: Plan
    hand: OpeningHandModel
    decklist: Decklist
    validation: ValidationResult
    card_db: Catalog  # the cards as checked plain rows
    commander: dict[str, Any]
    opponent: dict[str, Any]
    going: str


def prepare_engine(decklist: Decklist, syntax: list[Any], card_db: CardDatabase | Catalog, *, turns: int, seed: int,
                   policy: str, going: str, commander: str | None, mode: str | None, wants: Iterable[Want | str],
                   opponent: Decklist | Path | str | None, opponent_defends: bool, play_on: bool,
                   role: str = "deck", kill_turns: bool = False) -> EngineSetup:
    """Validate a SENGOKU YUGI deck (and its opponent), compile both and build the `Plan` of its games.

    `card_db` is the cards' plain rows (`load_cards`) or a loaded `CardDatabase` (read as its rows).
    """
    card_db = load_cards(card_db)
    decklist, validation = validate(decklist, card_db, mode, syntax, role=role)
    mode = validation.mode
    sections = validation.sections
    characters = {cid: c for cid, c in card_db.cards.items() if c["kind"] != "familiar"}
    wanted = resolve_wants(wants, (c["name"] for c in characters.values()))

    tables = compile_deck(card_db, sections, mode=mode)
    opponent_tables = None  # G4: a mirror of the deck
    opponent_info: dict[str, Any] = {"deck": MIRROR, "name": decklist.name, "defends": opponent_defends}
    if opponent is not None:  # validated as the deck is, under the mode played (exit 1 when invalid)
        opp_decklist, opp_validation = validate(opponent, card_db, mode, role="opponent")
        opponent_tables = compile_deck(card_db, opp_validation.sections, mode=mode)
        # G7: the cards this deck has instead of the opponent's take their places in the shuffle,
        # so `compare A B` (whose decks all meet A) and `goldfish B --opponent A` pair B with A.
        tables.pair_with(opponent_tables)
        opponent_info = {"deck": opp_validation.path or opp_decklist.name or "deck", "name": opp_decklist.name,
                         "defends": opponent_defends}
    if commander is not None:  # the name as a decklist would read it (case, full-width forms, spaces)

        in_deck = {fold(characters[cid]["name"]): characters[cid]["name"]
                   for cid in sections.get("main", {}) if cid in characters}
        commander = in_deck.get(fold(commander), commander)
    cmd = choose_commander(tables, name=commander)  # S1
    cmd_id = tables.card_id[cmd]
    cmd_card = characters[cmd_id]

    # The exact side counts from the validated deck itself, not from the engine's tables.
    facts = {cid: CardFacts(cid, c["name"], int(c["level"]), int(c["charge_value"]), int(c["deployment_cost"]))
             for cid, c in characters.items()}
    stronghold = dict(sections.get("main", {}))
    stronghold[cmd_id] -= 1  # S1: the Commander leaves the Character Deck
    nameless = [characters[cid]["name"] for cid in sections.get("nameless", {}) if cid in characters]
    hand = OpeningHandModel(facts, stronghold, facts[cmd_id], going == "first", wanted, nameless)

    plan = Plan(tables=tables, commander=cmd, policy=policy, turns=turns, going_first=going == "first",
                seed=seed, packed=hand.packed_table(tables.card_id), measures=tuple(MEASURES),
                opponent=opponent_tables, opponent_defends=opponent_defends, play_on=play_on,
                kill_turns=kill_turns)
    return EngineSetup(plan, hand, decklist, validation, card_db,
                       {"id": cmd_id, "name": cmd_card["name"], "epithet": cmd_card["epithet"],
                        "chosen": "named" if commander else "S1"}, opponent_info, going)


def engine_result(setup: EngineSetup, tally: Tally, precision: Rounds | None = None) -> GoldfishResult:
    """Summarise a deck's tallied games as its `GoldfishResult`."""
    plan, card_db, turns = setup.plan, setup.card_db, setup.plan.turns
    return GoldfishResult(
        runs=tally.runs,
        turns=turns,
        seed=plan.seed,
        going=setup.going,
        policy=plan.policy,
        mode=setup.validation.mode,
        commander=setup.commander,
        deck=_deck_info(setup.decklist.name, setup.validation, setup.hand.deck_size, setup.card_db),
        card_db={"name": card_db.name, "version": card_db.version,
                 "sha256": card_db.content_hash, "sample": card_db.sample},
        opening_hand=setup.hand.summarise(tally.hands, tally.runs),
        curve=tally.curve.curve(),
        first_level3=first_turn_distribution(tally.first_level3, turns, tally.runs),
        first_level4=first_turn_distribution(tally.first_level4, turns, tally.runs),
        skipped_abilities={"total": tally.skipped_abilities,
                           "per_game": round(tally.skipped_abilities / tally.runs, 4)},
        kill_turn=kill_turn_summary(tally.kill_turn, turns, tally.runs, setup.opponent),
        play_on=plan.play_on,
        measures=plan.measures,
        precision=precision.to_dict() if precision is not None else None,
        run_kill_turns=tally.per_run,
    )


def _goldfish_engine(decklist: Decklist, syntax: list[Any], db: CardDatabase | Path | str | None, *,
                     runs: int, turns: int | None, seed: int, policy: str | None, going: str | None,
                     commander: str | None, mode: str | None, jobs: int | None, wants: Iterable[Want | str],
                     progress: Callable[[int], None] | None, opponent: Decklist | Path | str | None,
                     opponent_defends: bool, play_on: bool, precision: float | None,
                     kill_turns: bool = False) -> GoldfishResult:
    """Play a SENGOKU YUGI deck's games on the rules engine and summarise them (see `goldfish`)."""
    turns, policy, going, jobs = engine_options(runs, turns, policy, going, mode, jobs, precision)
    setup = prepare_engine(decklist, syntax, load_cards(db), turns=turns, seed=seed, policy=policy, going=going,
                           commander=commander, mode=mode, wants=wants, opponent=opponent,
                           opponent_defends=opponent_defends, play_on=play_on, kill_turns=kill_turns)
    plan = setup.plan
    tally = Tally(plan.measures, plan.turns, plan.kill_turns)
    if precision is None:
        return engine_result(setup, play_all(plan, runs, jobs, progress, total=tally))
    rounds = play_rounds(runs, precision, lambda a, b: play_all(plan, b - a, jobs, progress, a, tally),
                         lambda: kill_turn_sums(tally.kill_turn, plan.turns).half_width())
    return engine_result(setup, tally, rounds)


def _deck_info(name: str | None, validation: ValidationResult, stronghold_cards: int,
               card_db: Catalog) -> dict[str, Any]:
    main = sum(validation.sections.get("main", {}).values())
    cards = {cid: card_db.cards[cid] for counts in validation.sections.values() for cid in counts}
    # The cards by section, so a report (or `--html`) shows the very deck that was played. Sorted
    # by level, name and id, not the file's order: the same deck reads the same however written.
    sections = {
        section: [{"id": cid, "name": cards[cid]["name"], "level": int(cards[cid]["level"]), "count": count}
                  for cid, count in sorted(counts.items(),
                                           key=lambda kv: (int(cards[kv[0]]["level"]), cards[kv[0]]["name"], kv[0]))]
        for section, counts in validation.sections.items() if counts
    }
    return {
        "name": name,
        "path": validation.path,
        "main_cards": main,
        "nameless_cards": sum(validation.sections.get("nameless", {}).values()),
        "familiar_cards": sum(validation.sections.get("familiars", {}).values()),
        "stronghold_cards": stronghold_cards,
        "sections": sections,
    }
