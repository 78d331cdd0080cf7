"""Benchmark `sengoku compare`: what pairing saves, and what comparing costs.

    .venv/bin/python benchmarks/compare_bench.py [--runs 4000] [--seed 7] [--turns 12] [--policy greedy]
                                                 [--explain] [--matchings] [--covariates] [--time] [--repeat 3]

1. Interval width (common random numbers, SPEC G7): for each change below, `sengoku compare BASE
   CHANGED --runs R --seed S --turns T --json`; prints the paired and the unpaired (Welch, as two
   separate `goldfish` runs would give) 95% interval half-widths of the mean kill-turn
   difference, their ratio, and the goal: at most 0.4 for a one-card change, 0.6 for a
   four-card one. The changed decks are built here from the bundled decks
   (decklists/default.toml, decklists/ultimate.toml) and written to a temporary folder:
   - one card: one Level 4 copy out, one Level 1 card of a name new to the deck in (two such
     changes on the default deck: the new card's id far from the old one's, and next to it);
   - four cards: two Level 4 and two Level 3 copies out, two Level 1 and two Level 2 cards of a
     new name in; and (default deck) the two Nene Level 2 and two Sorin Level 2 out for the
     same four;
   and, from decklists/compare/, one-card.toml (a Level 4 replaced by a Level 2 of a name the
   deck holds).
   With --explain, each case's runs are replayed through the library, the changed deck played
   against the base one (as compare plays it): how many runs drew none of the changed cards
   before the game ended, and in how many of those and of the others the two kill turns differ.
   With --matchings, each case is replayed under every distinct way of matching the copies the
   changed deck has beyond the base deck with those the base deck has beyond it (which copy's
   place each new copy takes): the ratio of each, and the least ratio any pairing could give.
   With --covariates, each case is replayed and the mean difference adjusted by control variates
   of exactly known expectation (functions of the baseline's Stronghold order alone, S3): where
   the copies the changed deck replaces lie in it. Prints the adjusted interval's ratio to the
   unpaired one beside the plain paired ratio, for two designs (see `covariates`).
2. With --time, wall time: `sengoku compare DEFAULT ONE_CARD --jobs 2 --json` as a fresh process
   against two sequential `sengoku goldfish DECK --jobs 1 --json` calls (the same games a
   comparison plays) and against two sequential `--jobs 2` goldfish calls: min and median of
   --repeat.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "decklists" / "default.toml"
ULTIMATE = ROOT / "decklists" / "ultimate.toml"
ONE_CARD = ROOT / "decklists" / "compare" / "one-card.toml"
GOALS = {"one card": 0.4, "four cards": 0.6}

# (base deck, goal's label, what it is, the change: (name, level, count change) ...)
CHANGES = (
    (DEFAULT, "one card", "Kagetora 4 out, Katsuie 1 (new) in", (("Kagetora", 4, -1), ("Katsuie", 1, +1))),
    (DEFAULT, "one card", "Yukimura 4 out, Hanzo 1 (new) in", (("Yukimura", 4, -1), ("Hanzo", 1, +1))),
    (DEFAULT, "four cards", "two Level 4, two Level 3 out", (("Yukimura", 4, -1), ("Kagetora", 4, -1),
                                                              ("Oichi", 3, -1), ("Soma", 3, -1),
                                                              ("Hanzo", 1, +2), ("Hanzo", 2, +2))),
    (DEFAULT, "four cards", "two Nene 2, two Sorin 2 out", (("Nene", 2, -2), ("Sorin", 2, -2),
                                                             ("Hanzo", 1, +2), ("Hanzo", 2, +2))),
    (ULTIMATE, "one card", "Ayame 4 out, Hanzo 1 (new) in", (("Ayame", 4, -1), ("Hanzo", 1, +1))),
    (ULTIMATE, "four cards", "two Level 4, two Level 3 out", (("Ayame", 4, -1), ("Yukimura", 4, -1),
                                                               ("Oichi", 3, -1), ("Soma", 3, -1),
                                                               ("Hanzo", 1, +2), ("Hanzo", 2, +2))),
)


def sengoku() -> list[str]:
    exe = Path(sys.executable).with_name("sengoku")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "sengoku"]


def run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr}")
    return done.stdout


def changed_deck(base: Path, change: tuple[tuple[str, int, int], ...], folder: Path, label: str, k: int = 0) -> Path:
    """Write `base` with the card counts changed as `change` says; return the new file."""
    import tomllib

    import tomli_w

    deck = tomllib.loads(base.read_text(encoding="utf-8"))
    main = deck["main"]
    for name, level, delta in change:
        entry = next((e for e in main if e["name"] == name and e.get("level") == level), None)
        if entry is None:
            entry = {"name": name, "level": level, "count": 0}
            main.append(entry)
        entry["count"] = entry.get("count", 1) + delta
        if entry["count"] < 0:
            raise SystemExit(f"{base.name}: no {name} Level {level} to take out")
    deck["main"] = [e for e in main if e.get("count", 1) > 0]
    deck["name"] = f"{deck.get('name', base.stem)}, {label} changed"
    path = folder / f"{base.stem}-{label.replace(' ', '-')}-{k}.toml"
    path.write_text(tomli_w.dumps(deck), encoding="utf-8")
    return path


def half_widths(base: Path, other: Path, args: argparse.Namespace) -> tuple[float, float, float]:
    """Return the mean kill-turn difference and its paired and unpaired 95% half-widths."""
    data = json.loads(run([*sengoku(), "compare", str(base), str(other), "--runs", str(args.runs),
                           "--seed", str(args.seed), "--turns", str(args.turns), "--policy", args.policy,
                           "--json"]))
    row = next(r for r in data["differences"] if r["measure"] == "kill_turn_mean")
    return row["diff"], (row["ci95"][1] - row["ci95"][0]) / 2, (row["unpaired_ci95"][1] - row["unpaired_ci95"][0]) / 2


def kill_turns(tables, args: argparse.Namespace, opponent=None) -> list[int]:
    """Replay the runs of one deck (against `opponent`); its kill turns, turns + 1 for a game not won."""
    from sengoku.engine import GameRunner, choose_commander
    from sengoku.goldfish.play.seeds import Chance, seed_run

    chance = Chance()
    runner = GameRunner(tables, args.policy, chance, args.turns, True, choose_commander(tables), opponent=opponent)
    out = []
    for i in range(args.runs):
        seed_run(chance, args.seed, i)
        won = runner.play().won_turn
        out.append(args.turns + 1 if won is None else won)
    return out


def ratio(ka: list[int], kb: list[int]) -> float:
    """The paired over the unpaired standard error of the mean difference."""
    return statistics.stdev(b - a for a, b in zip(ka, kb)) / (statistics.variance(ka) + statistics.variance(kb)) ** 0.5


def matchings(base: Path, other: Path, args: argparse.Namespace) -> str:
    """The ratio under every way of matching the changed deck's extra copies with the base deck's.

    `DeckTables.pair_with` matches them in order of (level, card id, copy); any one-to-one
    matching keeps each deck's shuffle uniform. Also the least ratio any pairing of the two
    decks' games could give: the two kill-turn distributions put in the same order (a bound that
    no pairing fixed before the games are played can be sure to reach).
    """
    import itertools

    import sengoku
    from sengoku.engine import compile_deck
    from sengoku.engine.chance import copy_code

    db = sengoku.load_card_db()
    va, vb = (sengoku.validate_deck(sengoku.load_decklist(d)) for d in (base, other))
    ta = compile_deck(db, va.sections, mode=va.mode)
    ka = kill_turns(ta, args)
    tb = compile_deck(db, vb.sections, mode=vb.mode)
    main_a = {ta.card_id[j]: ta.count[j] for j in range(ta.n) if ta.section[j] == "main"}
    main_b = {tb.card_id[i]: tb.count[i] for i in range(tb.n) if tb.section[i] == "main"}
    level = {**{ta.card_id[j]: ta.level[j] for j in range(ta.n)}, **{tb.card_id[i]: tb.level[i] for i in range(tb.n)}}
    theirs = sorted((level[c], c, k) for c, n in main_a.items() for k in range(main_b.get(c, 0), n))
    mine = sorted((level[c], c, k) for c, n in main_b.items() for k in range(main_a.get(c, 0), n))
    own = tb.copy_codes
    seen, out = set(), []
    for perm in itertools.permutations(mine):
        shape = tuple(c for _, c, _ in perm)  # copies of one card are alike: one matching per shape
        if shape in seen:
            continue
        seen.add(shape)
        taken = {(c, k): copy_code(rc, rk) for (_, c, k), (_, rc, rk) in zip(perm, theirs)}
        tb._set_codes(tuple(tuple(taken.get((tb.card_id[i], k), own[i][k]) for k in range(tb.count[i]))
                            for i in range(tb.n)))
        r = ratio(ka, kill_turns(tb, args, ta))
        out.append(f"{r:.3f}" + ("*" if len(seen) == 1 else ""))
    kb_sorted = sorted(kill_turns(tb, args, ta))
    return (f"ratio per matching of the changed copies (* pair_with's): {' '.join(out)}; "
            f"least any pairing could give: {ratio(sorted(ka), kb_sorted):.3f}")


def explain(base: Path, other: Path, args: argparse.Namespace) -> str:
    """Replay the comparison's runs; say how the kill turns differ with and without a changed card drawn."""
    import sengoku
    from sengoku.engine import GameRunner, choose_commander, compile_deck
    from sengoku.goldfish.play.seeds import Chance, seed_run

    db = sengoku.load_card_db()
    ta, tb = (compile_deck(db, v.sections, mode=v.mode)
              for v in (sengoku.validate_deck(sengoku.load_decklist(d)) for d in (base, other)))
    tb.pair_with(ta)  # as goldfish and compare do for a deck played against the base one
    extra = Counter({tb.card_id[i]: tb.count[i] for i in range(tb.n) if tb.section[i] == "main"})
    extra.subtract({ta.card_id[i]: ta.count[i] for i in range(ta.n) if ta.section[i] == "main"})
    changed = {tb.index_of(cid): n for cid, n in extra.items() if n > 0}  # card -> its copies B has beyond A
    chances = Chance(), Chance()
    runners = [GameRunner(t, args.policy, c, args.turns, True, choose_commander(t), opponent=o)
               for t, c, o in ((ta, chances[0], None), (tb, chances[1], ta))]
    counts: Counter[tuple[bool, bool]] = Counter()
    for i in range(args.runs):
        kills = []
        for chance, runner in zip(chances, runners):
            seed_run(chance, args.seed, i)
            kills.append(runner.play().won_turn)
        s = runners[1].state
        assert s is not None
        left = Counter(s.stronghold + s.sh_bottom)
        drawn = any(left[c] < n for c, n in changed.items())  # (a copy B has beyond A was drawn)
        counts[(drawn, kills[0] != kills[1])] += 1
    none, some = counts[(False, False)] + counts[(False, True)], counts[(True, False)] + counts[(True, True)]
    return (f"no changed card drawn: {none} runs, kill turns differ in {counts[(False, True)]}; "
            f"drawn: {some} runs, differ in {counts[(True, True)]} ({counts[(True, True)] / max(1, some):.0%})")


