"""The default policy's turn-1 rule for Focus or deployment: weights fitted to the search's rollouts.

Written by `python benchmarks/fit_focus.py --seed 1 --seed 2 --deals 1000 --rollouts 32` (52,724 choices); do not edit by hand. Used by
`greedy.deploy.deploys_instead` (`fitted_focus`): the deployment's value in turns (higher: it
wins sooner than the Focus) is x . (FOCUS[0] + second * FOCUS[1] + ultimate * FOCUS[2]), with x
the choice's features in the order of FEATURES (`greedy.deploy.focus_features`).
"""

from typing import Final

FEATURES: Final = ('one', 'level 1', 'level 2', 'level 3', 'level 4', 'cost / 5', 'charge value', 'higher levels of its name in hand (at most 2)', 'other Nameless on the Battlefield', 'AP / 10', 'going second', 'Ultimate mode', 'a defending opponent', 'free Perimeter spaces in its range', 'allies / 5', 'its hit chance', 'the hit chance of the card that grows onto it', "the Commander's name", 'its spaces in range / 5', "the Nameless's spaces in range / 5")

FOCUS: Final[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = (
    (-0.315426, -0.083344, -0.118438, -0.066743, -0.046901, -0.192246, 0.010496, 0.06577, -0.092791, 0.18479, -0.154633, 0.456728, -0.002908, -0.015368, 0.344746, 0.302201, 0.00463, 0.0, -0.109358, -0.12617),
    (-0.154633, 0.182653, 0.083582, -0.136488, -0.284381, 0.17597, -0.021785, -0.036905, 0.076584, -0.028503, -0.154633, -0.039597, -0.063405, 0.012786, -0.121155, -0.158468, -0.215409, 0.0, 0.625366, -0.061853),
    (0.456728, 0.215385, 0.47003, -0.288078, 0.05939, 0.26769, -0.425602, 0.02926, -0.488499, 0.005344, -0.039597, 0.456728, -0.03561, -0.009151, -0.001012, 0.615153, -0.188601, 0.0, -0.840042, 0.182691),
)
