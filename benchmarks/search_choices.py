"""Where `search` and the default policy part: every decision at which the search's choice differs from greedy's.

    .venv/bin/python benchmarks/search_choices.py [--deals 40] [--deck NAME ...] [--setting S ...]
        [--turns 12] [--seed 0] [--jobs 1] [--top 40] [--show 5] [--json FILE]
        [--set benchmarks/decksets/fit.toml]

Plays deals of the suite's decks (decklists/suite/), or with `--set MANIFEST` a deck set's (each deck with
its own card database, named as the set names it, e.g. `gen-2001/low-curve-1`: look for rules on the fit
set, fit.toml, never on the test set), with `search`, the same games as policy_bench.py (its deal loop; the recording draws nothing more from the search's own stream), and
notes each decision where the search took another option than its first, greedy's own: the Charge
Phase plan, or a Main Phase step taken instead of letting greedy finish the turn. Greedy's own
choice is found by playing it on a copy of the position (`sengoku.engine.clone`) with the record
on (G8). Each note holds the deck, setting, deal, turn, AP, and the rollout gain: greedy's
option's mean kill turn minus the chosen one's on the search's second-stage rollouts (12 fresh
copies), the turns the search expects to save. The gains are biased upward by the choice among
the finalists (the best of up to three is kept): read them as a ranking of where to look, not a
measure. A note names its decision twice:
- `kind`, against greedy's first step: `charge more`, `charge fewer`, `charge other` (cards sent
  for AP Charge, or HP Charge, differ), a Main Phase step by what the search did (`deploy`,
  `move`, `swap`, `attack`, `stack`, `contract`, `release`, `evolve`, `use_ability`, ...;
  `deploy-space`: the card greedy deploys first, on another space; `stop`: end the turn where
  greedy plays on), or `same` (the same first step or plan: an option that differs later);
- `what`, against every step greedy would take this turn: a step greedy takes in another order,
  a move or deployment elsewhere, an attack of the other kind or with more or fewer boosts, an
  ally greedy does not use, ending the turn while greedy would still act, sending more, fewer or
  other cards, HP Charge or not.
In words (`search`, `greedy`): the cards (name and level), the spaces (column letter, row from 1),
greedy's would-be steps. A Charge Phase note also lists the hand (`hand_cards`:
`L<level>c<cost>v<charge value>` and what greedy's plan would do with the card: `stack` it now,
deploy it as a `new` name, or charge it, its name being in play: `named`) and the cards only one
plan sends; a Main Phase note says what greedy does with the card the search played
(`greedy_with_card`: its first event naming the card this turn, or None).

It prints, per deck as its games finish, the count, gain per game and turns of each `kind` and the
`--show` largest-gain notes; then the `what` kinds by count, gain per game and mean gain, over all
decks and settings and per setting. `--json` writes every note (a JSON list).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import policy_bench
from policy_bench import SETTINGS, SUITE, deals, in_processes, load_deck  # noqa: F401 (load_deck: for tests)

from sengoku.engine.actions import Kind
from sengoku.engine.clone import clone_state
from sengoku.engine.policies.greedy import GreedyPolicy
from sengoku.engine.policies.search import SearchPolicy

# The record's events that are a Main Phase step of the player's own choosing.
STEPS = ("deploy", "growth", "focus", "move", "swap", "attack", "ability", "familiar_ability", "contract",
         "release", "evolution")
# The fields of an event that say what was done (not what came of it).
_WHAT = ("event", "card", "space", "to", "from", "onto", "holder", "magic", "other_space")


def _what(event: dict[str, Any] | None) -> tuple[Any, ...]:
    return ("end",) if event is None else tuple(event.get(k) for k in _WHAT)


def _first_step(events: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((e for e in events if e["event"] in STEPS), None)


def where(state, space: int) -> str:
    """A space in the trace's words: column letter and row number from 1 (b3), or a zone."""
    if space < 0:
        return "CZ" if space == -1 else "off"
    r, c = state.t.board.coords[space]
    return "abcdefghij"[c] + str(r + 1)


def card(state, c: int) -> str:
    return f"{state.t.name[c]} L{state.t.level[c]}"