# --covariates: windows of Stronghold positions from the top (the opening hand, then about a
# turn's draws each); a copy below the last window is in none.
WINDOWS = ((0, 5), (5, 9), (9, 13), (13, 17))
PLACES = ((0, 5),) + tuple((q, q + 1) for q in range(5, 17))  # the opening hand, then one place each


def covariates(base: Path, other: Path, args: argparse.Namespace) -> str:
    """Replay a case; the paired difference adjusted by control variates, as ratios to the unpaired width.

    A slot is a main copy the base deck has beyond the changed deck (the changed deck's extra
    copies take their places, `DeckTables.pair_with`). Under a uniform Stronghold order (S3, G7)
    a slot lies in a window of w positions with probability exactly w / (Stronghold size), so
    these indicators have known expectations: regression adjustment (least squares on the
    centered covariates, residual variance over n - p - 1 degrees of freedom) stays unbiased.
    Designs: "slot x window" (an indicator per slot and window), "window" (per window, how many
    slots lie in it) and "slot x place" (per slot, the opening hand and then one place each).
    Also the mean difference by the window of the first slot drawn (none: below the last window).
    """
    import sengoku
    from sengoku.engine import GameRunner, choose_commander, compile_deck
    from sengoku.engine.chance import Lanes, copy_code, keyed_order, run_seeds
    from sengoku.goldfish.play.seeds import Chance, seed_run
    from sengoku.goldfish.statistics.paired import Sums, welch_interval

    db = sengoku.load_card_db()
    ta, tb = (compile_deck(db, v.sections, mode=v.mode)
              for v in (sengoku.validate_deck(sengoku.load_decklist(d)) for d in (base, other)))
    tb.pair_with(ta)
    own = Counter({tb.card_id[i]: tb.count[i] for i in range(tb.n) if tb.section[i] == "main"})
    slots = {copy_code(ta.card_id[j], k) for j in range(ta.n) if ta.section[j] == "main"
             for k in range(own[ta.card_id[j]], ta.count[j])}
    lanes = ta.stronghold_lanes[choose_commander(ta)]
    size = lanes.n
    slot_lanes = [j for j, code in enumerate(lanes.codes) if code in slots]  # (a Commander copy is in none)
    by_lane = Lanes(lanes.codes)
    chances = Chance(), Chance()
    runners = [GameRunner(t, args.policy, c, args.turns, True, choose_commander(t), opponent=o)
               for t, c, o in ((ta, chances[0], None), (tb, chances[1], ta))]
    diffs, places, kills = [], [], ([], [])
    for i in range(args.runs):
        for chance, runner, k in zip(chances, runners, kills):
            seed_run(chance, args.seed, i)
            won = runner.play().won_turn
            k.append(args.turns + 1 if won is None else won)
        diffs.append(kills[1][-1] - kills[0][-1])
        order = keyed_order(range(size), by_lane, run_seeds(args.seed, i)[0])  # top last
        place = {lane: size - 1 - p for p, lane in enumerate(order)}
        places.append([place[j] for j in slot_lanes])
    sums = [Sums(), Sums()]
    for k, s in zip(kills, sums):
        for v in k:
            s.add(v)
    lo, hi = welch_interval(*sums)
    unpaired = (hi - lo) / 2
    plain = Sums()
    for d in diffs:
        plain.add(d)
    out = [f"plain {plain.half_width() / unpaired:.3f}"]
    for name, windows, per_slot in (("slot x window", WINDOWS, True), ("window", WINDOWS, False),
                                    ("slot x place", PLACES, True)):
        rows, expected = [], []
        for a, b in windows:
            if per_slot:
                expected += [(b - a) / size] * len(slot_lanes)
            else:
                expected.append(len(slot_lanes) * (b - a) / size)
        for place in places:
            inside = [[a <= q < b for q in place] for a, b in windows]
            rows.append([float(x) for w in inside for x in w] if per_slot else [float(sum(w)) for w in inside])
        half = _adjusted_half_width([float(d) for d in diffs], rows, expected)[1]
        out.append(f"{name} ({len(expected)} covariates) {half / unpaired:.3f}")
    groups: dict[str, Sums] = {}
    for d, place in zip(diffs, places):
        first = min(place, default=size)
        key = next((f"{a}-{b - 1}" for a, b in WINDOWS if a <= first < b), "none")
        groups.setdefault(key, Sums()).add(d)
    by_first = ", ".join(f"{key} {g.n} runs {g.mean:+.3f} (sd {g.variance() ** 0.5:.2f})" for key, g in
                         sorted(groups.items(), key=lambda kv: int(kv[0].split("-")[0]) if kv[0] != "none" else 99))
    return (f"ratio to unpaired: {', '.join(out)}\n   {'':15s}mean difference by the first replaced copy's "
            f"place: {by_first}")


