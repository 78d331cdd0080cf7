"""Where `search` plays differently from the default policy: tally its choices that differ from greedy's.

    .venv/bin/python benchmarks/search_diff.py [--deals 40] [--deck NAME ...] [--setting S ...]
        [--turns 12] [--seed 0] [--show 10] [--json FILE]

Plays deals of the suite's decks (decklists/suite/, see policy_bench.py) with `search`. At each
decision where the search's choice is not what greedy would have done in the same position, it
records the kind of decision, the turn, and the rollout gain (greedy's choice minus the search's
on the search's fresh second-stage rollouts: the turns the search expects to save):
- `charge`: the Charge Phase plan (cards sent for AP Charge, HP Charge), with how many cards each
  sends and the levels of the cards on which they differ;
- Main Phase steps, by what the search did (`deploy`, `move`, `attack`, `contract`, `release`,
  `swap`, `evolve`, `ability`, `familiar_ability`, `stop`: end the turn where greedy plays on) and
  what greedy would have done first (`deploy` on another space: `deploy-space`).
Greedy's own choice is found by playing it on a copy of the position (`sengoku.engine.clone`)
with the record on (G8) and reading its first event. A Charge Phase note also lists the hand
(`L<level>c<cost>v<charge value>` and what greedy's plan would do with the card: `stack` it
now, deploy it as a `new` name, or charge it, its name being in play: `named`); a Main Phase
note says what greedy does with the card the search played (`greedy_with_card`: its first event
naming it this turn, or None). Per deck it prints the count and summed gain of each kind, by
turn; `--show` prints the largest-gain examples. The gains are the search's own estimates from
12 rollouts, biased upward by the choice among finalists: read them as a ranking of where to look.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from policy_bench import SETTINGS, SUITE, load_deck

from sengoku.engine.actions import Kind
from sengoku.engine.clone import clone_state
from sengoku.engine.policies.greedy import GreedyPolicy
from sengoku.engine.policies.search import _FINISH, SearchPolicy

# The fields of an event that say what was done (not what came of it).
_WHAT = ("event", "card", "space", "to", "from", "onto", "holder", "magic", "other_space")


def _what(event: dict[str, Any] | None) -> tuple[Any, ...]:
    if event is None:
        return ("end",)
    return tuple(event.get(k) for k in _WHAT)


def _first_action(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    for e in events:
        if e["event"] in ("deploy", "growth", "focus", "move", "swap", "attack", "contract", "evolution",
                          "release", "ability", "familiar_ability", "hp_charge", "charge"):
            return e
    return None


class RecordingSearch(SearchPolicy):
    """`search`, unchanged in play, noting each choice that differs from greedy's (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[dict[str, Any]] = []
        self.context: dict[str, Any] = {}

    def _choose(self, state, options, charge):  # the same two stages as SearchPolicy._choose, scores kept
        prng = state.policy_rng
        seeds = [prng.getrandbits(64) for _ in range(self.rollouts)]
        scores = [self._score(state, o, seeds, charge) for o in options]
        order = sorted(range(len(options)), key=lambda k: (scores[k], k))
        finalists = order[: self.finalists]
        if 0 not in finalists:
            finalists.append(0)
        seeds = [prng.getrandbits(64) for _ in range(self.confirm)]
        best, best_score = 0, self._score(state, options[0], seeds, charge)
        base = best_score
        for k in finalists:
            if k != 0:
                score = self._score(state, options[k], seeds, charge)
                if score < best_score:
                    best, best_score = k, score
        if best != 0:
            note = self._compare(state, options[best], charge)
            if note is not None:
                note.update(self.context, turn=state.turn, gain=base - best_score)
                self.notes.append(note)
        return best

    def _compare(self, state, option, charge) -> dict[str, Any] | None:
        """What the search chose against greedy's own choice here, or None when they do the same."""
        t = state.t
        g = clone_state(state, random.Random(0))
        g.record = []
        s = clone_state(state, random.Random(0))
        s.record = []
        if charge:
            GreedyPolicy.charge_phase(self._rollout_policy, g)
            self._apply_plan(s, option)
            sent_g = Counter(c for e in g.record if e["event"] == "charge" for c in e["cards"])
            sent_s = Counter(c for e in s.record if e["event"] == "charge" for c in e["cards"])
            hp_g = [e["card"] for e in g.record if e["event"] == "hp_charge"]
            hp_s = [e["card"] for e in s.record if e["event"] == "hp_charge"]
            if sent_g == sent_s and hp_g == hp_s:
                return None
            more = sent_s - sent_g
            less = sent_g - sent_s

            def role(c: int) -> str:  # what greedy keeps the card for: Growth/Focus now, or a new name
                found = state.stack_target_or_name(c)
                return "new" if found is False else "named" if found is True else "stack"
            return {"kind": "charge", "greedy_sent": sum(sent_g.values()), "search_sent": sum(sent_s.values()),
                    "hand": len(state.hand), "ap": state.ap,
                    "search_also": sorted(f"L{t.level[c]}c{t.cost[c]}v{t.charge[c]} {role(c)}" for c in more.elements()),
                    "hand_cards": sorted(f"L{t.level[c]}c{t.cost[c]}v{t.charge[c]} {role(c)}" for c in state.hand),
                    "greedy_also": sorted(f"L{t.level[c]}c{t.cost[c]}" for c in less.elements()),
                    "hp": (bool(hp_g), bool(hp_s))}
        self._rollout_policy.main_phase(g)
        first_g = _first_action(g.record)
        if option is _FINISH:
            return None
        if option.kind == Kind.END_TURN:
            what_s: dict[str, Any] | None = None
        else:
            s.apply(option)
            what_s = _first_action(s.record)
        if _what(first_g) == _what(what_s):
            return None
        kind = option.kind.name.lower() if what_s is not None else "stop"
        if what_s is not None and first_g is not None and kind == "deploy" and first_g["event"] == "deploy" \
                and first_g["card"] == what_s["card"]:
            kind = "deploy-space"
        note: dict[str, Any] = {"kind": kind, "greedy": "end" if first_g is None else first_g["event"],
                                "search_what": None if what_s is None else list(_what(what_s)),
                                "greedy_what": None if first_g is None else list(_what(first_g))}
        if what_s is not None and what_s.get("card") is not None:
            # what greedy does with that card this turn (its first event naming it), if anything
            fate = next((e for e in g.record if e.get("card") == what_s["card"] and e["event"] != "draw"), None)
            note["greedy_with_card"] = None if fate is None else list(_what(fate))
        if what_s is not None and "card" in what_s:
            c = what_s["card"]
            if isinstance(c, int) and c >= 0:
                note["card"] = f"{t.name[c]} L{t.level[c]}"
        return note


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--deck", action="append")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS))
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=10, help="print this many largest-gain differences per deck")
    parser.add_argument("--json", type=Path, help="write every difference here (JSON Lines)")
    args = parser.parse_args(argv)

    from sengoku.engine import GameRunner
    from sengoku.goldfish.play.seeds import Chance, seed_run

    decks = args.deck or sorted(p.stem for p in SUITE.glob("*.toml"))
    print("command: python benchmarks/search_diff.py " + " ".join(sys.argv[1:] if argv is None else argv))
    out = args.json.open("w") if args.json else None
    for deck in decks:
        tables = load_deck(SUITE / f"{deck}.toml")
        policy = RecordingSearch()
        games = 0
        for setting in args.setting or list(SETTINGS):
            first, defends = SETTINGS[setting]
            chance = Chance()
            runner = GameRunner(tables, policy, chance, args.turns, first, opponent_defends=defends)
            for i in range(args.deals):
                seed_run(chance, args.seed, i)
                policy.context = {"deck": deck, "setting": setting, "deal": i}
                runner.play()
                games += 1
        notes = policy.notes
        if out:
            for n in notes:
                out.write(json.dumps(n) + "\n")
        tally: dict[str, list[float]] = defaultdict(list)
        by_turn: dict[str, Counter[int]] = defaultdict(Counter)
        for n in notes:
            key = n["kind"] if n["kind"] != "charge" else \
                f"charge {'more' if n['search_sent'] > n['greedy_sent'] else 'fewer' if n['search_sent'] < n['greedy_sent'] else 'other'}"
            tally[key].append(n["gain"])
            by_turn[key][n["turn"]] += 1
        print(f"\n{deck}: {games} games, {len(notes)} differing choices; gain summed per game")
        for key, gains in sorted(tally.items(), key=lambda kv: -sum(kv[1])):
            turns = ", ".join(f"t{k}:{v}" for k, v in sorted(by_turn[key].items()))
            print(f"  {key:18} {len(gains):5}  gain {sum(gains) / games:6.3f}/game  ({turns})")
        for n in sorted(notes, key=lambda n: -n["gain"])[: args.show]:
            print("   ", {k: v for k, v in n.items() if k != "deck"})
        sys.stdout.flush()
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
