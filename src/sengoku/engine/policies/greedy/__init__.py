"""The default policy, `greedy` (G6), split by decision.

- `settings`: its settings, one frozen record (`GreedySettings`), the defaults its own.
- `known`: what it knows of a game (`Known`): the settings, and what it works out per deck.
- `odds`: hit chances against the Last Guard and the risk of losing an attacker (K1, K2, K4).
- `moves`: walks into attack range and the steps that open them (M4, M5).
- `deploy`: where a card is deployed (M1), with the turn-1 Focus-or-deploy rule fitted to the search.
- `charges`: the extra cards sent for AP Charge (T2a), with their fitted rule, and abilities (C5).
- `attacks`: attacks on the Stronghold (K4).
- `policy`: the turn's script (`GreedyPolicy`), which asks them in order.
- `lookahead`: on the first turns (going second, against a defender, or in Ultimate mode), the Charge
  Phase plan and the first steps chosen by playing the turn out on copies, valued by a rule fitted on
  the fit set.
- `fitted` and the `*_weights` modules: the fitted rules' sums and weights (benchmarks/fit_*.py).

`GreedyPolicy(settings)` plays with other settings: `GreedySettings.from_mapping({"hp_charge": True})`
checks the names and types, `dataclasses.replace(settings, hp_charge=True)` changes one.
"""

from sengoku.engine.policies.greedy.policy import GreedyPolicy
from sengoku.engine.policies.greedy.settings import DEFAULT_SETTINGS, GreedySettings

__all__ = ["DEFAULT_SETTINGS", "GreedyPolicy", "GreedySettings"]
