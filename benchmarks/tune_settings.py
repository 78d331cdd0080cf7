"""Choose greedy's settings on the fit set: a paired race of one-setting changes against the current record.

    python benchmarks/tune_settings.py [--set benchmarks/decksets/fit.toml] [--out chosen-settings.json]
        [--screen 20] [--finalists 4] [--confirm 50] [--looks 3] [--steps 1] [--name NAME ...]
        [--setting S ...] [--deck NAME ...] [--min-gain 0.005] [--alpha 0.05] [--turns 12] [--seed 0] [--jobs 1]

Issue 36 point 4 (SPEC G6): the settings of `greedy` are one record (`GreedySettings`), and a
machine, not a hand, chooses them, on the fit set only (`benchmarks/decksets/fit.toml`; a set that
shares a deck or a generated card database with the test set is refused: `set_rows.fit_only`).

A step races every change of one setting of the current record (the incumbent): a flag flipped, a
count one lower or higher, a threshold half a step lower or higher (`neighbours`; `--name` races
only those settings). Every candidate plays the same deals as the incumbent, deal i of a row from
run i's seeds (`set_rows`), so each deal gives one paired improvement: the incumbent's kill turn
minus the candidate's (a game not won counts as turns + 1). The race is `sengoku tune`'s own
(`sengoku.tune.race`), in its two stages, each on run indices of its own (step k plays runs from
k x 1,000,000 on):
- **screening**: every candidate on `--screen` deals a row; those whose 95% interval lies below
  `--min-gain` or below the leader's are dropped, and the best `--finalists` by mean go on;
- **confirmation**: the finalists on fresh deals, judged after `--confirm`, twice and four times as
  many deals a row (`--looks`); a finalist is accepted when its one-sided lower bound at the
  race's level (`race.look_level`: `--alpha` spent over finalists, looks and steps) is above 0, the
  drop rules as in screening. The accepted finalist with the best mean becomes the incumbent.
A run stops after `--steps` steps or at the first step that accepts nothing. The chosen record
(every setting, those changed from the policy's own, each accepted change with its figures, the
set's digest and the command) is written to `--out` as JSON, whole or not at all, after each step.
The race is printed as it goes.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import set_rows  # noqa: E402  (the benchmarks' own helpers)
from policy_bench import SETTINGS  # noqa: E402

STEP_RUNS = 1_000_000  # step k's runs start at k x this: every stage and step meets fresh deals

# kills(records, start, stop): for each settings record, its kill turns on deals start..stop-1 of
# every row, row after row (the same order for every record, so that they pair up)
Kills = Callable[[list[Any], int, int], list[list[int]]]


def neighbours(record: Any, names: list[str] | None = None) -> list[dict[str, Any]]:
    """The one-setting changes of a record: a flag flipped; a count one lower (not below 0) or higher; a
    threshold lower or higher by half its value (by 0.01 from 0), not below 0."""
    out: list[dict[str, Any]] = []
    for name, kind in type(record).names().items():
        if names and name not in names:
            continue
        value = getattr(record, name)
        if kind is bool:
            out.append({name: not value})
        elif kind is int:
            out += [{name: v} for v in (value - 1, value + 1) if v >= 0]
        else:
            step = abs(value) / 2 or 0.01
            out += [{name: round(v, 6)} for v in (value - step, value + step) if v >= 0]
    return out


def improvements(base: list[int], other: list[int]):
    """The integer sums of the paired improvements: the incumbent's kill turn minus the candidate's, deal by deal."""
    from sengoku.goldfish.statistics.paired import Sums

    sums = Sums()
    for a, b in zip(base, other):
        sums.add(a - b)
    return sums


def race_step(incumbent: Any, changes: list[dict[str, Any]], kills: Kills, step: int, args: argparse.Namespace,
              say: Callable[[str], None] = print) -> dict[str, Any] | None:
    """Race `changes` of `incumbent` (see the module's doc); return the accepted change with its figures, or None."""
    from sengoku.tune.race import judge, look_level, screen_cut

    records = [incumbent] + [dataclasses.replace(incumbent, **c) for c in changes]
    first = step * STEP_RUNS
    played = kills(records, first, first + args.screen)
    racing = [improvements(played[0], k) for k in played[1:]]
    verdicts = judge(racing, None, args.min_gain)
    means = {i: racing[i].mean for i, v in enumerate(verdicts) if not v.drop}
    finalists = screen_cut(means, args.finalists)
    say(f"step {step + 1}: screening, {len(changes)} changes on {args.screen} deals a row: "
        + (", ".join(f"{label(changes[i])} {racing[i].mean:+.4f}" for i in finalists) + " go on" if finalists
           else "none goes on") + f" ({len(changes) - len(means)} dropped)")
    if not finalists:
        return None
    first += args.screen
    base: list[int] = []
    got: dict[int, list[int]] = {i: [] for i in finalists}
    done = 0
    for look in range(1, args.looks + 1):
        upto = args.confirm * 2 ** (look - 1)
        played = kills([incumbent] + [records[i + 1] for i in finalists], first + done, first + upto)
        base += played[0]
        for i, k in zip(finalists, played[1:]):
            got[i] += k
        done = upto
        sums = [improvements(base, got[i]) for i in finalists]
        level = look_level(args.alpha, len(got), look, step + 1)
        verdicts = judge(sums, level, args.min_gain)
        say(f"  look {look} ({upto} deals a row): " + "; ".join(
            f"{label(changes[i])} {v.mean:+.4f} (95% {fmt(v.ci95)}, bound {v.bound:+.4f})"
            + (" accepted" if v.accept else " dropped" if v.drop else "") for i, v in zip(finalists, verdicts)))
        accepted = [(v.mean, i, v) for i, v in zip(finalists, verdicts) if v.accept]
        if accepted:
            mean, i, v = max(accepted, key=lambda a: (a[0], -a[1]))
            return {"change": changes[i], "mean": round(mean, 6), "ci95": v.ci95 and [round(x, 6) for x in v.ci95],
                    "bound": round(v.bound, 6), "level": level, "pairs": len(base)}
        finalists = [i for i, v in zip(finalists, verdicts) if not v.drop]
        if not finalists:
            return None
    return None


def label(change: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in change.items())


def fmt(ci: tuple[float, float] | None) -> str:
    return "none" if ci is None else f"{ci[0]:+.4f} to {ci[1]:+.4f}"


def tune(start: Any, kills: Kills, args: argparse.Namespace, write: Callable[[Any, list[dict]], None] | None = None,
         say: Callable[[str], None] = print) -> tuple[Any, list[dict[str, Any]]]:
    """Step by step, race the incumbent's one-setting changes and take the accepted one; return the chosen
    record and the accepted changes (with their figures). `write(record, accepted)` is called after each step."""
    record, accepted = start, []
    for step in range(args.steps):
        won = race_step(record, neighbours(record, args.name), kills, step, args, say)
        if won is None:
            say(f"step {step + 1}: no change earns its place; the record stays")
            break
        record = dataclasses.replace(record, **won["change"])
        accepted.append(won)
        say(f"step {step + 1}: accepted {label(won['change'])}")
        if write is not None:
            write(record, accepted)
    return record, accepted


def set_kills(rows: list[tuple[str, str]], jobs: int) -> Kills:
    """The kill turns of settings records on a set's rows (`set_rows.play`), in processes."""
    def kills(records: list[Any], start: int, stop: int) -> list[list[int]]:
        tasks = [(row, r, start, stop) for r in records for row in rows]
        out: list[list[int]] = [[] for _ in records]
        for k, (_, played) in enumerate(set_rows.play_all(tasks, jobs)):
            out[k // len(rows)] += played
        return out
    return kills


def document(record: Any, accepted: list[dict[str, Any]], info: dict[str, Any]) -> str:
    """The chosen record as JSON: every setting, those that differ from the policy's own, the race's figures."""
    own = type(record)()
    values = {name: getattr(record, name) for name in type(record).names()}
    changed = {n: v for n, v in values.items() if v != getattr(own, n)}
    return json.dumps({**info, "policy": "greedy", "changed": changed, "accepted": accepted, "settings": values},
                      indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=set_rows.FIT_SET, help="the fit set's manifest (the default)")
    parser.add_argument("--out", type=Path, default=Path("chosen-settings.json"), help="the chosen record (JSON)")
    parser.add_argument("--screen", type=int, default=20, help="screening deals a row")
    parser.add_argument("--finalists", type=int, default=4)
    parser.add_argument("--confirm", type=int, default=50, help="deals a row at the first confirmation look")
    parser.add_argument("--looks", type=int, default=3, help="confirmation looks (each doubling the deals)")
    parser.add_argument("--steps", type=int, default=1, help="changes accepted at most, one a step")
    parser.add_argument("--name", action="append", help="race only these settings (default: every one)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS), help="default: all four")
    parser.add_argument("--deck", action="append", help="only these decks of the set")
    parser.add_argument("--min-gain", type=float, default=0.005, help="turns a change must be able to win")
    parser.add_argument("--alpha", type=float, default=0.05, help="the chance of accepting a change that is no gain")
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result does not depend on it)")
    args = parser.parse_args(argv)
    for name in ("screen", "confirm", "looks", "steps", "finalists"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")

    from sengoku.engine.errors import EngineError
    from sengoku.engine.policies.greedy import GreedySettings
    from sengoku.writes import write_atomically

    from sengoku.engine.policies.greedy.settings import REMOVED, removed_setting

    for name in args.name or ():
        if name in REMOVED:
            parser.error(removed_setting(name))
    unknown = [n for n in args.name or () if n not in GreedySettings.names()]
    if unknown:
        parser.error(f"greedy has no setting {', '.join(unknown)}")
    command = "python benchmarks/tune_settings.py " + " ".join(sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory() as folder:
        manifest, built = set_rows.build_set(args.set, Path(folder) / "set")
        set_rows.fit_only(built, folder)
        rows = set_rows.make_rows(built, args.setting or list(SETTINGS), args.turns, args.seed, args.deck)
        if not rows:
            raise SystemExit(f"no deck {', '.join(args.deck or ())} in {args.set}")
        info = {"command": command.rstrip(), "set": manifest.name, "digest": built.digest, "rows": len(rows),
                "turns": args.turns, "seed": args.seed}
        print(f"greedy's settings raced on the {manifest.name} set (digest {built.digest[:12]}), {len(rows)} rows")
        print(f"command: {info['command']}")
        sys.stdout.flush()

        def write(record: Any, accepted: list[dict[str, Any]]) -> None:
            write_atomically(args.out, document(record, accepted, info), replace=True)

        try:
            record, accepted = tune(GreedySettings(), set_kills(rows, args.jobs), args, write,
                                    lambda line: print(line, flush=True))
        except EngineError as exc:
            raise SystemExit(str(exc)) from None
        write(record, accepted)
    print(f"chosen record written to {args.out}: " + (", ".join(label(a["change"]) for a in accepted) or
                                                      "greedy's own settings, unchanged"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
