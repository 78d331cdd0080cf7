"""The chance of run i, derived from the master seed (SPEC G3, G7).

Run i always gets the same seeds whatever process plays it and whatever deck it plays, so
results do not depend on `--jobs` or on how runs are split into chunks, and run i of two decks
(`compare`, or `goldfish B --opponent A` beside `compare A B`) meets the same luck. The seeds
come from the BLAKE2b digest of "sengoku-goldfish:<seed>:<i>", one per purpose (shuffle,
opponent, dice, the policy's own choices): see `sengoku.engine.chance`. Play run i as

    chance = Chance()
    runner = GameRunner(tables, policy, chance, ...)
    seed_run(chance, seed, i)
    record = runner.play()
"""

from __future__ import annotations

from sengoku.engine.chance import Chance, run_seeds, seed_run
from sengoku.goldfish.options import DEFAULT_SEED

__all__ = ["DEFAULT_SEED", "Chance", "run_seeds", "seed_run"]