def _adjusted_half_width(d: list[float], rows: list[list[float]], expected: list[float]) -> tuple[float, float]:
    """Return the regression-adjusted mean of `d` and its 95% half-width.

    `rows`: each run's covariates; `expected`: their exact expectations.
    """
    import math

    from sengoku.goldfish.statistics.paired import t975

    n, p = len(d), len(expected)
    mc = [sum(r[j] for r in rows) / n for j in range(p)]
    keep = [j for j in range(p) if any(r[j] != mc[j] for r in rows)]  # (a constant covariate explains nothing)
    cc = [[r[j] - mc[j] for j in keep] for r in rows]
    md = sum(d) / n
    dc = [x - md for x in d]
    q = len(keep)
    a = [[sum(c[u] * c[v] for c in cc) for v in range(q)] for u in range(q)]
    rhs = [sum(c[u] * x for c, x in zip(cc, dc)) for u in range(q)]
    inv = _inverse(a)
    beta = [sum(inv[u][v] * rhs[v] for v in range(q)) for u in range(q)]
    g = [mc[j] - expected[j] for j in keep]
    est = md - sum(b * x for b, x in zip(beta, g))
    res = sum((x - sum(b * y for b, y in zip(beta, c))) ** 2 for c, x in zip(cc, dc))
    s2 = res / (n - q - 1)
    quad = sum(g[u] * inv[u][v] * g[v] for u in range(q) for v in range(q))
    return est, t975(n - q - 1) * math.sqrt(s2 * (1 / n + quad))


