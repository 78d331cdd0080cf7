"""What one step of look-ahead would still win over the default policy: an honest estimate, by kind of action.

    python benchmarks/step_potential.py [--turn 1] [--deals 200] [--deck NAME ...] [--setting S ...]
        [--rollouts 16] [--margin 0.1] [--seed 11] [--jobs 2]

For deals 0..deals-1 of the suite's decks (decklists/suite/) and settings, `greedy` plays up to the
Main Phase of turn `--turn`; there every distinct legal action, and "let greedy play the turn",
is scored on `--rollouts` shared copies played to the end of the game (the search's rollouts);
the best action, when it beats greedy's own turn by more than `--margin` turns, is scored again
against greedy's turn on `--rollouts` fresh copies. That second score is the honest estimate: the
first one chose the action, so it is biased upward (the winner's curse), the second is not. A
deal where no action beats greedy's turn counts 0. Then greedy plays the turn as it would.

Prints, per deck and setting, the gain per deal (turns sooner, with the 95% interval over the
deals) and how it splits by the kind of the chosen action: where a rule for the default policy
could still win time on the first step of that turn, and how much at most from that one step.
The seed defaults to 11, other deals than the benchmarks' (0) and the fits' (1, 2). Needs
nothing beyond the project; `--jobs` does not change the figures.
"""

from __future__ import annotations

import argparse
from collections import Counter

from policy_bench import SETTINGS, SUITE, deals, in_processes, mean_ci


def potential(task: tuple[str, str, int, int, int, int, int, float]) -> list[tuple[float, str]]:
    """Deals start..stop-1 of one deck and setting: per deal, (honest gain, kind of the chosen action or '')."""
    from sengoku.engine.policies.greedy import GreedyPolicy
    from sengoku.engine.policies.search import _FINISH

    from fit_charges import scorer

    deck, setting, start, stop, seed, turn, rollouts, margin = task
    out: list[tuple[float, str]] = []

    class Scorer(scorer(())):
        def main_phase(self, state) -> None:
            if state.turn == turn and state.won_turn is None:
                options, seen = [_FINISH], set()
                for action in state.legal_actions():
                    key = self._key(state, action)
                    if key not in seen:
                        seen.add(key)
                        options.append(action)
                seeds = [state.policy_rng.getrandbits(64) for _ in range(2 * rollouts)]
                first = [self._score(state, o, seeds[:rollouts], False) for o in options]
                best = min(range(len(options)), key=lambda k: (first[k], k))
                if best and first[best] < first[0] - margin:
                    fresh = seeds[rollouts:]
                    gain = self._score(state, _FINISH, fresh, False) - self._score(state, options[best], fresh, False)
                    out.append((gain, options[best].kind.name.lower()))
                else:
                    out.append((0.0, ""))
            GreedyPolicy.main_phase(self, state)

    for _ in deals(deck, setting, Scorer(), start, stop, turn, seed):  # up to the end of turn `turn`
        pass
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turn", type=int, default=1, help="the turn whose first Main Phase step is searched")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--deck", action="append", help="suite deck names (default: every deck of decklists/suite/)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS), help="default: all four")
    parser.add_argument("--rollouts", type=int, default=16, help="copies per option, in each of the two stages")
    parser.add_argument("--margin", type=float, default=0.1, help="turns an action must win by in the first stage")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result does not depend on it)")
    args = parser.parse_args(argv)
    if args.turn < 1 or args.deals < 1 or args.rollouts < 1:
        parser.error("--turn, --deals and --rollouts must be at least 1")
    decks = args.deck or sorted(p.stem for p in SUITE.glob("*.toml"))
    print(f"greedy's first Main Phase step of turn {args.turn} against one step of look-ahead, {args.deals} deals, "
          f"{args.rollouts} + {args.rollouts} rollouts, margin {args.margin}, seed {args.seed}")
    part = 25
    for deck in decks:
        for setting in args.setting or list(SETTINGS):
            tasks = [(deck, setting, lo, min(args.deals, lo + part), args.seed, args.turn, args.rollouts, args.margin)
                     for lo in range(0, args.deals, part)]
            found: list[tuple[float, str]] = []
            for done in in_processes(potential, tasks, args.jobs):
                found += done
            gains = [g for g, _ in found] + [0.0] * (args.deals - len(found))  # won before the turn: nothing to gain
            m, h = mean_ci(gains)
            count, total = Counter(), Counter()
            for g, kind in found:
                if kind:
                    count[kind] += 1
                    total[kind] += g
            kinds = ", ".join(f"{k} {count[k]} ({total[k] / args.deals:+.3f})" for k, _ in count.most_common())
            print(f"{deck:20} {setting:14} {m:+.3f} ± {h:.3f} turns a deal; chosen: {kinds or 'none'}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
