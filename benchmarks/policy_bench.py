"""Benchmark the default policy against `search` on the suite's decks (decklists/suite/), on the same deals.

    .venv/bin/python benchmarks/policy_bench.py [--deals 500] [--deck NAME ...] [--setting S ...]
        [--turns 12] [--seed 0] [--jobs 1] [--base greedy] [--against search] [--json FILE]
        [--set benchmarks/decksets/test.toml] [--results FILE] [--chunk 25]

Settings: `first`, `second`, `first-defends`, `second-defends` (going first or second, with or
without `--opponent-defends`). Deal i of a deck and setting is played by both policies from the
same seeds (`seeds.seed_run`: the game's streams, and the policy's own for the search's
rollouts), as `sengoku goldfish` plays run i, so the two kill turns of a deal are a pair. A game not won
within `--turns` counts as turns + 1. For every deck and setting it prints both policies' mean
kill turn, the paired gap (base minus against: positive when the base policy is slower) with
its 95% interval, then per setting the ranking of the decks under each policy, whether the base
policy orders every pair of decks the yardstick separates (`ranking_check`) the same way, and the gaps
again as one table, a deck a row and a setting a column, and the spread of the gaps between rows
and between decks (each over its settings). Rows are printed as they finish (a long run can be
read while it goes); `--json` also writes every deal's pair of kill turns, and `--summarise FILE`
prints the same summary from such a file without playing. With `--set MANIFEST` the decks are a deck
set's instead of the suite's (`sengoku.generate.deckset`: the test set, `benchmarks/decksets/test.toml`,
is what the policy table reports; the fit set, `fit.toml`, the only one to choose a setting on), each
played with its own card database; a deck is then named as the set names it, e.g. `gen-1001/low-curve-1`.

With `--results FILE` every chunk of `--chunk` deals of a deck, setting and policy is appended to FILE
(JSON Lines) as it finishes, and a run with the same file plays only the chunks it does not hold yet
(a chunk is known by its deck's hash, setting, policy, sengoku version, turns, seed and deals), so a
long run can be stopped and resumed; keep one file per build of the engine measured. Last, the
verdicts against issue 36's goals (SPEC G6): every row's gap within 0.1 turns (`LIMIT`); per deck (the
mean of its settings' gaps), the largest minus the smallest at most 0.1; every pair of decks the
yardstick separates ordered the same way. Each names the rows, decks or pairs that miss, by how much; the
pairs' verdict also says how many misses are beyond chance, and how many luck alone would give (`ranking_check`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import NamedTuple

SUITE = Path(__file__).resolve().parents[1] / "decklists" / "suite"
SET_DECKS: dict[str, tuple[Path, Path]] = {}  # with --set: deck name -> (decklist, card database folder)
SET_HASHES: dict[str, str] = {}  # with --set: deck name -> deck hash (validate.deck_hash)
SETTINGS = {"first": (True, False), "second": (False, False),
            "first-defends": (True, True), "second-defends": (False, True)}
LIMIT = 0.1  # turns: issue 36's goal for a row's gap, and for the spread of the decks' gaps


def load_deck(path: Path, db: Path | None = None):
    """Validate a decklist against a card database (default: the bundled one) and compile it for the engine
    (an invalid deck stops the benchmark)."""
    import sengoku
    from sengoku.engine import compile_deck
    from sengoku.validate.api import validate_file

    result = validate_file(path, db)
    if not result.valid:
        raise SystemExit(f"{path} is invalid: {result.errors}")
    return compile_deck(sengoku.load_card_db(db), result.sections, result.mode)


def deals(deck: str, setting: str, policy, start: int, stop: int, turns: int, seed: int):
    """Deals start..stop-1 of one suite deck and setting, played one by one as the iterator is read:
    (deal, result) pairs. `policy` is a policy's name, a `PolicySpec`, or a policy object.

    Deal i is run i of `sengoku goldfish`, played by the library's own run path
    (`goldfish.play.simulate.play_runs`), so every policy meets the same deals. The deck is
    validated and compiled before the first deal is read (outside a timing of the games).
    """
    from sengoku.goldfish.api import plan_of
    from sengoku.goldfish.options import PlayOptions, PolicySpec
    from sengoku.goldfish.play.simulate import play_runs

    going_first, defends = SETTINGS[setting]
    named = isinstance(policy, (str, PolicySpec))
    options = PlayOptions(turns=turns, seed=seed, going="first" if going_first else "second",
                          opponent_defends=defends, **({"policy": policy} if named else {}))
    path, db = SET_DECKS.get(deck, (SUITE / f"{deck}.toml", None))  # one of the --set decks, else a suite deck
    games = play_runs(plan_of(path, db, options), start, stop, policy=None if named else policy)
    return zip(range(start, stop), games)


def in_processes(work, tasks: list, jobs: int):
    """Yield work(task) for each task in order, in `jobs` processes (forked) when jobs > 1."""
    if jobs > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(jobs) as pool:
            yield from pool.imap(work, tasks)
    else:
        for task in tasks:
            yield work(task)


def play(task: tuple[str, str, str, int, int, int, int]) -> tuple[str, str, str, list[int], float]:
    """Play deals start..stop-1 of one deck and setting with one policy; return the kill turns."""
    deck, setting, policy, start, stop, turns, seed = task
    games = deals(deck, setting, policy, start, stop, turns, seed)
    began = time.process_time()
    out = [turns + 1 if r.won_turn is None else r.won_turn for _, r in games]
    return deck, setting, policy, out, time.process_time() - began


def t975(n: int) -> float:
    from sengoku.goldfish.statistics.paired import t975 as t
    return t(n - 1)


def mean_ci(values: list[int] | list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% interval (Student's t)."""
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, math.inf
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return m, t975(n) * math.sqrt(var / n)


