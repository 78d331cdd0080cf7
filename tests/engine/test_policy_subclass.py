"""A Python subclass of a policy plays the same games whether the engine is compiled or pure.

The compiled engine calls a native class's static methods directly, so a subclass overriding one
was silently ignored there while the pure engine used it. Policies therefore have no static
methods: every helper is an ordinary method, which the compiled engine looks up on the object's
class. CI runs this file on the pure sources and again on the compiled wheel (.ci/run).

Each test pairs an override of a helper with an override of the method that calls it which
must play the very same games (on either build), and checks both differ from the base policy's.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

import sengoku
from sengoku.engine import GameRunner, compile_deck
from sengoku.engine.policies import DevelopPolicy, GreedyPolicy

from .conftest import bundled_sections


@pytest.fixture(scope="module")
def standard():
    db = sengoku.load_card_db()
    sections, mode = bundled_sections(db, "default.toml")
    return compile_deck(db, sections, mode)


def games(t, policy, n=300, going_first=True):
    rng = random.Random()
    runner = GameRunner(t, policy, rng, 8, going_first)
    out = []
    for i in range(n):
        rng.seed(1000 + i)
        g = runner.play()
        out.append((g.won_turn, tuple(g.turns)))
    return out


class NoWalkByPath(GreedyPolicy):
    def _path(self, state, a, spots):  # (a static method before: ignored by the compiled engine)
        return []


class NoWalk(GreedyPolicy):
    def _move_into_range(self, state, now):  # what `_path` returning [] amounts to
        return False


def test_an_override_of_a_helper_changes_the_games_on_either_build(standard):
    base, by_path, direct = games(standard, GreedyPolicy()), games(standard, NoWalkByPath()), games(standard, NoWalk())
    assert by_path == direct
    assert by_path != base
    # Never walking into range costs turns (the Commander and new allies stay out of range).
    assert sum(g[0] or 9 for g in by_path) > sum(g[0] or 9 for g in base)


class OldestGroupsFirst(DevelopPolicy):
    def _group_order(self, hand, groups, cost):  # (a static method before)
        return list(reversed(list(groups.values())))


class CountingGreedy(GreedyPolicy):
    calls = 0

    def _helps(self, state, a, effects):
        CountingGreedy.calls += 1
        return super()._helps(state, a, effects)


def test_every_override_is_called_on_either_build(standard):
    CountingGreedy.calls = 0
    assert games(standard, CountingGreedy(), 100) == games(standard, GreedyPolicy(), 100)
    assert CountingGreedy.calls > 0
    assert games(standard, OldestGroupsFirst(), 200) != games(standard, DevelopPolicy(), 200)


class NoReleaseSetting(GreedyPolicy):
    releases = False  # a setting (a class attribute): native instance defaults ignored it compiled


class NoReleaseMethod(GreedyPolicy):
    def _release_all(self, state):
        return False


@pytest.fixture(scope="module")
def ultimate():
    db = sengoku.load_card_db()
    sections, mode = bundled_sections(db, "ultimate.toml")
    return compile_deck(db, sections, mode)


def test_an_override_of_a_setting_changes_the_games_on_either_build(ultimate):
    base, by_setting = games(ultimate, GreedyPolicy(), 300), games(ultimate, NoReleaseSetting(), 300)
    assert by_setting == games(ultimate, NoReleaseMethod(), 300)
    assert by_setting != base


def test_policy_settings_are_class_variables():
    # mypyc turns a class attribute with a value into a native instance default, which a Python
    # subclass cannot override; a ClassVar stays a class attribute, looked up on the object's class.
    folder = Path(__file__).resolve().parents[2] / "src" / "sengoku" / "engine" / "policies"
    for path in sorted(folder.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and item.value is not None:
                        assert "ClassVar" in ast.unparse(item.annotation), f"{path.name}: {node.name}"


def test_policies_have_no_static_methods():
    # A static method of a compiled class cannot be overridden from Python: none in any policy.
    folder = Path(__file__).resolve().parents[2] / "src" / "sengoku" / "engine" / "policies"  # the sources
    sources = sorted(folder.glob("*.py")) + [folder.parent / "chooser.py"]
    assert len(sources) >= 7
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        names = {d.id for d in item.decorator_list if isinstance(d, ast.Name)}
                        assert not names & {"staticmethod", "classmethod"}, f"{path.name}: {node.name}.{item.name}"
