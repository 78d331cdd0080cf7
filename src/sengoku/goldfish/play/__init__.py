"""Playing the games: run streams, chunks over processes, decks on the same deals, rounds (SPEC G1-G3, G7)."""