class Ranking(NamedTuple):
    """What `ranking_check` found: the pairs the yardstick separates; each pair the measured policy orders the
    other way, described; how many of those are beyond chance; and how many a policy would order the other way by
    chance alone."""

    separated: int
    wrong: list[str]
    beyond: int
    by_chance: float


def ranking_check(results: dict[tuple[str, str, str], list[int]], decks: list[str], settings: list[str],
                  base: str, against: str) -> Ranking:
    """The pairs of decks (in one setting) that `against` separates, and those `base` orders the other way.

    `against` separates decks a and b when the 95% interval of the mean of b's kill turn minus a's,
    deal by deal (deal i of both decks is played from the same seeds), excludes 0. `base` orders
    them the same way when its own mean difference has the same sign.

    Two figures say how much of a miss is the measure's own luck. A pair ordered the other way names
    `base`'s gap (base minus against) on b minus its gap on a, deal by deal, with its 95% interval: when the
    interval excludes 0, `base` plays one of the two decks worse, relative to `against`, beyond chance (counted
    in `beyond`). And `by_chance` adds up, over the separated pairs, the chance that a policy whose difference
    between the two decks is in expectation `against`'s own, measured with `base`'s spread, comes out with the
    other sign (or level): the misses to expect from luck alone (a little low: a pair only just separated has
    more often drawn a difference too large than too small).
    """
    from statistics import NormalDist

    normal = NormalDist()
    separated, wrong, beyond, by_chance = 0, [], 0, 0.0
    for setting in settings:
        for i, a in enumerate(decks):
            for b in decks[i + 1:]:
                ya, yb = results.get((a, setting, against)), results.get((b, setting, against))
                xa, xb = results.get((a, setting, base)), results.get((b, setting, base))
                if ya is None or yb is None or xa is None or xb is None:
                    continue
                d, half = mean_ci([v - u for u, v in zip(ya, yb)])
                if abs(d) <= half:
                    continue
                separated += 1
                g, g_half = mean_ci([v - u for u, v in zip(xa, xb)])
                spread = g_half / t975(len(xa))  # the standard error of base's difference
                by_chance += normal.cdf(-abs(d) / spread) if spread > 0 else 0.0
                if g * d <= 0:
                    gaps, gaps_half = mean_ci([(xb[k] - yb[k]) - (xa[k] - ya[k]) for k in range(len(xa))])
                    far = abs(gaps) > gaps_half
                    beyond += far
                    wrong.append(f"{setting}: {b} minus {a} is {d:+.2f} (±{half:.2f}) under {against}, "
                                 f"{g:+.2f} under {base}; {base}'s gap on {b} minus on {a} {gaps:+.2f} "
                                 f"(±{gaps_half:.2f}{', beyond chance' if far else ''})")
    return Ranking(separated, wrong, beyond, by_chance)


