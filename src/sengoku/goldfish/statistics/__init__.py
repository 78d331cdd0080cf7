"""Statistics of played games: histograms, exact probabilities, intervals, the kill turn, differences."""