def _inverse(a: list[list[float]]) -> list[list[float]]:
    """Invert a symmetric positive definite matrix (Gauss-Jordan with partial pivoting)."""
    q = len(a)
    m = [row[:] + [float(u == v) for v in range(q)] for u, row in enumerate(a)]
    for col in range(q):
        piv = max(range(col, q), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        lead = m[col][col]
        m[col] = [x / lead for x in m[col]]
        for r in range(q):
            if r != col and m[r][col]:
                f = m[r][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [row[q:] for row in m]


def timed(cmds: list[list[str]], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for cmd in cmds:
            run(cmd)
        times.append(time.perf_counter() - t)
    return min(times), statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--turns", type=int, default=12)
    ap.add_argument("--policy", default="greedy")
    ap.add_argument("--explain", action="store_true", help="also count, per case, the runs that drew a changed card")
    ap.add_argument("--matchings", action="store_true",
                    help="also replay each case under every matching of the changed copies (slow for four cards)")
    ap.add_argument("--covariates", action="store_true",
                    help="also replay each case and adjust the difference by control variates "
                         "(where the replaced copies lie in the base deck's Stronghold order)")
    ap.add_argument("--time", action="store_true", help="also time compare against two goldfish runs")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(run([*sengoku(), "--version"]).strip())

    print(f"\n1. mean kill-turn difference, compare BASE CHANGED --runs {args.runs} --seed {args.seed} "
          f"--turns {args.turns} --policy {args.policy}: 95% half-widths")
    print(f"   {'base':14s} {'change':12s} {'':36s} {'diff':>7s} {'paired':>8s} {'unpaired':>9s} {'ratio':>6s} {'goal':>5s}")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        cases = [(base, label, what, changed_deck(base, change, Path(tmp), label, k))
                 for k, (base, label, what, change) in enumerate(CHANGES)]
        cases.append((DEFAULT, "one card", f"{ONE_CARD.name}: Yukimura 4, Benkei 2", ONE_CARD))
        for base, label, what, other in cases:
            diff, paired, unpaired = half_widths(base, other, args)
            ratio = paired / unpaired if unpaired else float("nan")
            goal = GOALS[label]
            failed += not ratio <= goal
            print(f"   {base.name:14s} {label:12s} {what:36s} {diff:+7.3f} {paired:8.4f} {unpaired:9.4f} {ratio:6.2f} "
                  f"{'≤' if ratio <= goal else '>'}{goal}")
            if args.explain:
                print(f"   {'':15s}{explain(base, other, args)}")
            if args.matchings:
                print(f"   {'':15s}{matchings(base, other, args)}", flush=True)
            if args.covariates:
                print(f"   {'':15s}{covariates(base, other, args)}", flush=True)
    print(f"   {'all goals met' if not failed else f'{failed} goal(s) missed'}")

    if args.time:
        common = ["--runs", str(args.runs), "--policy", args.policy, "--json"]
        print(f"\n2. wall time, {args.runs} runs per deck (min / median of {args.repeat}):")
        decks = (DEFAULT, ONE_CARD)
        compare = [[*sengoku(), "compare", *map(str, decks), *common, "--jobs", "2"]]
        for label, cmds in (
            ("compare --jobs 2", compare),
            ("2 x goldfish --jobs 1", [[*sengoku(), "goldfish", str(d), *common, "--jobs", "1"] for d in decks]),
            ("2 x goldfish --jobs 2", [[*sengoku(), "goldfish", str(d), *common, "--jobs", "2"] for d in decks]),
        ):
            lo, med = timed(cmds, args.repeat)
            print(f"   {label:24s} {lo:6.2f} s / {med:6.2f} s")


if __name__ == "__main__":
    main()
