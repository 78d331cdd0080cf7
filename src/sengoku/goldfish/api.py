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
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sengoku.carddb.catalog import Catalog
from sengoku.carddb.names import fold
from sengoku.carddb.playable import load_cards
from sengoku.decklist.model import Decklist
from sengoku.decklist.read import read_decklist
from sengoku.engine import MEASURES, choose_commander, compile_deck
from sengoku.errors import DataError
from sengoku.games import DEFAULT_GAME, bundled_games
from sengoku.goldfish.errors import EngineOptionError, GoldfishError, InvalidDeckError
from sengoku.goldfish.statistics.hand import CardFacts, OpeningHandModel
from sengoku.goldfish.statistics.kill_turn import MIRROR, kill_turn_sums, kill_turn_summary
from sengoku.goldfish.options import DEFAULT_RUNS, DEFAULT_SEED, PlayOptions, PolicySpec
from sengoku.goldfish.other_games import opening_hand_report
from sengoku.goldfish.result import GoldfishResult
from sengoku.goldfish.play.rounds import Rounds, play_rounds
from sengoku.goldfish.play.simulate import Plan, Tally, play_all
from sengoku.goldfish.play.traced import TracedRun, parse_run, replay_run
from sengoku.goldfish.player_check import PlayerCheck, check_deals
from sengoku.goldfish.player_check import check_player as play_check
from sengoku.goldfish.statistics.stats import first_turn_distribution
from sengoku.goldfish.wants import Want, resolve_wants
from sengoku.paths import data_dir
from sengoku.validate.api import Validator
from sengoku.validate.result import ValidationResult

if TYPE_CHECKING:
    from sengoku.carddb.models import CardDatabase

__all__ = ["EngineOptionError", "GoldfishError", "InvalidDeckError", "PlayOptions", "PolicySpec", "goldfish"]


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


def check_runs(runs: int, precision: float | None = None) -> None:
    """Refuse an unusable run count or precision with a `GoldfishError` (exit 2)."""
    if runs < 1:
        raise GoldfishError(f"runs must be at least 1, not {runs}")
    if precision is not None and not (precision > 0 and math.isfinite(precision)):
        raise GoldfishError(f"precision must be a positive number of turns, not {precision}")


