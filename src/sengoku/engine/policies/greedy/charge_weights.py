"""The default policy's turn-1 Charge Phase rule: weights fitted to the search's rollouts.

Written by `python benchmarks/fit_charges.py --seed 1 --deals 50 --rollouts 24 --set benchmarks/decksets/fit.toml` (8,000 turn-1 hands, 202,382 sets of cards
sent); do not edit by hand. Used by `greedy.charges.charge_fitted` (`fitted_charges`).

A card the plan keeps is valued x . (CARD[0] + second * CARD[1] + ultimate * CARD[2]), with x its
features in the order of CARD_FEATURES (`greedy.charges.charge_features`); sending k of them adds
SIZE[0][k-1] + second * SIZE[1][k-1] + ultimate * SIZE[2][k-1] + defends * SIZE[3][k-1]
+ AP/10 * SIZE[4][k-1] (k of 7 or more: the last). Values are in turns: lower wins sooner.
"""

from typing import Final

CARD_FEATURES: Final = ('one', 'level 1', 'level 2', 'level 3', 'level 4', 'charge value', 'cost / 5', 'support', 'nameless', 'can grow or focus now', 'copies of its name in hand (at most 2)', "the Commander's name", 'lowest level of its name in hand', 'affordable this turn', 'a new name to deploy now', "the turn's AP / 10", 'cards kept / 5')

CARD: Final[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = (
    (-0.024694, -0.032674, -0.017282, -0.004714, 0.029976, -0.005545, 0.008458, -0.007026, 0.0, -0.006184, -0.033124, -0.020915, -0.025006, 0.002813, 0.019109, 0.000773, 0.066506),
    (-0.062331, -0.026895, -0.01866, -0.009992, -0.006784, -0.002768, 0.01062, -0.001401, 0.0, 0.086204, -0.029647, 0.00539, -0.0113, 0.013962, 0.030996, 0.009844, 0.023059),
    (-0.035497, -0.020881, -0.028617, 0.009585, 0.004416, -0.008721, 0.01338, 0.000409, 0.0, -0.037421, 0.006731, 0.008791, 0.041495, 0.020928, -0.021339, -0.003708, 0.026897),
)

SIZE: Final[tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...], tuple[float, ...]]] = (
    (0.000639, -0.000623, 0.00093, -0.001721, -0.003999, 0.0, 0.0),
    (-0.007523, -0.007095, -0.006398, -0.005005, -0.000281, 0.0, 0.0),
    (-0.003467, -0.000756, -0.000985, -0.000666, -0.00498, 0.0, 0.0),
    (-0.000966, -0.000639, -0.000692, 3e-06, -0.001971, 0.0, 0.0),
    (0.003442, 0.002417, -0.001217, -0.000995, 2.5e-05, 0.0, 0.0),
)
