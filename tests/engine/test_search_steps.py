"""`search`'s cap on the Main Phase steps it searches a turn (`max_steps`; 0, the default since issue 36:
no cap): capped, it searches at most that many steps and greedy plays on; uncapped, it searches every
step until it chooses to finish the turn."""

from __future__ import annotations

import pytest

import sengoku
from sengoku.engine import GameRunner, compile_deck
from sengoku.engine.actions import Kind
from sengoku.engine.policies import SearchPolicy
from sengoku.goldfish.play.seeds import Chance, seed_run

from .conftest import bundled_sections


@pytest.fixture(scope="module")
def standard():
    db = sengoku.load_card_db()
    sections, mode = bundled_sections(db, "default.toml")
    return compile_deck(db, sections, mode)


class Restless(SearchPolicy):
    """A search whose every Main Phase choice is the first action that is not an end of the turn (no
    rollouts): it would step for ever if nothing stopped it. Counts the steps it searched per Main Phase."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[int] = []

    def main_phase(self, state) -> None:
        self.steps.append(0)
        super().main_phase(state)

    def _choose(self, state, options, charge):
        if not charge:
            for k, option in enumerate(options):
                if option.kind != Kind.END_TURN:
                    self.steps[-1] += 1
                    return k
        return 0


def steps(t, max_steps: int | None) -> list[int]:
    cls = Restless if max_steps is None else type("Capped", (Restless,), {"max_steps": max_steps})
    policy = cls()
    chance = Chance()
    runner = GameRunner(t, policy, chance, 4, True)
    for i in range(3):
        seed_run(chance, 4, i)
        runner.play()
    return policy.steps


def test_the_search_searches_at_most_max_steps_a_turn(standard):
    assert max(steps(standard, 3)) == 3
    assert max(steps(standard, 12)) == 12  # the cap of the 0.10.0 search, reached


def test_by_default_it_searches_past_twelve_steps(standard):
    assert SearchPolicy.max_steps == 0  # no cap
    uncapped = steps(standard, None)
    assert max(uncapped) > 12
    assert sum(uncapped) > sum(steps(standard, 12))
    assert steps(standard, 0) == uncapped