def describe_action(state, action) -> tuple[str, dict[str, Any]]:
    """The kind of a Main Phase action, and its details, in the words of the record's events."""
    kind = action.kind
    args = action.args
    if kind == Kind.END_TURN:
        return "end", {}
    if kind == Kind.ATTACK:
        a = state.allies[args[0]] if isinstance(args[0], int) else args[0]
        magic = bool(args[1]) if len(args) > 1 else False
        boosts = args[2] if len(args) > 2 else 0
        return "attack", {"card": a.top, "magic": magic, "boosts": boosts, "hp": a.hp}
    if kind == Kind.DEPLOY:
        return "deploy", {"card": state.hand[args[0]], "space": args[1]}
    if kind == Kind.STACK:
        return "stack", {"card": state.hand[args[0]]}
    if kind in (Kind.GROW, Kind.FOCUS):
        return kind.method, {"card": state.hand[args[0]]}
    if kind == Kind.MOVE:
        a = state.allies[args[0]] if isinstance(args[0], int) else args[0]
        return "move", {"card": a.top, "from": a.space, "to": args[1]}
    if kind == Kind.SWAP:
        a, b = (state.allies[x] if isinstance(x, int) else x for x in args[:2])
        return "swap", {"card": a.top, "from": a.space, "to": b.space, "other": b.top}
    return kind.method, {}


