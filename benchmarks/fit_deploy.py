"""Fit the default policy's turn-1 rule for deployment spaces to the search's rollouts (writes deploy_weights.py).

    python benchmarks/fit_deploy.py [--seed 1 --seed 2] [--deals 1000] [--rollouts 24] [--jobs 2]
        [--out src/sengoku/engine/policies/greedy/deploy_weights.py] [--choices FILE] [--set MANIFEST]

Needs numpy (`pip install -e '.[fit]'`). For deals 0..deals-1 of every suite deck (or `--set` deck) and setting, at
each `--seed`, it plays turn 1 with `greedy` and, at each deployment (M1) for which greedy takes a
free Perimeter space in the card's range while another free Perimeter space is left
(`greedy.deploy.deploy_spaces`), scores every free Perimeter space on `--rollouts` copies played to
the end of the game (the search's rollouts, the same copies for every space), then deploys where
greedy does without the rule. The rollouts are played by `greedy` without `fitted_deploy`, so the
data do not depend on the weights they fit. The model: a space's value is linear in its features
(`greedy.deploy.deploy_features`), each weight with a part of its own going second, in Ultimate
mode and against a defending opponent; how many turns sooner another space wins than greedy's is
its value minus that of greedy's space; least squares. The same arguments write the same file
(the defaults: 94,640 deployments, about 9 CPU minutes compiled).
"""

from __future__ import annotations

from pathlib import Path

from fit_charges import command_line, fit_main, play_turn_1, scorer

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "sengoku" / "engine" / "policies" / "greedy" / "deploy_weights.py"
FEATURES = ("in range of the card on top this turn", "in range of the card deployed",
            "Moves to a space in range (at most 4) / 4", "the Backline", "share of the deck's cards in range",
            "other new names in hand in range (at most 3) / 3",
            "other new names in hand with no other free Perimeter space in range (at most 2) / 2",
            "the Commander in the Command Zone in range", "in range, the top card's level / 4",
            "Moves times AP left / 40", "left of the Stronghold's column", "right of the Stronghold's column",
            "free neighbouring spaces / 4", "next to the space a defending opponent's Commander would take")
PARTS = 4  # a weight's parts: itself, going second, Ultimate mode, a defending opponent


def score_choices(task: tuple[str, str, int, int, int, int]) -> list[dict]:
    """Deals start..stop-1 of one deck and setting: every turn-1 deployment with a choice of space, each space scored."""
    from sengoku.engine.actions import Action, Kind
    from sengoku.engine.policies.greedy import GreedyPolicy
    from sengoku.engine.policies.greedy.deploy import deploy_features, deploy_spaces

    deck, setting, start, stop, seed, rollouts = task
    out: list[dict] = []

    class Scorer(scorer(("fitted_deploy",))):
        def _deploy_space(self, state, card):
            if state.turn == 1:
                spaces = deploy_spaces(self.known, state, card)
                if len(spaces) > 1:
                    p = state.hand.index(card)
                    seeds = [state.policy_rng.getrandbits(64) for _ in range(rollouts)]
                    scores = [self._score(state, Action(Kind.DEPLOY, (p, s)), seeds, False) for s in spaces]
                    out.append({"deck": deck, "setting": setting, "seed": seed, "deal": self.deal,
                                "card": state.t.card_id[card], "spaces": spaces, "second": not state.going_first,
                                "ultimate": state.t.ultimate, "defends": state.opp_defends,
                                "x": [deploy_features(self.known, state, card, s) for s in spaces], "scores": scores})
            return GreedyPolicy._deploy_space(self, state, card)

    play_turn_1(deck, setting, Scorer(), start, stop, seed)
    return out


def fit(choices: list[dict]):
    """Least squares: each other space's gain over greedy's from the difference of their features (and parts)."""
    import numpy as np

    rows, target = [], []
    for c in choices:
        factors = (1.0, float(c["second"]), float(c["ultimate"]), float(c["defends"]))
        own = c["x"][0]
        for x, score in zip(c["x"][1:], c["scores"][1:]):
            d = [a - b for a, b in zip(x, own)]
            rows.append([f * v for f in factors for v in d])
            target.append(c["scores"][0] - score)
    w, *_ = np.linalg.lstsq(np.array(rows), np.array(target), rcond=None)
    w = [round(float(v), 6) + 0.0 for v in w]
    n = len(FEATURES)
    return tuple(tuple(w[j * n:(j + 1) * n]) for j in range(PARTS)), len(rows)


def render(weights, choices: int, spaces: int, command: str) -> str:
    rows = "".join(f"    {tuple(r)!r},\n" for r in weights)
    return f'''"""The default policy's turn-1 rule for deployment spaces: weights fitted to the search's rollouts.

Written by `{command}` ({choices:,} deployments, {spaces:,} other spaces); do not edit by hand.
Used by `greedy.deploy.fitted_space` (`fitted_deploy`): a space's value in turns (higher: it wins
sooner) is x . (DEPLOY[0] + second * DEPLOY[1] + ultimate * DEPLOY[2] + defends * DEPLOY[3]), with
x the space's features in the order of FEATURES (`greedy.deploy.deploy_features`).
"""

from typing import Final

FEATURES: Final = {FEATURES!r}

DEPLOY: Final[tuple[tuple[float, ...], ...]] = (
{rows})
'''


def main(argv: list[str] | None = None) -> int:
    def write(choices: list[dict], args) -> str:
        weights, spaces = fit(choices)
        args.out.write_text(render(weights, len(choices), spaces, command_line("fit_deploy.py", args)), encoding="utf-8")
        return f"{len(choices)} deployments, {spaces} other spaces: weights written to {args.out}"

    return fit_main(argv, __doc__, OUT, 1000, 24, 250, ("--choices", "also write the scored deployments here (JSON)"),
                    score_choices, write)


if __name__ == "__main__":
    raise SystemExit(main())
