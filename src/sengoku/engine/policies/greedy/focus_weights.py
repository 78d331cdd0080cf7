"""The default policy's turn-1 rule for Focus or deployment: weights fitted to the search's rollouts.

Written by `python benchmarks/fit_focus.py --seed 1 --seed 2 --deals 200 --rollouts 24 --set benchmarks/decksets/fit.toml` (55,489 choices); do not edit by hand. Used by
`greedy.deploy.deploys_instead` (`fitted_focus`): the deployment's value in turns (higher: it
wins sooner than the Focus) is x . (FOCUS[0] + second * FOCUS[1] + ultimate * FOCUS[2]), with x
the choice's features in the order of FEATURES (`greedy.deploy.focus_features`).
"""

from typing import Final

FEATURES: Final = ('one', 'level 1', 'level 2', 'level 3', 'level 4', 'cost / 5', 'charge value', 'higher levels of its name in hand (at most 2)', 'other Nameless on the Battlefield', 'AP / 10', 'going second', 'Ultimate mode', 'a defending opponent', 'free Perimeter spaces in its range', 'allies / 5', 'its hit chance', 'the hit chance of the card that grows onto it', "the Commander's name", 'its spaces in range / 5', "the Nameless's spaces in range / 5")

FOCUS: Final[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = (
    (-0.285678, -0.074504, -0.076057, -0.06642, -0.068697, -0.134499, 0.021475, 0.042707, -0.020597, 0.126122, -0.263523, 0.0423, -0.021611, 0.037808, 0.284696, 0.096077, 0.055334, 0.0, -0.167796, -0.114271),
    (-0.263523, 0.034297, -0.028636, -0.095486, -0.173698, 0.055236, -0.001466, -0.021181, 0.040703, 0.049324, -0.263523, 0.014403, -0.021551, -0.002212, 1.04105, 0.088647, -0.292996, 0.0, 0.027865, -0.105409),
    (0.0423, -0.000824, -0.002611, 0.008208, 0.037527, -0.115763, 0.007294, 0.011623, -0.063204, -0.019337, 0.014403, 0.0423, -0.020372, -0.018238, -0.172858, 0.397902, -0.164612, 0.0, 0.122245, 0.01692),
)
