"""The SENGOKU YUGI rules engine (SPEC S, T, M, K, U, B, G) for goldfish simulation.

Interface (stable; `sengoku.goldfish` builds on it)::

    from sengoku.engine import compile_deck, choose_commander, make_policy, POLICIES, play_game, MEASURES
    tables = compile_deck(db, sections, mode="standard", board=None)
    cmd = choose_commander(tables, name=None)
    policy = make_policy("greedy")
    g = play_game(tables, policy, chance, turns=8, going_first=True, commander=cmd)

`compile_deck(db, sections, mode, board)`: `sections` is `ValidationResult.sections`
(section -> card id -> count; sections "main", "nameless", "familiars"); `mode` "standard"
(familiars ignored, D7) or "ultimate"; `board` None reads `board.json` beside the card
database (B1), or pass a `sengoku.carddb.board.Board` / a mapping shaped like that file.
Raises `EngineError` (a `SengokuError`) for unknown cards, misplaced cards, no board room.

`tables` (`DeckTables`) holds per-card tuples indexed by card index 0..tables.n-1:
`level`, `kind` (MAIN=0, SUPPORT=1, NAMELESS=2, FAMILIAR=3), `name_id` (and `name`),
`cost` (deployment cost = max HP; contract cost for familiars), `charge` (charge value),
`gender` (MALE=0, FEMALE=1, -1 familiars), `weapon` (index into `carddb.models.WEAPONS`, -1
familiars), `count` (copies in the deck), `card_id` (the id string), `section`; and
`tables.deck_indices` (main-section copies, one index per copy, Commander NOT removed),
`tables.stronghold_after(cmd)` (the Stronghold before the shuffle: Commander removed),
`tables.can_grow_or_focus(card, onto)` and `tables.grow_or_focus_mask(cmd)` (per card index:
can it Grow or Focus onto the Commander, M2/M3), `tables.index_of(card_id)`.

`choose_commander(tables, name=None)` -> card index (S1 Decision; `name` pins a card name or
id; raises `EngineError` if it is not a Level 1 Main card of the deck).

`make_policy(name)` with names in `POLICIES` ("greedy" default: plays to win; "develop": develops and
never attacks; "charge"; "search": a slow look-ahead; "random"; "idle"); `describe(name)` gives the
policy's description. `sengoku.engine.clone.clone_state(state, chance)` copies a state for look-ahead.

`chance` is a `sengoku.engine.chance.Chance` (one stream per purpose, G7: seed it for each game,
e.g. `seed_run(chance, seed, i)` for run i of a simulation) or a `random.Random`, from which each
game draws its seeds. `GameRunner(tables, policy, chance, turns, going_first, commander)` plays
game after game of one deck on one state (`runner.play()` -> `GameRecord`; setup S1-S7 runs anew
each game, the policy is bound once): the same games `play_game` plays, faster.
With `record=[]` (G8) the state appends every game's events to that list as its actions play
them (`sengoku.trace` turns them into a readable trace); None, the default, records nothing.

`play_game(...)` -> `GameRecord` with `opening_hand` (card indices drawn at S6, after the
Commander left the deck), `turns` (one tuple per turn in `MEASURES` order), `first_level3` /
`first_level4` (1-based turn at whose end an ally of Level ≥ 3 / ≥ 4 is first in play, or
None), `skipped_abilities` (C5), `won_turn` (K5: the kill turn, G5), `commander`.

MEASURES, per turn: `ap_main` AP at the start of the Main Phase; `ap_charge_base` 10 (T2a);
`ap_charge_cards` charge values of cards sent (T2a); `ap_growth_focus` AP from Growth/Focus;
`ap_spent` AP spent (HP Charge, deployment, moves, ability costs...); `ap_end` AP at the end of
the turn; `allies` in play (Commander, Nameless and Released familiars included);
`highest_level` in play; `hp_total` of allies in play; `hand` Character cards in hand at the
end of the turn; `stronghold` cards left in the Stronghold at the end of the turn.

For finer control, `GameState` (the rules: setup on construction, `begin_turn`,
`end_charge_phase`, `end_turn`, one checked method per action with its `can_<action>` twin,
`legal_actions()` / `apply()` for enumerating policies, with actions as `Action(kind, args)`
values; targeted questions `stack_target`, `name_in_play`, `stack_target_or_name` (the two in one
look), `free_perimeter` and `neediest_ally` for fast ones).
An ally in play is an `Ally` record (`top`, `hp`, `space`, `defending`, `sources`, `familiars`,
...). The rules are grouped one module per rule group (`setup` S, `turn` T, `main_phase` M,
`attack` K, `ultimate` U, `abilities` C5), the rules' numbers in `constants`, and the combat
arithmetic in `combat`; `sengoku.engine.state`'s docstring draws how they stack into one
`GameState` and lists the engine's own decisions where SPEC is silent. A policy is any object
with `charge_phase(state)` and `main_phase(state)` (see `Policy`); one that also has
`bind(state)` returns both phases as calls without arguments, prepared once per game. A policy
keeps what it derives per deck on itself.

Regular installs compile these modules with mypyc (`hatch_build.py` at the repository root;
`sengoku.engine_build()` says which build runs), from this same source: keep it fully typed
(`mypy src/sengoku/engine` clean). Compiled classes enforce declared types and take no new
attributes; Python code may subclass `Policy` and its subclasses, not `GameState`.
"""

from __future__ import annotations

from sengoku.engine.actions import Action, Kind
from sengoku.engine.ally import Ally
from sengoku.engine.board import COMMAND_ZONE, Geometry, compile_geometry
from sengoku.engine.chooser import Chooser
from sengoku.engine.combat import boosted_attack, boosted_defense, combat_damage, last_guard_combat
from sengoku.engine.errors import EngineError, IllegalAction
from sengoku.engine.game import MEASURES, GameRecord, GameRunner, play_game
from sengoku.engine.policies import POLICIES, Policy, describe, make_policy
from sengoku.engine.state import GameState, choose_commander
from sengoku.engine.tables import DeckTables, compile_deck

__all__ = [
    "Action", "Ally", "Chooser", "Kind", "COMMAND_ZONE", "DeckTables", "EngineError", "GameRecord", "GameRunner", "GameState", "Geometry", "IllegalAction",
    "MEASURES", "POLICIES", "Policy", "boosted_attack", "boosted_defense", "choose_commander",
    "combat_damage", "compile_deck", "compile_geometry", "describe", "last_guard_combat", "make_policy",
    "play_game",
]
