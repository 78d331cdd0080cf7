"""placeholder"""
from sengoku.engine.policies.greedy import GreedyPolicy


class SearchPolicy(GreedyPolicy):
    """placeholder"""

    name = "search"
