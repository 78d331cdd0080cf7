"""The fitted rules' weighted sums: a value in turns from a choice's features and the weights that
benchmarks/fit_charges.py and fit_focus.py fitted to the search's rollouts (`charge_weights`,
`focus_weights`, beside this module).

The features themselves are defined beside the decisions they weigh (`charges`, `deploy`), once:
the policy and the fit scripts both read them there.
"""

from __future__ import annotations


def fitted_value(x: list[float], weights: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]],
                 second: float, ultimate: float) -> float:
    """A fitted rule's value of features `x`: each weight with its parts going second and in
    Ultimate mode (`charge_weights.CARD`, `focus_weights.FOCUS`)."""
    w0, w1, w2 = weights
    v = 0.0
    for i in range(len(x)):
        v += x[i] * (w0[i] + second * w1[i] + ultimate * w2[i])
    return v



def combined_weights(weights: tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]], second: float,
                     ultimate: float) -> list[float]:
    """Each weight of a fitted rule with its parts going second and in Ultimate mode added, as
    `fitted_value` adds them (the same floating-point sums): worked out once per setting."""
    w0, w1, w2 = weights
    return [w0[i] + second * w1[i] + ultimate * w2[i] for i in range(len(w0))]
