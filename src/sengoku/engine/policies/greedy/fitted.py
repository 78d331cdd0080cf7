"""The fitted rules' weighted sums: a value in turns from a choice's features and the weights that
benchmarks/fit_charges.py, fit_focus.py and fit_deploy.py fitted to the search's rollouts
(`charge_weights`, `focus_weights`, `deploy_weights`, beside this module).

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


def setting_value(x: list[float], weights: tuple[tuple[float, ...], ...], factors: list[float]) -> float:
    """A fitted rule's value of features `x` when each weight has a part per factor of the setting
    (1, going second, Ultimate mode, a defending opponent: `deploy_weights.DEPLOY`)."""
    v = 0.0
    for j in range(len(factors)):
        f = factors[j]
        if f:
            w = weights[j]
            for i in range(len(x)):
                xi = x[i]
                if xi != 0.0:  # (a zero feature adds nothing: skipped, the sum is the same)
                    v += f * xi * w[i]
    return v