def goldfish(
    deck: Decklist | Path | str | None = None,
    db: CardDatabase | Path | str | None = None,
    *,
    runs: int = DEFAULT_RUNS,
    options: PlayOptions | None = None,
    wants: Iterable[Want | str] = (),
    progress: Callable[[int], None] | None = None,
    precision: float | None = None,
    kill_turns: bool = False,
    traces: Sequence[int | str] = (),
    check_player: int | None = None,
    **option_values: Any,
) -> GoldfishResult | dict[str, Any]:
    """Goldfish a deck the way its game allows (the game registry says which).

    `options` is a `PlayOptions` record; its fields may also be given as keyword arguments
    (`turns`, `seed`, `going`, `policy`, `commander`, `mode`, `jobs`, `opponent`,
    `opponent_defends`, `play_on`), which change the record's (None: unchanged).

    A SENGOKU YUGI deck plays `runs` seeded games of `turns` turns (default 8) on the rules
    engine, `policy` (a name or a `PolicySpec`; default "greedy") choosing, going `going`
    (default "first"), in `jobs` processes (default: all cores, as `sengoku goldfish`; the result
    is the same for any `jobs`), and returns a `GoldfishResult`. The opponent (G4) plays
    `opponent` (a `Decklist` or a path, validated like the deck under the mode played; default: a
    mirror of the deck), and adds its Commander's ATK and self-boosts only with
    `opponent_defends`. A game stops at the end of the turn it is won (G5) unless `play_on`;
    `result.kill_turn` says when games were won. A deck of another game gets its opening-hand
    report (`goldfish.other_games.opening_hand_report`, a dict); the engine's options are refused
    for it with `EngineOptionError`, and a game that deals no opening hand raises
    `NoOpeningHandError`.

    With `precision` (turns), games are played in rounds (`goldfish.rounds`) until the 95%
    interval of the mean kill turn over every game (`kill_turn["mean_all_games"]`, a game never
    won counting as turns + 1) is at most ± `precision`, or `runs` are played; `result.runs`
    says how many were, `result.precision` how it went (same for any `jobs`).

    With `kill_turns`, `result.run_kill_turns` holds each run's kill turn in run order (0: not won).
    `traces` (run indices, or "fastest", "median", "slowest") are played again with their events
    recorded: `result.traced` holds them (`sengoku.trace.Trace.of` shows one), from the same
    validated and compiled deck.

    With `check_player` (N deals, at most `runs`), the first N deals of the run are played again
    with the `search` policy, and `result.check_player` (a `goldfish.player_check.PlayerCheck`)
    holds the paired gap of the kill turn, policy minus search, with its 95% interval and a
    verdict against G6's 0.1 turns: how far the player is from a search on this deck. With
    `precision`, the check plays at most the runs played. `progress` counts its deals after the runs.

    `deck` is a `Decklist`, a decklist path, or None (the bundled default deck); `db` a card
    database or a path, or None (the game's default database). `wants` are 'NAME[:N]' strings or
    `Want`s. Raise `InvalidDeckError` (with `.validation`) for a deck breaking the rules and
    another `SengokuError` for unusable options. Same inputs and seed -> same result, for any
    `jobs`.
    """
    PlayOptions.check_names(option_values)
    decklist, syntax = read_deck(deck)
    if goldfish_kind(decklist.game) != "engine":
        given = [name for name, value in option_values.items() if value is not None and name != "seed"]
        given += options.engine_given() if options is not None else []
        given += ["precision"] if precision is not None else []
        given += ["check_player"] if check_player is not None else []
        if given:
            raise EngineOptionError(given[0], decklist.game)
        seed = option_values.get("seed")
        seed = seed if seed is not None else options.seed if options is not None else DEFAULT_SEED
        return opening_hand_report(decklist, db, runs=runs, seed=seed, wants=wants)
    played = PlayOptions.given(options, **option_values)
    return _goldfish_engine(decklist, syntax, db, runs, played, wants=wants, progress=progress,
                            precision=precision, kill_turns=kill_turns, traces=traces, check_player=check_player)


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

    @property
    def options(self) -> PlayOptions:
        return self.plan.options

    @property
    def deck_label(self) -> str:
        """The deck as a trace names it: its name, else its path."""
        return self.decklist.name or self.validation.path or "deck"


def prepare_engine(decklist: Decklist, syntax: list[Any], card_db: CardDatabase | Catalog, options: PlayOptions, *,
                   wants: Iterable[Want | str] = (), role: str = "deck", kill_turns: bool = False) -> EngineSetup:
    """Validate a SENGOKU YUGI deck (and its opponent), compile both and build the `Plan` of its games.

    `card_db` is the cards' plain rows (`load_cards`) or a loaded `CardDatabase` (read as its rows).
    The plan's options hold the mode played (the decklist's own when `options.mode` is None).
    """
    card_db = load_cards(card_db)
    decklist, validation = validate(decklist, card_db, options.mode, syntax, role=role)
    mode = validation.mode
    options = dataclasses.replace(options, mode=mode)
    sections = validation.sections
    characters = {cid: c for cid, c in card_db.cards.items() if c["kind"] != "familiar"}
    wanted = resolve_wants(wants, (c["name"] for c in characters.values()))

    tables = compile_deck(card_db, sections, mode=mode)
    opponent_tables = None  # G4: a mirror of the deck
    defends = options.opponent_defends
    opponent_info: dict[str, Any] = {"deck": MIRROR, "name": decklist.name, "defends": defends}
    if options.opponent is not None:  # validated as the deck is, under the mode played (exit 1 when invalid)
        opp_decklist, opp_validation = validate(options.opponent, card_db, mode, role="opponent")
        opponent_tables = compile_deck(card_db, opp_validation.sections, mode=mode)
        # G7: the cards this deck has instead of the opponent's take their places in the shuffle,
        # so `compare A B` (whose decks all meet A) and `goldfish B --opponent A` pair B with A.
        tables.pair_with(opponent_tables)
        opponent_info = {"deck": opp_validation.path or opp_decklist.name or "deck", "name": opp_decklist.name,
                         "defends": defends}
    commander = options.commander
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
    hand = OpeningHandModel(facts, stronghold, facts[cmd_id], options.going_first, wanted, nameless)

    plan = Plan(tables=tables, commander=cmd, options=options, packed=hand.packed_table(tables.card_id),
                measures=tuple(MEASURES), opponent=opponent_tables, kill_turns=kill_turns)
    return EngineSetup(plan, hand, decklist, validation, card_db,
                       {"id": cmd_id, "name": cmd_card["name"], "epithet": cmd_card["epithet"],
                        "chosen": "named" if commander else "S1"}, opponent_info)


