"""The default policy's value of a turn's end, read by its look-ahead (`greedy.lookahead.turn_value`).

Written by `python benchmarks/fit_turn_weights.py --deals 2000 --jobs 2 --setting first --setting second --setting first-defends --setting second-defends` (405,612 positions); do not edit by hand.
A position at the end of turn t's Main Phase is valued x . WEIGHTS[(t - 1) * 4 + 2 * going first +
defending opponent], x its features in the order of FEATURES (`greedy.lookahead.turn_end_features`):
the kill turn expected when greedy plays on (lower wins sooner). An empty entry: no rule fitted there,
and no look-ahead on that turn and setting.
"""

from typing import Final

FEATURES: Final = ('one', 'Stronghold HP left', 'Stronghold HP left squared / 10', 'Stronghold HP left / (hit rate + 0.5)', 'hit chances in range', 'hit chances a Move from range', 'hit chances two Moves from range', 'hit chances further', 'allies', 'HP on the board / 5', 'cards in hand', 'AP / 5', 'Ultimate', 'Ultimate x Stronghold HP left', 'an ally out of range in the Command Zone', "the defender's Commander yet to join", 'allies in range')

TURNS: Final = 2

WEIGHTS: Final[tuple[tuple[float, ...], ...]] = (
    (1.40962, 0.85596, -0.667586, -0.062594, -0.185215, -0.080228, -0.154941, -0.124783, -0.019851, -0.048067, 0.019, 0.018515, -1.121707, 0.198136, 0.104266, 0.0, -0.037714,),
    (1.98996, 0.548997, -0.336018, 0.043718, -0.181573, -0.09788, -0.066342, -0.089346, -0.014792, -0.034767, 0.027997, 0.000845, -0.813398, 0.135943, 0.053523, -0.17136, -0.040333,),
    (0.066171, 0.36723, 0.196501, 0.216342, -0.029207, -0.004443, -0.057742, -0.06551, -0.008035, -0.038419, 0.018636, 0.007877, -0.014898, -0.119185, -0.015548, 0.0, -0.006048,),
    (0.098302, 0.546451, 0.29318, 0.024559, -0.146322, -0.139909, -0.131214, -0.087494, -0.053865, -0.095283, 0.027681, -0.0131, -0.021682, -0.173455, -0.038282, -0.283432, -0.055509,),
    (2.965528, -0.321625, 0.526684, 0.988914, 0.030917, -0.052724, -0.071719, -0.002804, -0.018006, -0.002688, 0.003913, 0.002707, -0.014962, 0.006848, 0.031838, 0.0, 0.002897,),
    (3.189691, -0.199186, 0.510316, 0.62673, 0.007163, -0.054831, -0.123988, 0.009071, -0.034956, -0.007233, 0.010024, -0.000944, 0.05707, -0.029534, 0.035999, 0.0, -0.009776,),
    (3.206717, -0.305208, 0.569158, 0.736202, 0.015099, -0.001561, -0.106826, -0.015572, -0.022655, -0.001339, 0.007109, 0.003613, 0.120354, -0.025255, 0.023294, 0.0, -0.014173,),
    (3.477509, -0.160281, 0.534991, 0.386813, -0.034309, -0.009642, -0.250335, -0.020413, -0.016784, -0.034126, 0.012943, -0.003398, 0.572652, -0.14561, -0.008416, -0.158876, -0.038229,),
)
