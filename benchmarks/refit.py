"""Refit greedy's two fitted turn-1 rules on the fit set, in order, with one command.

    python benchmarks/refit.py [--set benchmarks/decksets/fit.toml] [--out-dir src/sengoku/engine/policies/greedy]
        [--only charges|focus ...] [--seed 1 --seed 2] [--deals N] [--rollouts N] [--deck NAME ...] [--jobs 2]

Issue 36 point 4 (SPEC G6): the fitted rules of `greedy` (`fitted_charges` and `fitted_focus`:
weights in charge_weights.py and focus_weights.py) are fitted on the fit set only (a set that
shares a deck or a generated card database with the test set is refused, `set_rows.fit_only`), by
`fit_charges.py` and `fit_focus.py` in that order, each with `--set` and the options given here (`--deals` and `--rollouts`: each script's own
default when not given). Each runs as a process of its own, after the one before it has written
its weights: the Focus rule is fitted on games whose turn-1 Charge Phase plays the charge weights.
(The charge rule's sets are scored by greedy as it plays, the Focus rule with the weights it has
then; the committed charge weights: `--only charges --seed 1 --deals 50`.)
(A third rule, for the turn-1 deployment space, was removed with `fitted_deploy`: it cost turns on
the test set, docs/policies.md.) So that a later fit plays the weights just written,
`--out-dir` must be the folder the running `sengoku` reads them from (the default, with the
checkout installed editable: `pip install -e '.[fit]'`); with another folder, or an installed
wheel, the later fits play the installed weights, and the command says so. The same arguments
write the same files (each script's deals, rollouts and fit are fixed).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCHMARKS))
import set_rows  # noqa: E402  (the benchmarks' own helpers)

# In the order they are fitted: (name, script, weights file).
FITS = (("charges", "fit_charges.py", "charge_weights.py"), ("focus", "fit_focus.py", "focus_weights.py"))


def read_by_sengoku(folder: Path) -> bool:
    """Whether the `sengoku` this Python imports reads greedy's weights from `folder`."""
    from sengoku.engine.policies.greedy import charge_weights

    return Path(charge_weights.__file__).resolve().parent == folder.resolve()


def commands(args: argparse.Namespace) -> list[list[str]]:
    """The command line of each fit, in order."""
    out = []
    for name, script, weights in FITS:
        if args.only and name not in args.only:
            continue
        line = [sys.executable, str(BENCHMARKS / script), "--set", str(args.set), "--out",
                str(args.out_dir / weights), "--jobs", str(args.jobs)]
        for seed in args.seed or ():
            line += ["--seed", str(seed)]
        if args.deals is not None:
            line += ["--deals", str(args.deals)]
        if args.rollouts is not None:
            line += ["--rollouts", str(args.rollouts)]
        for deck in args.deck or ():
            line += ["--deck", deck]
        out.append(line)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=set_rows.FIT_SET, help="the fit set's manifest (the default)")
    parser.add_argument("--out-dir", type=Path, help="where the weights are written (default: where sengoku reads them)")
    parser.add_argument("--only", action="append", choices=[f[0] for f in FITS], help="default: both, in order")
    parser.add_argument("--seed", type=int, action="append", help="each script's own default: 1 and 2")
    parser.add_argument("--deals", type=int, help="deals a deck and setting (default: each script's own)")
    parser.add_argument("--rollouts", type=int, help="rollouts a choice (default: each script's own)")
    parser.add_argument("--deck", action="append", help="only these decks of the set (a quick look, not for weights to keep)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if args.out_dir is None:
        from sengoku.engine.policies.greedy import charge_weights

        args.out_dir = Path(charge_weights.__file__).resolve().parent
    if not args.out_dir.is_dir():
        parser.error(f"--out-dir {args.out_dir} is not a folder")
    if len(args.only or [f[0] for f in FITS]) > 1 and not read_by_sengoku(args.out_dir):
        print(f"note: sengoku reads greedy's weights from elsewhere than {args.out_dir}: the later fits play the "
              "installed weights, not those written before them", flush=True)
    for line in commands(args):
        print("$ python " + " ".join(Path(a).relative_to(BENCHMARKS.parent).as_posix()
                                     if a.startswith(str(BENCHMARKS)) else a for a in line[1:]), flush=True)
        done = subprocess.run(line, check=False)
        if done.returncode != 0:
            print(f"{Path(line[1]).name} ended with exit code {done.returncode}; the later fits were not run",
                  file=sys.stderr)
            return done.returncode
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
