"""One independent random stream per run, derived from the master seed (SPEC G3).

Run i always uses the same stream whatever process plays it, so results do not depend on
`--jobs` or on how runs are split into chunks. A stream is Python's Mersenne Twister seeded
with the 64-bit BLAKE2b digest of "sengoku-goldfish:<seed>:<i>": hashing keeps neighbouring
run indices (and neighbouring master seeds) from giving related keys, and costs well under a
microsecond; seeding the generator itself costs about 4 µs.
"""

from __future__ import annotations

from hashlib import blake2b

DEFAULT_SEED = 0


def policy_seed(seed: int, index: int) -> int:
    """Return the 64-bit seed of run `index`'s policy stream (`GameState.policy_rng`) under `seed`.

    Its own key: what a policy draws (search's rollouts) never moves the game's stream.
    """
    digest = blake2b(f"sengoku-policy:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def run_seed(seed: int, index: int) -> int:
    """Return the 64-bit seed of run `index` under master seed `seed`."""
    digest = blake2b(f"sengoku-goldfish:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")