def plan_of(deck: Decklist | Path | str | None, db: CardDatabase | Catalog | Path | str | None = None,
            options: PlayOptions | None = None) -> Plan:
    """Return the `Plan` of a SENGOKU YUGI deck's games under `options` (validated and compiled as `goldfish()` does).

    What a script that looks at games one by one (`simulate.play_runs`) plays from.
    """
    decklist, syntax = read_deck(deck)
    return prepare_engine(decklist, syntax, load_cards(db), options or PlayOptions()).plan


def engine_result(setup: EngineSetup, tally: Tally, precision: Rounds | None = None,
                  traced: Sequence[TracedRun] = (), check: PlayerCheck | None = None) -> GoldfishResult:
    """Summarise a deck's tallied games as its `GoldfishResult`."""
    card_db, options = setup.card_db, setup.options
    turns = options.turns
    return GoldfishResult(
        runs=tally.runs,
        turns=turns,
        seed=options.seed,
        going=options.going,
        policy=str(options.policy),
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
        play_on=options.play_on,
        measures=setup.plan.measures,
        precision=precision.to_dict() if precision is not None else None,
        run_kill_turns=tally.per_run,
        options=options,
        traced=tuple(traced),
        check_player=check,
    )


def _goldfish_engine(decklist: Decklist, syntax: list[Any], db: CardDatabase | Path | str | None, runs: int,
                     options: PlayOptions, *, wants: Iterable[Want | str], progress: Callable[[int], None] | None,
                     precision: float | None, kill_turns: bool = False,
                     traces: Sequence[int | str] = (), check_player: int | None = None) -> GoldfishResult:
    """Play a SENGOKU YUGI deck's games on the rules engine and summarise them (see `goldfish`)."""
    check_runs(runs, precision)
    if check_player is not None:
        check_deals(check_player, runs, options.policy)
    picks = [parse_run(t) for t in traces]
    setup = prepare_engine(decklist, syntax, load_cards(db), options, wants=wants,
                           kill_turns=kill_turns or check_player is not None or any(isinstance(p, str) for p in picks))
    plan, jobs = setup.plan, options.workers
    tally = Tally(plan.measures, plan.options.turns, plan.kill_turns)
    rounds = None
    if precision is None:
        play_all(plan, runs, jobs, progress, total=tally)
    else:
        rounds = play_rounds(runs, precision, lambda a, b: play_all(plan, b - a, jobs, progress, a, tally),
                             lambda: kill_turn_sums(tally.kill_turn, plan.options.turns).half_width())
    traced = [replay_run(plan, p, tally.runs, setup.deck_label, setup.opponent, tally.per_run) for p in picks]
    check = None
    if check_player is not None and tally.per_run is not None:
        played = tally.runs
        check = play_check(plan, tally.per_run, min(check_player, played), jobs,
                           None if progress is None else lambda done: progress(played + done))
    if not kill_turns:
        tally.per_run = None
    return engine_result(setup, tally, rounds, traced, check)


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