def goals(rows: dict[tuple[str, str], tuple[float, float, float, float]], per_deck: dict[str, float],
          ranking: Ranking) -> list[str]:
    """The verdict on each of issue 36's three goals, naming what misses and by how much: every row's gap
    (mean, ± half-width) within `LIMIT` turns; the decks' gaps (each the mean of its settings') spread over at
    most `LIMIT`; every pair the yardstick separates ordered the same way."""
    out = []
    beyond = sorted(((r[2], r[3], k) for k, r in rows.items() if abs(r[2]) > LIMIT), reverse=True)
    words = [f"{deck} {setting} {gap:+.3f} ± {half:.3f} (over by {abs(gap) - LIMIT:.3f}"
             + ("; its whole interval beyond)" if abs(gap) - half > LIMIT else ")")
             for gap, half, (deck, setting) in beyond]
    out.append(f"every row within {LIMIT} turns: " + ("met" if not beyond else "not met")
               + f", {len(rows) - len(beyond)} of {len(rows)} rows"
               + ("" if not beyond else "; beyond: " + ", ".join(words)))
    if len(per_deck) > 1:
        low = min(per_deck, key=per_deck.__getitem__)
        spread = max(per_deck.values()) - per_deck[low]
        far = sorted(((g, d) for d, g in per_deck.items() if g - per_deck[low] > LIMIT), reverse=True)
        out.append(f"per deck, largest gap minus smallest at most {LIMIT}: " + ("met" if spread <= LIMIT else "not met")
                   + f", {spread:.3f}" + ("" if spread <= LIMIT else f" (over by {spread - LIMIT:.3f}); more than "
                   f"{LIMIT} above the smallest ({low} {per_deck[low]:+.3f}): "
                   + ", ".join(f"{d} {g:+.3f}" for g, d in far)))
    separated, wrong = ranking.separated, ranking.wrong
    out.append("every pair the yardstick separates ordered the same way: " + ("met" if not wrong else "not met")
               + f", {separated - len(wrong)} of {separated}" + ("" if not wrong else f" ({len(wrong)} the other way, "
               f"{ranking.beyond} of them beyond chance)")
               + (f"; by chance alone about {ranking.by_chance:.1f} the other way" if separated else ""))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=500, help="deals per deck and setting")
    parser.add_argument("--deck", action="append", help="suite deck names (default: every deck of decklists/suite/)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS), help="default: all four")
    parser.add_argument("--turns", type=int, default=12, help="turns a game may last")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result does not depend on it)")
    parser.add_argument("--base", default="greedy", help="the policy measured (default: greedy)")
    parser.add_argument("--against", default="search", help="the yardstick (default: search)")
    parser.add_argument("--json", type=Path, help="also write every deal's kill turns here")
    parser.add_argument("--set", type=Path, metavar="MANIFEST",
                        help="play a deck set's decks (e.g. benchmarks/decksets/test.toml) instead of the suite's")
    parser.add_argument("--results", type=Path, metavar="FILE",
                        help="append every chunk of deals to this JSON Lines file as it finishes, and play only what "
                             "it does not hold yet (resumable)")
    parser.add_argument("--chunk", type=int, default=25, help="deals per line of --results (default 25)")
    parser.add_argument("--summarise", type=Path, metavar="JSON",
                        help="play nothing: summarise the kill turns a run wrote with --json (its decks, settings and deals)")
    args = parser.parse_args(argv)

    import sengoku

    if args.set is not None:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:  # the set's databases and decklists, for this run
            return run(args, argv, register_set(args.set, args.deck, folder), sengoku)
    return run(args, argv, args.deck or sorted(p.stem for p in SUITE.glob("*.toml")), sengoku)


def register_set(manifest: Path, wanted: list[str] | None, folder: str) -> list[str]:
    """Build a deck set's decks into `folder` and register them (SET_DECKS, SET_HASHES) for `deals`;
    return the decks asked for (each one refused unless the set has it), or all the set's decks."""
    from sengoku.generate.deckset import build_deckset, load_deckset

    for d in build_deckset(load_deckset(manifest), folder).decks:
        SET_DECKS[d.name] = (d.decklist, d.db)
        SET_HASHES[d.name] = d.deck_hash
    unknown = [d for d in wanted or () if d not in SET_DECKS]
    if unknown:
        raise SystemExit(f"no deck {', '.join(unknown)} in {manifest} (decks: {', '.join(SET_DECKS)})")
    return list(wanted or SET_DECKS)


