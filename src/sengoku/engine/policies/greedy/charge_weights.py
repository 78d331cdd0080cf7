"""The default policy's turn-1 Charge Phase rule: weights fitted to the search's rollouts.

Written by `python benchmarks/fit_charges.py --seed 1 --seed 2 --deals 600 --rollouts 24` (38,400 turn-1 hands, 980,766 sets of cards
sent); do not edit by hand. Used by `greedy.charges.charge_fitted` (`fitted_charges`).

A card the plan keeps is valued x . (CARD[0] + second * CARD[1] + ultimate * CARD[2]), with x its
features in the order of CARD_FEATURES (`greedy.charges.charge_features`); sending k of them adds
SIZE[0][k-1] + second * SIZE[1][k-1] + ultimate * SIZE[2][k-1] + defends * SIZE[3][k-1]
+ AP/10 * SIZE[4][k-1] (k of 7 or more: the last). Values are in turns: lower wins sooner.
"""

from typing import Final

CARD_FEATURES: Final = ('one', 'level 1', 'level 2', 'level 3', 'level 4', 'charge value', 'cost / 5', 'support', 'nameless', 'can grow or focus now', 'copies of its name in hand (at most 2)', "the Commander's name", 'lowest level of its name in hand', 'affordable this turn', 'a new name to deploy now', "the turn's AP / 10", 'cards kept / 5')

CARD: Final[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = (
    (-0.042766, -0.057416, -0.020696, -0.004046, 0.039392, 0.002564, -0.002694, -0.004763, 0.0, -0.021009, -0.044027, -0.014341, -0.033583, 0.001072, 0.030083, -0.003438, 0.109061),
    (-0.072002, 0.025243, 0.005219, -0.036554, -0.065909, -0.016092, 0.094801, -0.008042, 0.0, 0.07457, -0.018727, -0.011077, -0.005441, 0.024398, 0.016597, 0.000673, -0.02229),
    (0.077842, -0.014775, -0.009107, 0.035453, 0.066271, -0.004618, -0.043041, 0.037087, 0.0, -0.028711, -0.004505, 0.038237, 0.012899, -0.006861, 0.00213, 0.008979, -0.049104),
)

SIZE: Final[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = (
    (0.00915, 0.007212, 0.002776, -0.004277, -0.011512, 0.0, 0.0),
    (-0.001658, 0.000156, -0.000518, -0.003605, -0.010937, 0.0, 0.0),
    (-0.002157, -0.000226, 0.001751, 0.004621, 0.011342, 0.0, 0.0),
    (-0.000275, -0.000335, -0.002995, -0.005499, -0.008576, 0.0, 0.0),
    (-0.006006, -0.007675, -0.005763, -0.000384, 0.007348, 0.0, 0.0),
)
