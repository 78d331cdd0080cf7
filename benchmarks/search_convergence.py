"""Has the yardstick converged? `search` beside `search` with twice its rollouts and no step cap, on the test set.

    python benchmarks/search_convergence.py [--set benchmarks/decksets/test.toml] [--deals 100] [--chunk 10]
        [--deck NAME ...] [--setting S ...] [--turns 12] [--seed 0] [--results FILE] [--jobs 1]
        [--strong NAME=VALUE ...] [--base NAME=VALUE ...] [--no-sequential] [--base-from FILE]

Issue 36 (SPEC G6): the policy table measures greedy against `search`, so `search` itself must be
shown to have converged: a larger budget changes no test row's mean kill turn by more than 0.02
turns. A row is a deck of the set (`generate.deckset`: built into a temporary folder and validated)
in a setting: `first`, `second`, `first-defends`, `second-defends` (going first or second, against
a passive or a defending opponent). Deal i of a row is played by both policies from the same seeds
(`seeds.seed_run`, as `sengoku goldfish` plays run i), so the two kill turns of a deal are a pair.
The stronger search plays 2 x 16 + 2 x 48 rollouts and searches every Main Phase step (`rollouts=32`,
`confirm=96`, `max_steps=0`: twice `search`'s budget; `--strong NAME=VALUE` changes one of its settings,
`--base NAME=VALUE` one of the first search's, e.g. `--base rollouts=4 --base confirm=12 --base
max_steps=12` for the 0.10.0 search). A game not won
within `--turns` counts as turns + 1.

Common random numbers inside the search (`engine.policies.search`, its module doc): at every
decision both searches meet in the same state, the stronger one's rollouts are `search`'s own
copies plus as many more, so the two take the same choice far more often than on separate luck,
and the paired difference's spread falls; each search's games are still those it plays alone, so
the expected difference is unchanged (`search`'s are the games it always played).

Sequential stop: a row is judged after 30 deals, then 60, 120, ... and `--deals` last, and stops at
the first look whose interval says "yes" or "no"; each look's interval is at level 0.05 / (the
number of looks), so the chance that any look of a row gives a wrong verdict stays below 0.05
(Bonferroni). `--no-sequential` judges every row once, at 95%, after `--deals`.

Per row it prints the deals played, both means, the paired difference (stronger minus `search`:
negative when the stronger search wins sooner) with its interval, and whether the difference is
within 0.02 turns: "yes" when the whole interval is, "no" when the whole interval is beyond it,
else "open" with the deals an interval of ±0.02 would need at this spread. Chunks of `--chunk`
deals are appended to `--results` (JSON Lines) as they finish; a run with the same file plays only
what it does not hold yet (resumable; a longer `--deals` adds deals), so a run can be stopped at any
time. `--base-from FILE` takes `search`'s games from a policy table's results file (`policy_bench.py
--results FILE`, the same set, turns and seed): deal i there is played from the same seeds by `search` as it
ships, so it is the same game, and only the stronger search is played for the chunks the file holds whole
(`search`'s third of the cost saved). At the end: the CPU time per game of each policy and what a whole run of the set would take.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from policy_bench import SETTINGS, in_processes, mean_ci  # noqa: E402  (the benchmarks' own helpers)
from policy_bench import read_results as read_table  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TEST_SET = ROOT / "benchmarks" / "decksets" / "test.toml"
STRONG = {"rollouts": 32, "confirm": 96, "max_steps": 0}  # twice search's 16 + 48 rollouts, no step cap
WITHIN = 0.02
ALPHA = 0.05  # a row's chance of a wrong verdict, over all its looks
MIN_DEALS = 30  # fewer pairs give no verdict: an interval of a handful of deals (or of no spread) says little
SEARCH_SETTINGS = ("rollouts", "finalists", "confirm", "horizon", "max_steps", "stream_seeds", "turns")
RACE_SETTINGS = ("confirm_max",)  # settings added since (0.17.0): in a results file's keys only when changed
_DECKS: dict[str, tuple[str, str, str]] = {}  # deck name -> (decklist, card database folder, deck hash)


def resolved(settings: dict[str, int]) -> dict[str, int]:
    """Every setting of a search with these changed: what a results file keys its games by, so that a chunk
    played by another budget (or by `search` of another version, whose defaults differ) is never mixed in."""
    from sengoku.engine.policies.search import SearchPolicy

    every = {name: int(settings.get(name, getattr(SearchPolicy, name))) for name in SEARCH_SETTINGS}
    every.update({name: int(settings[name]) for name in RACE_SETTINGS
                  if name in settings and int(settings[name]) != getattr(SearchPolicy, name)})
    return every


def search_policy(settings: dict[str, object]):
    """`search` with some of its settings (class values) changed."""
    from sengoku.engine.policies.search import SearchPolicy

    return type("Search", (SearchPolicy,), settings)() if settings else SearchPolicy()


def compile_row_deck(decklist: str, db: str):
    """Validate a deck against its card database and compile it for the engine (an invalid deck stops the run)."""
    from sengoku.engine import compile_deck
    from sengoku.goldfish.api import load_cards
    from sengoku.validate.api import validate_file

    result = validate_file(decklist, db)
    if not result.valid:
        raise SystemExit(f"{decklist} is invalid: {[v.message for v in result.violations]}")
    return compile_deck(load_cards(db), result.sections, result.mode)


def play(task: tuple) -> tuple:
    """Play deals start..stop-1 of one deck and setting with one policy; return the task and the kill turns."""
    from sengoku.engine import GameRunner
    from sengoku.goldfish.play.seeds import Chance, seed_run

    deck, setting, which, settings, start, stop, turns, seed = task
    decklist, db, _ = _DECKS[deck]
    going_first, defends = SETTINGS[setting]
    chance = Chance()
    runner = GameRunner(compile_row_deck(decklist, db), search_policy(dict(settings)), chance, turns, going_first,
                        opponent_defends=defends)
    began = time.process_time()
    kills = []
    for i in range(start, stop):
        seed_run(chance, seed, i)
        won = runner.play().won_turn
        kills.append(turns + 1 if won is None else won)
    return task, kills, time.process_time() - began


def read_results(path: Path) -> dict[tuple, tuple[list[int], float]]:
    """The chunks a results file holds: (deck hash, setting, every search setting, sengoku version, turns, seed,
    start) -> (kill turns, CPU seconds). A chunk is known by the search that played it, not by the part it played
    (`policy`): the games of 32 + 96 as the stronger search are its games as the first search of the next check."""
    held: dict[tuple, tuple[list[int], float]] = {}
    if not path.exists():
        return held
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            r = json.loads(line)
            key = (r["deck_hash"], r["setting"], json.dumps(r["settings"], sort_keys=True),
                   r.get("version"), r["turns"], r["seed"], r["start"])
            held[key] = (r["kill_turns"], float(r["cpu"]))
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short when a run was stopped: played again
    return held


def table_games(path: Path, version: str, turns: int, seed: int) -> dict[tuple[str, str], dict[int, tuple[int, float]]]:
    """`search`'s games in a policy table's results file, deal by deal: (deck hash, setting) -> deal -> (kill
    turn, its share of its chunk's CPU seconds), for this version, turn limit and seed only."""
    games: dict[tuple[str, str], dict[int, tuple[int, float]]] = {}
    for (deck_hash, setting, policy, v, t, s, start, _), (kills, seconds) in read_table(path).items():
        if policy == "search" and v == version and t == turns and s == seed and kills:
            row = games.setdefault((deck_hash, setting), {})
            for i, k in enumerate(kills):
                row[start + i] = (k, seconds / len(kills))
    return games


def verdict(diff: float, half: float, n: int) -> str:
    """"yes" when the whole interval lies within ±0.02, "no" when it lies wholly beyond, else "open"."""
    if n < MIN_DEALS:
        return f"open ({n} deals; a verdict needs {MIN_DEALS})"
    if abs(diff) + half <= WITHIN:
        return "yes"
    if abs(diff) - half > WITHIN:
        return "no"
    need = math.ceil(n * (half / WITHIN) ** 2) if math.isfinite(half) else "?"
    return f"open (about {need} deals for a ±{WITHIN} interval)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=TEST_SET, help="deck set manifest (default: the test set)")
    parser.add_argument("--deals", type=int, default=100, help="deals per row")
    parser.add_argument("--chunk", type=int, default=10, help="deals per line of the results file")
    parser.add_argument("--deck", action="append", help="decks of the set by name (default: every deck)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS), help="default: all four")
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--results", type=Path, default=Path("search_convergence.jsonl"),
                        help="JSON Lines file the chunks are appended to, and read back to resume")
    parser.add_argument("--jobs", type=int, default=1, help="processes (the results do not depend on it)")
    parser.add_argument("--strong", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the stronger search (default: rollouts=32 confirm=96 max_steps=0)")
    parser.add_argument("--base", action="append", default=[], metavar="NAME=VALUE",
                        help="a setting of the first search (default: search as it ships)")
    parser.add_argument("--no-sequential", dest="sequential", action="store_false",
                        help="judge every row once, after --deals deals (default: at looks, stopping at a verdict)")
    parser.add_argument("--base-from", type=Path, metavar="FILE",
                        help="take search's games from this policy_bench.py --results file where it holds them "
                             "(search as it ships: not with --base)")
    args = parser.parse_args(argv)
    if args.base_from and args.base:
        parser.error("--base-from holds the games of search as it ships: it cannot stand for --base changes")
    if args.base_from and not args.base_from.is_file():
        parser.error(f"--base-from {args.base_from}: no such file")
    strong, base = dict(STRONG), {}
    for items, into in ((args.strong, strong), (args.base, base)):
        for item in items:
            name, _, value = item.partition("=")
            if name not in SEARCH_SETTINGS + RACE_SETTINGS or not value.isdigit():
                parser.error(f"{item!r}: a search setting is "
                             f"{', '.join(SEARCH_SETTINGS + RACE_SETTINGS)} = a whole number")
            into[name] = int(value)

    import sengoku
    from sengoku.generate.deckset import build_deckset, load_deckset

    manifest = load_deckset(args.set)
    with tempfile.TemporaryDirectory() as folder:
        built = build_deckset(manifest, folder)
        for d in built.decks:
            _DECKS[d.name] = (str(d.decklist), str(d.db), d.deck_hash)
        decks = args.deck or [d.name for d in built.decks]
        unknown = [d for d in decks if d not in _DECKS]
        if unknown:
            raise SystemExit(f"no deck {', '.join(unknown)} in {args.set} (decks: {', '.join(_DECKS)})")
        command = " ".join(sys.argv[1:] if argv is None else argv)
        return run(args, command, manifest.name, built.digest, decks, {"search": base, "stronger": strong}, sengoku)


def setting_means(rows: list[tuple[float, float, float, float, int, float, str, str]]) -> list[str]:
    """Per setting, the mean of its rows' differences with a 95% interval (normal; each row's own spread and
    deals), and what it proves: a mean wholly beyond 0.02 means at least one row of the setting is beyond
    0.02 too (a mean of numbers is never beyond the largest), so `search` has not converged there; a mean
    within 0.02 says nothing of each row."""
    out = []
    for setting in SETTINGS:
        mine = [r for r in rows if r[7] == setting and r[4] > 1 and math.isfinite(r[5])]
        if len(mine) < 2:
            continue
        mean = sum(r[2] for r in mine) / len(mine)
        half = 1.96 * math.sqrt(sum(r[5] ** 2 / r[4] for r in mine)) / len(mine)
        said = (f"wholly beyond {WITHIN}: some row of it is beyond {WITHIN}, search has not converged there"
                if abs(mean) - half > WITHIN else
                f"wholly within {WITHIN} (each row still needs its own verdict)" if abs(mean) + half <= WITHIN
                else "open")
        out.append(f"  {setting}, the mean of its {len(mine)} rows' differences: {mean:+.3f} ({mean - half:+.3f} to "
                   f"{mean + half:+.3f}, 95%): {said}")
    return out


def looks_of(deals: int, chunk: int) -> list[int]:
    """The deal counts at which a row is judged: MIN_DEALS, twice that, four times, ... (each a whole
    number of chunks), and `deals` last."""
    looks: list[int] = []
    n = MIN_DEALS
    while n < deals:
        looks.append(min(deals, -(-n // chunk) * chunk))
        n *= 2
    looks.append(deals)
    return sorted(set(looks))


def half_width(diffs: list[int], level: float) -> tuple[float, float, float]:
    """Mean, half-width of the two-sided interval at `level` (Student's t), and standard deviation."""
    from sengoku.goldfish.statistics.paired import t975
    from sengoku.tune.race import t_quantile

    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf, math.nan
    sd = statistics.stdev(diffs)
    t = t975(n - 1) if level == ALPHA else t_quantile(1 - level / 2, n - 1)
    return mean, t * sd / math.sqrt(n), sd


def run(args, command: str, set_name: str, digest: str, decks: list[str], policies: dict[str, dict[str, int]],
        sengoku) -> int:
    settings = args.setting or list(SETTINGS)
    looks = looks_of(args.deals, args.chunk) if args.sequential else [args.deals]
    level = ALPHA / len(looks)

    def named(which: str) -> str:
        return "search" + ("" if not policies[which] else " with " + ", ".join(
            f"{k}={v}" for k, v in policies[which].items()))

    print(f"sengoku {sengoku.__version__}, rules engine {sengoku.engine_build()}; {named('search')} against "
          f"{named('stronger')}, on the {set_name} set (digest {digest[:12]}), "
          f"up to {args.deals} deals a row, up to {args.turns} turns, seed {args.seed}")
    print(f"command: python benchmarks/search_convergence.py {command}".rstrip())
    if len(looks) > 1:
        print(f"a row is judged after {', '.join(map(str, looks))} deals and stops at the first verdict; each look's "
              f"interval is at the {1 - level:.2%} level ({ALPHA} / {len(looks)} looks: the chance that any look of "
              f"a row errs stays below {ALPHA})")
    print()
    held = read_results(args.results)
    starts = list(range(0, args.deals, args.chunk))

    def key(deck: str, setting: str, which: str, start: int) -> tuple:
        return (_DECKS[deck][2], setting, json.dumps(resolved(policies[which]), sort_keys=True),
                sengoku.__version__, args.turns, args.seed, start)

    if args.base_from:
        table = table_games(args.base_from, sengoku.__version__, args.turns, args.seed)
        taken = 0
        for deck in decks:
            for setting in settings:
                row = table.get((_DECKS[deck][2], setting), {})
                for start in starts:
                    deals = range(start, min(start + args.chunk, args.deals))
                    if key(deck, setting, "search", start) not in held and all(i in row for i in deals):
                        held[key(deck, setting, "search", start)] = ([row[i][0] for i in deals],
                                                                     sum(row[i][1] for i in deals))
                        taken += len(deals)
        print(f"search's games taken from {args.base_from}: {taken}")
        print()
    print("| deck | setting | deals | search | stronger | stronger - search (interval) | within 0.02 |")
    print("| --- | --- | ---: | ---: | ---: | --- | --- |")
    sys.stdout.flush()

    cpu = {which: [0.0, 0] for which in policies}
    rows: list[tuple[float, float, float, float, int, float, str, str]] = []
    pooled: list[int] = []  # every judged deal's difference, over the rows

    def judge(deck: str, setting: str, upto: int, last: bool) -> bool:
        """Judge a row on its first `upto` deals; print it and return True when it is done."""
        mine = [s for s in starts if s < upto]
        base = [k for s in mine for k in held[key(deck, setting, "search", s)][0]][:upto]
        other = [k for s in mine for k in held[key(deck, setting, "stronger", s)][0]][:upto]
        diffs = [b - a for a, b in zip(base, other)]
        diff, half, sd = half_width(diffs, level)
        said = verdict(diff, half, len(diffs))
        if sd == 0 and len(diffs) >= MIN_DEALS:  # every deal alike: no interval (compare's rule), so no verdict
            said = f"open (all {len(diffs)} deals alike: no interval yet)"
        if not last and said not in ("yes", "no"):
            return False
        mb, mo = sum(base) / len(base), sum(other) / len(other)
        rows.append((mb, mo, diff, half, len(base), sd, said, setting))
        pooled.extend(diffs)
        for which in policies:
            for s in mine:
                kills, seconds = held[key(deck, setting, which, s)]
                cpu[which][0] += seconds
                cpu[which][1] += len(kills)
        print(f"| {deck} | {setting} | {len(base)} | {mb:.3f} | {mo:.3f} | {diff:+.3f} ({diff - half:+.3f} to "
              f"{diff + half:+.3f}) | {said} |")
        sys.stdout.flush()
        return True

    going = [(d, s) for d in decks for s in settings]
    with args.results.open("a", encoding="utf-8") as out:
        for look, upto in enumerate(looks):
            tasks = [(deck, setting, which, tuple(sorted(policies[which].items())), start,
                      min(start + args.chunk, args.deals), args.turns, args.seed)
                     for deck, setting in going for start in starts if start < upto for which in policies
                     if key(deck, setting, which, start) not in held]
            for task, kills, seconds in in_processes(play, tasks, args.jobs):
                deck, setting, which, _, start, stop, turns, seed = task
                out.write(json.dumps({"deck": deck, "deck_hash": _DECKS[deck][2], "setting": setting,
                                      "policy": which, "settings": resolved(policies[which]),
                                      "version": sengoku.__version__, "turns": turns, "seed": seed,
                                      "start": start, "stop": stop, "kill_turns": kills,
                                      "cpu": round(seconds, 3)}) + "\n")
                out.flush()
                held[key(deck, setting, which, start)] = (kills, seconds)
            going = [(d, s) for d, s in going if not judge(d, s, upto, look == len(looks) - 1)]
    print()
    if rows:
        diffs = [r[2] for r in rows]
        within = sum(1 for r in rows if r[6] == "yes")
        beyond = sum(1 for r in rows if r[6] == "no")
        print(f"rows: {len(rows)}; within 0.02 (the whole interval, {MIN_DEALS} deals or more): {within}; "
              f"beyond it: {beyond}; open: "
              f"{len(rows) - within - beyond}; difference from {min(diffs):+.3f} to {max(diffs):+.3f}, "
              f"mean {sum(diffs) / len(diffs):+.3f}; {sum(r[4] for r in rows)} deals in all")
        if len(rows) > 1:
            mean, half, _ = half_width(pooled, ALPHA)
            print(f"over every deal of these rows (a weaker claim than row by row: the rows' mean, not each row): "
                  f"stronger - search {mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f}, 95%)")
            for line in setting_means(rows):
                print(line)
    per_game = {w: c[0] / c[1] for w, c in cpu.items() if c[1]}
    for which, seconds in per_game.items():
        print(f"{which}: {seconds:.2f} CPU s a game over the {cpu[which][1]} games of these rows")
    spreads = [r[5] for r in rows if math.isfinite(r[5])]
    if len(per_game) == 2 and spreads:
        # deals a row needs for a 95% interval of +-0.02 on its mean difference, at the spread seen here
        need = [max(MIN_DEALS, math.ceil((1.96 * sd / WITHIN) ** 2)) for sd in spreads]
        typical = max(MIN_DEALS, math.ceil((1.96 / WITHIN) ** 2 * sum(sd * sd for sd in spreads) / len(spreads)))
        hours = len(_DECKS) * len(SETTINGS) * typical * sum(per_game.values()) / 3600
        print(f"a deal's difference has a standard deviation of {min(spreads):.2f} to {max(spreads):.2f} turns here: "
              f"a +-{WITHIN} interval needs about {typical} deals a row ({min(need)} to {max(need)}); the whole set "
              f"({len(_DECKS)} decks x {len(SETTINGS)} settings) at {typical} deals a row, both policies, at this "
              f"pace: about {hours:.0f} CPU hours")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
