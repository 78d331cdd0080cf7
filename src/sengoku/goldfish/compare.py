"""`compare()`: which of several decklists is better, and by how much, on the same deals.

Every deck plays the same runs with the same seed, policy, opponent, going and turns; run i of
every deck comes from the same stream (common random numbers, `goldfish.pairs`), so the paired
differences against the first deck (the baseline) are far less noisy than two independent
simulations. Each deck also gets its own `GoldfishResult`, built exactly as `goldfish()` builds
it; `goldfish.differences` turns the paired tallies into rows with 95% intervals and verdicts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sengoku.carddb.playable import load_cards
from sengoku.decklist.model import Decklist
from sengoku.goldfish.api import check_runs, engine_result, prepare_engine, read_deck
from sengoku.goldfish.compare_result import CompareResult
from sengoku.goldfish.statistics.differences import differences
from sengoku.goldfish.errors import GoldfishError
from sengoku.goldfish.statistics.hand import OpeningHandModel
from sengoku.goldfish.options import DEFAULT_RUNS, PlayOptions
from sengoku.goldfish.play.pairs import EventTest, PairPlan, PairTally, play_pairs_chunk
from sengoku.goldfish.play.rounds import play_rounds
from sengoku.goldfish.play.simulate import map_chunks
from sengoku.goldfish.wants import Want

if TYPE_CHECKING:
    from sengoku.carddb.catalog import Catalog
    from sengoku.carddb.models import CardDatabase

__all__ = ["CompareError", "compare"]


class CompareError(GoldfishError):
    """Decks that cannot be compared: fewer than two, or of different games or modes (exit 2)."""


def compare(
    decks: Sequence[Decklist | Path | str],
    db: CardDatabase | Catalog | Path | str | None = None,
    *,
    runs: int = DEFAULT_RUNS,
    options: PlayOptions | None = None,
    precision: float | None = None,
    wants: Iterable[Want | str] = (),
    progress: Callable[[int], None] | None = None,
    **option_values: Any,
) -> CompareResult:
    """Compare SENGOKU YUGI decks on the same `runs` deals; the first deck is the baseline.

    `options` and the keyword options are `goldfish()`'s but `commander` (every deck plays the
    Commander S1 chooses). The opponent (G4) is `opponent` for every deck, by default the
    baseline deck (so every deck meets the same opponent). With `precision` (turns), runs are
    played in rounds until every deck's 95% interval of its mean kill-turn difference is at most
    ± `precision`, or `runs` are played (`result.precision` says how it went). Same inputs ->
    same result for any `jobs`.

    Raise `CompareError` for fewer than two decks or decks of different games or (without
    `mode`) modes, `InvalidDeckError` (with `.validation`) for a deck breaking the rules, and
    another `SengokuError` for unusable options or files.
    """
    if len(decks) < 2:
        raise CompareError(f"compare needs at least two decks, not {len(decks)}")
    PlayOptions.check_names(option_values)
    read = [read_deck(d) for d in decks]
    _same_game_and_mode([dl for dl, _ in read], option_values.get("mode") or (options and options.mode))
    played = PlayOptions.given(options, **option_values)
    if played.commander is not None:
        raise CompareError("compare plays every deck with the Commander its decklist gives it (S1): "
                           "no commander option")
    check_runs(runs, precision)
    jobs = played.workers
    card_db = load_cards(db)
    wants = list(wants)
    setups = []
    for k, (decklist, syntax) in enumerate(read):
        # the same opponent for every deck: `opponent`, else the baseline (a mirror for the baseline itself)
        against = played.opponent if played.opponent is not None or k == 0 else setups[0].decklist
        setups.append(prepare_engine(decklist, syntax, card_db, dataclasses.replace(played, opponent=against),
                                     wants=wants))
    paths = [_name(s.decklist, s.validation.path, k) for k, s in enumerate(setups)]
    events = [ev.key for ev in setups[0].hand.events
              if all(any(e.key == ev.key for e in s.hand.events) for s in setups[1:])]
    pair_plan = PairPlan([s.plan for s in setups], events, [_tests(s.hand, events) for s in setups])

    total = PairTally(pair_plan)

    def play(start: int, stop: int) -> None:
        map_chunks(pair_plan, play_pairs_chunk, total, start, stop, jobs, progress)

    base = setups[0]
    identical = [s.validation.sections == base.validation.sections and s.commander == base.commander
                 for s in setups]

    def widest() -> float | None:
        """The widest half-width of a mean kill-turn difference; None while one is undefined.

        A deck identical to the baseline has its difference, 0, exactly: it waits for no interval.
        """
        widths = [p.kill_sums().half_width() for p, same in zip(total.pairings, identical[1:]) if not same]
        known = [w for w in widths if w is not None]
        return None if len(known) < len(widths) else max(known, default=0.0)

    rounds = None
    if precision is None:
        play(0, runs)
    else:
        rounds = play_rounds(runs, precision, play, widest)
    results = [engine_result(s, tally, rounds) for s, tally in zip(setups, total.tallies)]
    return CompareResult(decks=tuple(results), paths=tuple(paths),
                         differences=tuple(differences(paths, results, total.pairings, identical)),
                         precision=rounds.to_dict() if rounds is not None else None)


def _same_game_and_mode(decklists: list[Decklist], mode: str | None) -> None:
    first = decklists[0]
    for k, other in enumerate(decklists[1:], start=2):
        if other.game != first.game:
            raise CompareError(f"{_name(other, other.path, k - 1)} is a deck of {other.game} and "
                               f"{_name(first, first.path, 0)} one of {first.game}: compare decks of one game")
        if mode is None and other.mode != first.mode:
            raise CompareError(f"{_name(other, other.path, k - 1)} is a deck of {other.mode} mode and "
                               f"{_name(first, first.path, 0)} one of {first.mode} mode: compare decks of "
                               "one mode (or play them all under --mode)")


def _name(decklist: Decklist, path: Any, index: int) -> str:
    return str(path) if path else decklist.name or f"deck {index + 1}"


def _tests(hand: OpeningHandModel, keys: list[str]) -> list[EventTest]:
    """Return, per shared event key, its test on this deck's packed hands."""
    by_key = {ev.key: ev for ev in hand.events}
    return [tuple((hand.shifts[f], (1 << hand.widths[f]) - 1, need) for f, need in by_key[k].groups)
            for k in keys]
