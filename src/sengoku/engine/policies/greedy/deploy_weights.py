"""The default policy's turn-1 rule for deployment spaces: weights fitted to the search's rollouts.

Written by `python benchmarks/fit_deploy.py --seed 1 --seed 2 --deals 1000 --rollouts 24` (94,640 deployments, 164,301 other spaces); do not edit by hand.
Used by `greedy.deploy.fitted_space` (`fitted_deploy`): a space's value in turns (higher: it wins
sooner) is x . (DEPLOY[0] + second * DEPLOY[1] + ultimate * DEPLOY[2] + defends * DEPLOY[3]), with
x the space's features in the order of FEATURES (`greedy.deploy.deploy_features`).
"""

from typing import Final

FEATURES: Final = ('in range of the card on top this turn', 'in range of the card deployed', 'Moves to a space in range (at most 4) / 4', 'the Backline', "share of the deck's cards in range", 'other new names in hand in range (at most 3) / 3', 'other new names in hand with no other free Perimeter space in range (at most 2) / 2', 'the Commander in the Command Zone in range', "in range, the top card's level / 4", 'Moves times AP left / 40', "left of the Stronghold's column", "right of the Stronghold's column", 'free neighbouring spaces / 4', "next to the space a defending opponent's Commander would take")

DEPLOY: Final[tuple[tuple[float, ...], ...]] = (
    (0.046725, 0.007532, -0.001115, 0.078463, -0.023811, -0.011941, -0.000486, 0.005427, -0.055491, 0.00458, -0.003551, 0.002298, -0.025808, 0.025722),
    (-0.019578, -0.014695, 0.001289, -0.104269, -0.060138, -0.002262, 0.014817, -0.008318, 0.052906, 0.005807, -0.052561, -0.042989, 0.043086, -0.007291),
    (0.007849, 0.013465, -0.129323, 0.146204, 0.328622, 0.046358, -0.045299, -0.025469, -0.055436, 0.01789, 0.22081, 0.181083, -0.013767, 0.048332),
    (-0.062841, -0.019161, -0.109872, 0.02848, 0.030781, -0.032784, 0.041088, 0.002508, 0.059287, -0.038795, 0.0215, -0.043759, 0.03849, 0.025722),
)
