"""A Python subclass of a policy plays the same games whether the engine is compiled or pure.

The compiled engine calls a native class's static methods directly, so a subclass overriding one
was silently ignored there while the pure engine used it. Policies therefore have no static
methods: every hook is an ordinary method, which the compiled engine looks up on the object's
class (greedy's decisions are plain functions of its settings and the state; a subclass
overrides the turn's steps and `develop`'s hooks, and changes settings by passing a record).
CI runs this file on the pure sources and again on the compiled wheel (.ci/run).

Each test pairs an override of a helper with an override of the method that calls it which
must play the very same games (on either build), and checks both differ from the base policy's.
"""

from __future__ import annotations

import ast
import dataclasses
import pickle
import random
from pathlib import Path

import pytest

import sengoku
from sengoku.engine import GameRunner, compile_deck
from sengoku.engine.errors import EngineError
from sengoku.engine.policies import DevelopPolicy, GreedyPolicy, GreedySettings

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


class NoDeploySpace(GreedyPolicy):
    def _deploy_space(self, state, card):  # a hook `develop`'s compiled code calls
        return None


class NoDeployment(GreedyPolicy):
    def _deploy_new_names(self, state, fresh):  # what `_deploy_space` returning None amounts to
        return False


def test_an_override_of_a_helper_changes_the_games_on_either_build(standard):
    base, by_space, direct = games(standard, GreedyPolicy()), games(standard, NoDeploySpace()), games(standard, NoDeployment())
    assert by_space == direct
    assert by_space != base
    # Never deploying a new name costs turns (the Commander alone, with what stacks on it).
    assert sum(g[0] or 9 for g in by_space) > sum(g[0] or 9 for g in base)


class OldestGroupsFirst(DevelopPolicy):
    def _group_order(self, hand, groups, cost):  # (a static method before)
        return list(reversed(list(groups.values())))


class CountingGreedy(GreedyPolicy):
    calls = 0

    def _use_abilities(self, state):
        CountingGreedy.calls += 1
        return super()._use_abilities(state)


def test_every_override_is_called_on_either_build(standard):
    CountingGreedy.calls = 0
    assert games(standard, CountingGreedy(), 100) == games(standard, GreedyPolicy(), 100)
    assert CountingGreedy.calls > 0
    assert games(standard, OldestGroupsFirst(), 200) != games(standard, DevelopPolicy(), 200)


class NoAbilitiesMethod(GreedyPolicy):
    def _use_abilities(self, state):
        return False


@pytest.fixture(scope="module")
def ultimate():
    db = sengoku.load_card_db()
    sections, mode = bundled_sections(db, "ultimate.toml")
    return compile_deck(db, sections, mode)


def test_a_setting_and_the_override_it_amounts_to_play_the_same_games_on_either_build(ultimate):
    # greedy's script (no look-ahead): on the look-ahead's copies greedy's own script plays, not an override
    script = GreedySettings(lookahead_turns=0)
    no_abilities = GreedyPolicy(dataclasses.replace(script, abilities=False))  # a setting: one record, passed whole
    base, by_setting = games(ultimate, GreedyPolicy(script), 300), games(ultimate, no_abilities, 300)
    assert by_setting == games(ultimate, NoAbilitiesMethod(script), 300)
    assert by_setting != base


def test_greedy_settings_are_one_checked_record():
    settings = GreedySettings.from_mapping({"fitted_margin": 0, "contracts": False})
    assert settings == dataclasses.replace(GreedySettings(), fitted_margin=0.0, contracts=False)
    assert type(settings.fitted_margin) is float  # an int stands for a float
    assert GreedySettings.names()["block_commander"] is int and len(GreedySettings.names()) == 33
    assert repr(GreedyPolicy(settings)) == "GreedyPolicy(fitted_margin=0.0, contracts=False)"
    assert repr(GreedyPolicy()) == "GreedyPolicy()"
    with pytest.raises(EngineError, match="greedy has no setting 'risky'"):
        GreedySettings.from_mapping({"risky": 0.3})
    with pytest.raises(EngineError, match="greedy's setting contracts takes a bool, not 0"):
        GreedySettings.from_mapping({"contracts": 0})
    with pytest.raises(EngineError, match="greedy's setting extra_charge takes an int, not 2.5"):
        GreedySettings.from_mapping({"extra_charge": 2.5})
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.fitted_margin = 0.5  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(settings)) == settings  # it travels to worker processes whole


def _records(node: ast.ClassDef) -> bool:
    """Whether a class is a settings record (a dataclass), not a policy."""
    return any("dataclass" in ast.unparse(d) for d in node.decorator_list)


def test_policy_settings_are_class_variables():
    # mypyc turns a class attribute with a value into a native instance default, which a Python
    # subclass cannot override; a ClassVar stays a class attribute, looked up on the object's class.
    # (A policy's settings are a record passed to it; a record's fields are its own.)
    folder = Path(__file__).resolve().parents[2] / "src" / "sengoku" / "engine" / "policies"
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not _records(node):
                for item in node.body:
                    if isinstance(item, ast.AnnAssign) and item.value is not None:
                        assert "ClassVar" in ast.unparse(item.annotation), f"{path.name}: {node.name}"


def test_policies_have_no_static_methods():
    # A static method of a compiled class cannot be overridden from Python: none in any policy.
    folder = Path(__file__).resolve().parents[2] / "src" / "sengoku" / "engine" / "policies"  # the sources
    sources = sorted(folder.rglob("*.py")) + [folder.parent / "chooser.py"]
    assert len(sources) >= 15
    for path in sources:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not _records(node):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef):
                        names = {d.id for d in item.decorator_list if isinstance(d, ast.Name)}
                        assert not names & {"staticmethod", "classmethod"}, f"{path.name}: {node.name}.{item.name}"


def test_a_removed_setting_is_refused_naming_it_and_what_greedy_does_now():
    from sengoku.engine.policies.greedy.settings import REMOVED

    assert len(REMOVED) == 16 and not set(REMOVED) & set(GreedySettings.names())
    for name, now in REMOVED.items():
        with pytest.raises(EngineError) as info:
            GreedySettings.from_mapping({"hp_charge": True, name: 1})
        assert str(info.value).startswith(f"greedy's setting {name} was removed") and str(info.value).endswith(now)