def steps_of(events: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The Main Phase steps of a record, in describe_action's words (Growth and Focus: `stack`)."""
    out = []
    for e in events:
        if e["event"] in STEPS:
            detail = {k: e[k] for k in ("card", "magic", "space", "to", "onto") if k in e}
            if e["event"] == "attack":
                detail["boosts"] = len(e["boosts"])
            out.append(("stack" if e["event"] in ("growth", "focus") else e["event"], detail))
    return out


def show(state, kind: str, d: dict[str, Any]) -> str:
    """One step in a few words: kind, card name and level, spaces."""
    out = kind
    if "card" in d:
        out += " " + card(state, d["card"])
    for k in ("space", "to"):
        if k in d:
            out += f" {k} {where(state, d[k])}"
    if "from" in d:
        out += f" from {where(state, d['from'])}"
    if kind == "attack":
        out += f" {'MAT' if d['magic'] else 'ATK'}+{d['boosts']}"
    if "other" in d:
        out += " with " + card(state, d["other"])
    return out


def _same(mine: str, md: dict[str, Any], theirs: str, td: dict[str, Any]) -> bool:
    if mine != theirs or md.get("card") != td.get("card"):
        return False
    if mine == "attack":
        return md["magic"] == td["magic"] and md["boosts"] == td["boosts"]
    if mine == "deploy":
        return md["space"] == td["space"]
    if mine == "move":
        return md["to"] == td["to"]
    return True


def what_step(mine: str, md: dict[str, Any], steps: list[tuple[str, dict[str, Any]]]) -> str:
    """Name a Main Phase difference: the search's step against the steps greedy would take this turn."""
    if mine == "end":
        kinds = sorted({k for k, _ in steps})
        return "end the turn; greedy would still " + ("+".join(kinds) if kinds else "do nothing")
    if any(_same(mine, md, k, d) for k, d in steps):
        return f"{mine}: a step greedy takes, in another order"
    same_kind = [d for k, d in steps if k == mine]
    same_card = [d for d in same_kind if d.get("card") == md.get("card")]
    if mine == "attack":
        if same_card:
            d = same_card[0]
            if md["magic"] != d["magic"]:
                return "attack: other kind (ATK/MAT)"
            return "attack: more boosts" if md["boosts"] > d["boosts"] else "attack: fewer boosts"
        return "attack with an ally greedy does not attack with" + (" (it moves it)" if any(
            k == "move" and d.get("card") == md["card"] for k, d in steps) else "")
    if mine == "deploy":
        if same_card:
            return "deploy: other space"
        return "deploy: a card greedy does not deploy" if not same_kind else "deploy: another card"
    if mine == "move":
        return "move: other destination" if same_card else "move: an ally greedy does not move"
    if not steps:
        return f"{mine} where greedy does nothing more"
    return f"{mine} that greedy does not take this turn"


def compare_plan(search: SearchPolicy, greedy: GreedyPolicy, state, plan) -> dict[str, Any]:
    """A Charge Phase plan of the search's against greedy's, from copies of the position."""
    t = state.t
    g = clone_state(state, random.Random(0))
    g.record = []
    GreedyPolicy.charge_phase(greedy, g)
    s = clone_state(state, random.Random(0))
    s.record = []
    search._apply_plan(s, plan)
    sent_g = Counter(c for e in g.record if e["event"] == "charge" for c in e["cards"])
    sent_s = Counter(c for e in s.record if e["event"] == "charge" for c in e["cards"])
    hp_g = [e["card"] for e in g.record if e["event"] == "hp_charge"]
    hp_s = [e for e in s.record if e["event"] == "hp_charge"]
    n_g, n_s = sum(sent_g.values()), sum(sent_s.values())

    def words(sent: Counter[int], hp: list[str]) -> str:
        return ", ".join(card(state, c) for c in sorted(sent.elements())) + "".join(f"; HP Charge {h}" for h in hp)

    def role(c: int) -> str:  # what greedy keeps the card for: Growth/Focus now, or a new name
        found = state.stack_target_or_name(c)
        return "new" if found is False else "named" if found is True else "stack"

    what = []
    if n_s != n_g:
        what.append(f"sends {'more' if n_s > n_g else 'fewer'} cards")
    elif n_s and sent_s != sent_g:
        what.append("sends other cards")
    if bool(hp_s) != bool(hp_g):
        what.append("HP Charge" if hp_s else "no HP Charge")
    if sent_s == sent_g and [e["card"] for e in hp_s] == hp_g:
        kind = "same"
    else:
        kind = f"charge {'more' if n_s > n_g else 'fewer' if n_s < n_g else 'other'}"
    hand = ", ".join(card(state, c) for c in state.hand)
    return {
        "kind": kind, "what": "charge: " + (", ".join(what) if what else "the same plan"),
        "search": f"hand [{hand}] sends [" + words(sent_s, [f"{card(state, e['card'])} at {where(state, e['space'])}"
                                                            for e in hp_s]) + "]",
        "greedy": "sends [" + words(sent_g, [card(state, c) for c in hp_g]) + "]",
        "greedy_sent": n_g, "search_sent": n_s, "hand": len(state.hand), "hp": (bool(hp_g), bool(hp_s)),
        "hand_cards": sorted(f"L{t.level[c]}c{t.cost[c]}v{t.charge[c]} {role(c)}" for c in state.hand),
        "search_also": sorted(f"L{t.level[c]}c{t.cost[c]}v{t.charge[c]} {role(c)}" for c in (sent_s - sent_g).elements()),
        "greedy_also": sorted(f"L{t.level[c]}c{t.cost[c]}" for c in (sent_g - sent_s).elements()),
    }


def compare_step(greedy: GreedyPolicy, state, action) -> dict[str, Any]:
    """A Main Phase step of the search's against the steps greedy would take from the same position."""
    mine, md = describe_action(state, action)
    g = clone_state(state, random.Random(0))
    g.record = []
    GreedyPolicy.main_phase(greedy, g)
    steps = steps_of(g.record)
    first_g = _first_step(g.record)
    what_s: dict[str, Any] | None = None
    if action.kind != Kind.END_TURN:
        s = clone_state(state, random.Random(0))
        s.record = []
        s.apply(action)
        what_s = _first_step(s.record)
    if _what(first_g) == _what(what_s):
        kind = "same"
    elif what_s is None:
        kind = "stop"
    elif action.kind == Kind.DEPLOY and first_g is not None and first_g["event"] == "deploy" \
            and first_g["card"] == what_s["card"]:
        kind = "deploy-space"
    else:
        kind = action.kind.name.lower()
    note: dict[str, Any] = {
        "kind": kind, "what": what_step(mine, md, steps),
        "search": show(state, mine, md), "greedy": "; ".join(show(state, k, d) for k, d in steps),
        "greedy_first": "end" if first_g is None else first_g["event"],
        "search_what": list(_what(what_s)), "greedy_what": list(_what(first_g)),
    }
    c = what_s.get("card") if what_s is not None else None
    if isinstance(c, int) and c >= 0:
        note["card"] = card(state, c)
        # what greedy does with that card this turn (its first event naming it), if anything
        fate = next((e for e in g.record if e.get("card") == c and e["event"] != "draw"), None)
        note["greedy_with_card"] = None if fate is None else list(_what(fate))
    return note


class RecordingSearch(SearchPolicy):
    """`search`, unchanged in play (the same draws from policy_rng), noting each choice that is not greedy's."""

    def __init__(self) -> None:
        super().__init__()
        self.log: list[dict[str, Any]] = []

    def _departed(self, state, option, charge, gain):
        self.log.append(self.note(state, option, charge, gain))

    def note(self, state, option, charge: bool, gain: float) -> dict[str, Any]:
        """The note of one choice of the search's that is not greedy's (see the module docstring)."""
        note = {"turn": state.turn, "gain": gain, "ap": state.ap, "opp_hand": len(state.opp_hand),
                "opp_hp": state.opp_sh_hp}
        if charge:
            note.update(compare_plan(self, self._rollout_policy, state, option))
        else:
            note.update(compare_step(self._rollout_policy, state, option))
        return note


def play(task: tuple[str, str, int, int, int, int]) -> tuple[str, str, list[dict[str, Any]], int]:
    """Play deals start..stop-1 of one deck and setting with the recording search: its notes, the games."""
    deck, setting, start, stop, turns, seed = task
    policy = RecordingSearch()
    log: list[dict[str, Any]] = []
    for i, _ in deals(deck, setting, policy, start, stop, turns, seed):
        for e in policy.log:
            log.append({"deck": deck, "setting": setting, "deal": i, **e})
        policy.log = []
    return deck, setting, log, stop - start


def tally_kinds(deck: str, notes: list[dict[str, Any]], games: int, show_n: int) -> None:
    """Print one deck's `kind`s: count, gain summed per game, turns; then its largest-gain notes."""
    gains: dict[str, list[float]] = defaultdict(list)
    by_turn: dict[str, Counter[int]] = defaultdict(Counter)
    for n in notes:
        gains[n["kind"]].append(n["gain"])
        by_turn[n["kind"]][n["turn"]] += 1
    print(f"\n{deck}: {games} games, {len(notes)} choices not greedy's; gain summed per game")
    for key, g in sorted(gains.items(), key=lambda kv: -sum(kv[1])):
        turns = ", ".join(f"t{k}:{v}" for k, v in sorted(by_turn[key].items()))
        print(f"  {key:18} {len(g):5}  gain {sum(g) / games:6.3f}/game  ({turns})")
    for n in sorted(notes, key=lambda n: -n["gain"])[:show_n]:
        print("   ", {k: v for k, v in n.items() if k != "deck"})
    sys.stdout.flush()


def tally_what(log: list[dict[str, Any]], games: int, top: int, title: str) -> None:
    """Print the `what`s: count, total gain per game, mean gain, turns."""
    count: dict[str, int] = defaultdict(int)
    gain: dict[str, float] = defaultdict(float)
    turns: dict[str, Counter[int]] = defaultdict(Counter)
    for e in log:
        count[e["what"]] += 1
        gain[e["what"]] += e["gain"]
        turns[e["what"]][e["turn"]] += 1
    print(f"\n{title}: {len(log)} choices not greedy's in {games} games")
    print(f"{'kind of decision':62} {'count':>6} {'gain/game':>9} {'mean':>6}  turns")
    for what in sorted(count, key=lambda w: -gain[w])[:top]:
        by_turn = " ".join(f"{t}:{n}" for t, n in sorted(turns[what].items()))
        print(f"{what[:62]:62} {count[what]:6d} {gain[what] / games:9.3f} {gain[what] / count[what]:6.2f}  {by_turn}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40, help="deals per deck and setting")
    parser.add_argument("--deck", action="append",
                        help="deck names (default: every deck of decklists/suite/, or of the --set)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS), help="default: all four")
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result does not depend on it)")
    parser.add_argument("--set", type=Path, metavar="MANIFEST",
                        help="a deck set's decks (benchmarks/decksets/fit.toml) instead of the suite's")
    parser.add_argument("--top", type=int, default=40, help="`what`s shown per table")
    parser.add_argument("--show", type=int, default=5, help="largest-gain notes printed per deck")
    parser.add_argument("--json", type=Path, help="also write every note here (a JSON list)")
    args = parser.parse_args(argv)
    if args.set is None:
        return run(args, argv, args.deck or sorted(p.stem for p in SUITE.glob("*.toml")))
    import tempfile

    with tempfile.TemporaryDirectory() as folder:  # the set's databases and decklists, for this run
        return run(args, argv, policy_bench.register_set(args.set, args.deck, folder))


def run(args, argv: list[str] | None, decks: list[str]) -> int:
    settings = args.setting or list(SETTINGS)
    print(f"command: python benchmarks/search_choices.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    tasks = [(d, s, 0, args.deals, args.turns, args.seed) for d in decks for s in settings]
    results = []
    for result in in_processes(play, tasks, args.jobs):  # in order: a deck's settings one after another
        results.append(result)
        deck = result[0]
        if len(results) % len(settings) == 0:
            mine = [r for r in results if r[0] == deck]
            tally_kinds(deck, [e for r in mine for e in r[2]], sum(r[3] for r in mine), args.show)
    log = [e for _, _, part, _ in results for e in part]
    tally_what(log, sum(n for *_, n in results), args.top, "every deck and setting")
    if len(settings) > 1:
        for setting in settings:
            tally_what([e for e in log if e["setting"] == setting],
                       sum(n for _, s, _, n in results if s == setting), args.top, setting)
    if args.json:
        args.json.write_text(json.dumps(log))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