def deck_hash(deck: str) -> str:
    """A deck's hash (its cards, counts, mode and card database): what a results file knows its chunks by."""
    if deck in SET_HASHES:
        return SET_HASHES[deck]
    from sengoku.validate.api import validate_file

    return str(validate_file(SUITE / f"{deck}.toml").deck_hash)


def read_results(path: Path, names: dict[str, set[str]] | None = None) -> dict[tuple, tuple[list[int], float]]:
    """The chunks a results file holds: (deck hash, setting, policy, version, turns, seed, start, stop) -> (kill
    turns, CPU seconds). A line cut short (a run stopped while writing) is skipped: its chunk is played again.
    With `names`, each deck name the chunks give is added to it with its deck hashes."""
    held: dict[tuple, tuple[list[int], float]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                r = json.loads(line)
                held[(r["deck_hash"], r["setting"], r["policy"], r["version"], r["turns"], r["seed"], r["start"],
                      r["stop"])] = (list(r["kill_turns"]), float(r["cpu"]))
                if names is not None:
                    names.setdefault(str(r["deck"]), set()).add(str(r["deck_hash"]))
            except (ValueError, KeyError, TypeError):
                continue
    return held


def run(args, argv: list[str] | None, decks: list[str], sengoku) -> int:
    settings = args.setting or list(SETTINGS)
    print(f"sengoku {sengoku.__version__}, rules engine {sengoku.engine_build()}; {args.base} against "
          f"{args.against}, {args.deals} deals per deck and setting, up to {args.turns} turns, seed {args.seed}")
    print(f"command: python benchmarks/policy_bench.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    print()
    print(f"| deck | setting | {args.base} | {args.against} | gap (95% interval) | slower / faster deals |")
    print("| --- | --- | ---: | ---: | --- | --- |")
    sys.stdout.flush()
    chunk = args.chunk if args.results else args.deals
    spans = [(start, min(start + chunk, args.deals)) for start in range(0, args.deals, max(1, chunk))]
    tasks = []
    for deck in decks:
        for setting in settings:
            for start, stop in spans:
                for policy in (args.base, args.against):
                    tasks.append((deck, setting, policy, start, stop, args.turns, args.seed))
    results: dict[tuple[str, str, str], list[int]] = {}
    parts: dict[tuple[str, str, str], dict[int, list[int]]] = {}
    cpu: dict[str, float] = {args.base: 0.0, args.against: 0.0}
    rows: dict[tuple[str, str], tuple[float, float, float, float]] = {}

    def take(result: tuple[str, str, str, list[int], float], start: int = 0) -> None:
        deck, setting, policy, kills, seconds = result
        cpu[policy] += seconds
        got = parts.setdefault((deck, setting, policy), {})
        got[start] = kills
        if len(got) < len(spans):
            return
        results[(deck, setting, policy)] = [k for s in sorted(got) for k in got[s]]
        a, b = results.get((deck, setting, args.base)), results.get((deck, setting, args.against))
        if a is not None and b is not None:
            gaps = [x - y for x, y in zip(a, b)]
            gap, half = mean_ci(gaps)
            ma, mb = sum(a) / len(a), sum(b) / len(b)
            rows[(deck, setting)] = (ma, mb, gap, half)
            slower = sum(1 for g in gaps if g > 0) / len(gaps)
            faster = sum(1 for g in gaps if g < 0) / len(gaps)
            print(f"| {deck} | {setting} | {ma:.2f} | {mb:.2f} | {gap:+.2f} ({gap - half:+.2f} to {gap + half:+.2f})"
                  f" | {slower:.0%} / {faster:.0%} |")
            sys.stdout.flush()

    if args.summarise:
        stored = json.loads(args.summarise.read_text(encoding="utf-8"))["kill_turns"]
        for deck, setting, policy, *_ in tasks:
            key = "|".join((deck, setting, policy))
            if key not in stored or len(stored[key]) < args.deals:
                raise SystemExit(f"{args.summarise} holds no {args.deals} kill turns for {deck}, {setting}, {policy}")
            take((deck, setting, policy, stored[key][:args.deals], 0.0))
    elif args.results:
        hashes = {deck: deck_hash(deck) for deck in decks}

        def key(deck: str, setting: str, policy: str, start: int, stop: int) -> tuple:
            return (hashes[deck], setting, policy, sengoku.__version__, args.turns, args.seed, start, stop)

        held = read_results(args.results)
        missing = []
        for task in tasks:
            deck, setting, policy, start, stop, _, _ = task
            if key(deck, setting, policy, start, stop) in held:
                kills, seconds = held[key(deck, setting, policy, start, stop)]
                take((deck, setting, policy, kills, seconds), start)
            else:
                missing.append(task)
        with args.results.open("a", encoding="utf-8") as out:
            for task, result in zip(missing, in_processes(play, missing, args.jobs)):
                deck, setting, policy, start, stop, turns, seed = task
                out.write(json.dumps({"deck": deck, "deck_hash": hashes[deck], "setting": setting, "policy": policy,
                                      "version": sengoku.__version__, "turns": turns, "seed": seed, "start": start,
                                      "stop": stop, "kill_turns": result[3], "cpu": round(result[4], 3)}) + "\n")
                out.flush()
                take(result, start)
    else:
        for result in in_processes(play, tasks, args.jobs):
            take(result)

    print()
    for setting in settings:
        here = [(deck, rows[(deck, setting)]) for deck in decks if (deck, setting) in rows]
        for k, policy in ((0, args.base), (1, args.against)):
            ranking = sorted(here, key=lambda r: r[1][k])
            print(f"{setting}, ranking under {policy}: " + " < ".join(f"{d} {r[k]:.2f}" for d, r in ranking))
    ranking = ranking_check(results, decks, settings, args.base, args.against)
    separated, wrong = ranking.separated, ranking.wrong
    if separated:
        print()
        print(f"pairs of decks that {args.against} separates (the 95% interval of their difference, deal by deal, "
              f"excludes 0): {separated}; {args.base} orders {separated - len(wrong)} of them the same way"
              + ("" if not wrong else ", not: " + "; ".join(wrong)))
    if rows:
        print()
        print(f"gap ({args.base} minus {args.against}, turns, ± the 95% interval's half-width), deck by setting:")
        print()
        print("| deck | " + " | ".join(settings) + " |")
        print("| --- |" + " ---: |" * len(settings))
        for deck in decks:
            cells = [f"{rows[(deck, s)][2]:+.2f} ± {rows[(deck, s)][3]:.2f}" if (deck, s) in rows else ""
                     for s in settings]
            print(f"| {deck} | " + " | ".join(cells) + " |")
    gaps = [r[2] for r in rows.values()]
    if gaps:
        print()
        print(f"gap over every deck and setting: mean {sum(gaps) / len(gaps):+.3f}, largest {max(gaps):+.2f}, "
              f"smallest {min(gaps):+.2f}; largest minus smallest {max(gaps) - min(gaps):.2f}")
        within = sum(1 for r in rows.values() if abs(r[2]) <= 0.1)
        print(f"rows whose gap is within 0.1 turns: {within} of {len(rows)}")
        per_deck = {}
        for deck in decks:
            here = [rows[(deck, s)][2] for s in settings if (deck, s) in rows]
            if here:
                per_deck[deck] = sum(here) / len(here)
        if len(per_deck) > 1:
            low, high = min(per_deck, key=per_deck.__getitem__), max(per_deck, key=per_deck.__getitem__)
            print(f"per deck (the mean of its settings' gaps): from {per_deck[low]:+.3f} ({low}) to "
                  f"{per_deck[high]:+.3f} ({high}); largest minus smallest {per_deck[high] - per_deck[low]:.3f}")
        print()
        print("against the goals (issue 36 point 3):")
        for line in goals(rows, per_deck, ranking):
            print(f"- {line}")
    games = args.deals * len(rows)
    for policy, seconds in cpu.items():
        if games and not args.summarise:
            print(f"{policy}: {seconds:.1f} CPU s, {seconds / games * 1000:.2f} ms per game")
    if args.json:
        args.json.write_text(json.dumps({"args": {k: str(v) for k, v in vars(args).items()},
                                         "kill_turns": {"|".join(k): v for k, v in results.items()}}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
