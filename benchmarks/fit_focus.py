"""Fit the default policy's turn-1 rule for Focus or deployment to the search's rollouts (writes focus_weights.py).

    python benchmarks/fit_focus.py [--seed 1 --seed 2] [--deals 1000] [--rollouts 32] [--jobs 2]
        [--out src/sengoku/engine/policies/greedy/focus_weights.py] [--choices FILE] [--set MANIFEST]

Needs numpy (`pip install -e '.[fit]'`). For deals 0..deals-1 of every suite deck (or `--set` deck) and setting, at
each `--seed`, it plays turn 1 with `greedy` and, at each card that could Focus (M3) onto a
Nameless out of its range or be deployed (M1) in range instead (`greedy.deploy.focus_or_deploy`),
scores both on `--rollouts` copies played to the end of the game (the search's rollouts, the same
copies for both), then Focuses as greedy does without the rule. The rollouts are played by
`greedy` without `fitted_focus`, so the data do not depend on the weights they fit. The model:
how many turns sooner the deployment wins is linear in the choice's features
(`greedy.deploy.focus_features`), each weight with a part of its own going second and in Ultimate
mode; least squares. The same arguments write the same file.
"""

from __future__ import annotations

from pathlib import Path

from fit_charges import command_line, fit_main, play_turn_1, scorer

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "src" / "sengoku" / "engine" / "policies" / "greedy" / "focus_weights.py"
FEATURES = ("one", "level 1", "level 2", "level 3", "level 4", "cost / 5", "charge value",
            "higher levels of its name in hand (at most 2)", "other Nameless on the Battlefield", "AP / 10",
            "going second", "Ultimate mode", "a defending opponent", "free Perimeter spaces in its range",
            "allies / 5", "its hit chance", "the hit chance of the card that grows onto it",
            "the Commander's name", "its spaces in range / 5", "the Nameless's spaces in range / 5")


def score_choices(task: tuple[str, str, int, int, int, int]) -> list[dict]:
    """Deals start..stop-1 of one deck and setting: every turn-1 Focus-or-deploy choice, both scored."""
    from sengoku.engine.actions import Action, Kind
    from sengoku.engine.policies.greedy.deploy import focus_features, focus_or_deploy

    deck, setting, start, stop, seed, rollouts = task
    out: list[dict] = []

    class Scorer(scorer(("fitted_focus",))):
        def _deploys_instead(self, state, card, ally) -> bool:
            if state.turn == 1:
                space = focus_or_deploy(self.known, state, card, ally)
                if space >= 0:
                    p = state.hand.index(card)
                    focus = Action(Kind.STACK, (p, state.allies.index(ally)))
                    deploy = Action(Kind.DEPLOY, (p, space))
                    seeds = [state.policy_rng.getrandbits(64) for _ in range(rollouts)]
                    gain = self._score(state, focus, seeds, False) - self._score(state, deploy, seeds, False)
                    out.append({"deck": deck, "setting": setting, "x": focus_features(self.known, state, card, ally),
                                "gain": gain})
            return False

    play_turn_1(deck, setting, Scorer(), start, stop, seed)
    return out


def fit(choices: list[dict]):
    """Least squares: the deployment's gain from the features and their parts going second and in Ultimate mode."""
    import numpy as np

    rows = []
    for c in choices:
        x = c["x"]
        second, ultimate = x[FEATURES.index("going second")], x[FEATURES.index("Ultimate mode")]
        rows.append(list(x) + [second * v for v in x] + [ultimate * v for v in x])
    w, *_ = np.linalg.lstsq(np.array(rows), np.array([c["gain"] for c in choices]), rcond=None)
    w = [round(float(v), 6) + 0.0 for v in w]
    n = len(FEATURES)
    return tuple(tuple(w[j * n:(j + 1) * n]) for j in range(3))


def render(weights, choices: int, command: str) -> str:
    rows = "".join(f"    {tuple(r)!r},\n" for r in weights)
    return f'''"""The default policy's turn-1 rule for Focus or deployment: weights fitted to the search's rollouts.

Written by `{command}` ({choices:,} choices); do not edit by hand. Used by
`greedy.deploy.deploys_instead` (`fitted_focus`): the deployment's value in turns (higher: it
wins sooner than the Focus) is x . (FOCUS[0] + second * FOCUS[1] + ultimate * FOCUS[2]), with x
the choice's features in the order of FEATURES (`greedy.deploy.focus_features`).
"""

from typing import Final

FEATURES: Final = {FEATURES!r}

FOCUS: Final[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = (
{rows})
'''


def main(argv: list[str] | None = None) -> int:
    def write(choices: list[dict], args) -> str:
        args.out.write_text(render(fit(choices), len(choices), command_line("fit_focus.py", args)), encoding="utf-8")
        return f"{len(choices)} choices: weights written to {args.out}"

    return fit_main(argv, __doc__, OUT, 1000, 32, 250, ("--choices", "also write the scored choices here (JSON)"),
                    score_choices, write)


if __name__ == "__main__":
    raise SystemExit(main())
