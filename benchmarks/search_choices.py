"""Where `search` and the default policy part: every decision at which the search's choice differs from greedy's.

    .venv/bin/python benchmarks/search_choices.py [--deals 100] [--deck NAME ...] [--setting S ...]
        [--turns 12] [--seed 0] [--jobs 1] [--top 40] [--json FILE]

Plays deals of the suite's decks (decklists/suite/, see policy_bench.py) with `search`, exactly
as policy_bench.py does (the same games), and records each decision where the search took another
choice than greedy's own: the kind of decision (the Charge Phase plan, or the Main Phase step the
search took against the first step greedy would have taken from the same position), the turn,
and the rollout gain (greedy's choice's mean kill turn minus the chosen one's, on the search's
second-stage rollouts; positive: the search expects to win sooner). It then tallies the kinds,
by count and by total gain per game, over all decks and settings and per setting.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from policy_bench import SETTINGS, SUITE, load_deck

# The record events that are a Main Phase step of the player's own choosing.
STEPS = ("deploy", "growth", "focus", "move", "swap", "attack", "ability", "contract", "release", "evolution")


def describe_action(state, action) -> tuple[str, dict[str, Any]]:
    """The kind of a Main Phase action, and its details, in the words of the record's events."""
    from sengoku.engine.actions import Kind

    t = state.t
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


def greedy_steps(state) -> list[tuple[str, dict[str, Any]]]:
    """The steps greedy would take in the rest of this Main Phase, from a copy of the position (its record)."""
    from sengoku.engine.clone import clone_state
    from sengoku.engine.policies import GreedyPolicy

    c = clone_state(state, random.Random(0))
    c.record = []
    GreedyPolicy().main_phase(c)
    out = []
    for e in c.record:
        if e["event"] in STEPS:
            detail = {k: e[k] for k in ("card", "magic", "space", "to", "onto") if k in e}
            if e["event"] == "attack":
                detail["boosts"] = len(e["boosts"])
            out.append(("stack" if e["event"] in ("growth", "focus") else e["event"], detail))
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


def where(state, space: int) -> str:
    """A space in the trace's words: column letter and row number from 1 (b3), or a zone."""
    if space < 0:
        return "CZ" if space == -1 else "off"
    r, c = state.t.board.coords[space]
    return "abcdefghij"[c] + str(r + 1)


def show(state, kind: str, d: dict[str, Any]) -> str:
    """One step in a few words: kind, card name and level, spaces."""
    t = state.t
    out = kind
    if "card" in d:
        out += f" {t.name[d['card']]} L{t.level[d['card']]}"
    for k in ("space", "to"):
        if k in d:
            out += f" {k} {where(state, d[k])}"
    if "from" in d:
        out += f" from {where(state, d['from'])}"
    if kind == "attack":
        out += f" {'MAT' if d['magic'] else 'ATK'}+{d['boosts']}"
    if "other" in d:
        out += f" with {t.name[d['other']]} L{t.level[d['other']]}"
    return out


def classify_step(state, action, notes: list[str] | None = None) -> str:
    """Name a Main Phase difference: the search's step against the steps greedy would take this turn."""
    mine, md = describe_action(state, action)
    steps = greedy_steps(state)
    if notes is not None:
        notes.append(show(state, mine, md))
        notes.append("; ".join(show(state, k, d) for k, d in steps))
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
        if same_card:
            return "move: other destination"
        return "move: an ally greedy does not move"
    if not steps:
        return f"{mine} where greedy does nothing more"
    return f"{mine} that greedy does not take this turn"


def classify_plan(state, plan, notes: list[str] | None = None) -> str:
    """Name a Charge Phase difference: the search's plan against greedy's, by cards sent and HP Charge."""
    from sengoku.engine.clone import clone_state
    from sengoku.engine.policies import GreedyPolicy

    t = state.t
    c = clone_state(state, random.Random(0))
    before = len(c.standby)
    c.record = []
    GreedyPolicy().charge_phase(c)
    g_sent = len(c.standby) - before
    g_hp = c.hp_charged
    send, target = plan
    if notes is not None:
        def card(x: int) -> str:
            return f"{t.name[x]} L{t.level[x]}"
        hand = ", ".join(card(x) for x in state.hand)
        mine = ", ".join(card(state.hand[p]) for p in send)
        if target >= 0:
            mine += f"; HP Charge {card(state.allies[target].top)} at {where(state, state.allies[target].space)}"
        theirs = ", ".join(card(x) for x in c.standby[before:])
        for e in c.record:
            if e["event"] == "hp_charge":
                theirs += f"; HP Charge {card(e['card'])}"
        notes.append(f"ap {state.ap} hand [{hand}] sends [{mine}]")
        notes.append(f"sends [{theirs}]")
    n = len(send)
    words = []
    if n != g_sent:
        words.append(f"sends {'more' if n > g_sent else 'fewer'} cards")
    elif n:
        words.append("sends other cards")
    if (target >= 0) != bool(g_hp):
        words.append("HP Charge" if target >= 0 else "no HP Charge")
    return "charge: " + (", ".join(words) if words else "the same plan")


def make_recorder():
    from sengoku.engine.policies.search import _FINISH, SearchPolicy

    class Recording(SearchPolicy):
        """`search`, recording each choice that is not greedy's (the same games: the same draws from policy_rng)."""

        def __init__(self) -> None:
            super().__init__()
            self.log: list[dict[str, Any]] = []

        def _choose(self, state, options, charge):
            # SearchPolicy._choose, step for step (the same seeds), keeping the second stage's scores.
            prng = state.policy_rng
            seeds = [prng.getrandbits(64) for _ in range(self.rollouts)]
            scores = [self._score(state, o, seeds, charge) for o in options]
            order = sorted(range(len(options)), key=lambda k: (scores[k], k))
            finalists = order[: self.finalists]
            if 0 not in finalists:
                finalists.append(0)
            seeds = [prng.getrandbits(64) for _ in range(self.confirm)]
            default = best_score = self._score(state, options[0], seeds, charge)
            best = 0
            for k in finalists:
                if k != 0:
                    score = self._score(state, options[k], seeds, charge)
                    if score < best_score:
                        best, best_score = k, score
            if best != 0:
                option = options[best]
                notes: list[str] = []
                if charge:
                    what = classify_plan(state, option, notes)
                elif option is _FINISH:
                    what = "finish"
                else:
                    what = classify_step(state, option, notes)
                self.log.append({"turn": state.turn, "what": what, "gain": default - best_score,
                                 "opp_hand": len(state.opp_hand), "opp_hp": state.opp_sh_hp,
                                 "ap": state.ap, "search": notes[0] if notes else "",
                                 "greedy": notes[1] if notes else ""})
            return best

    return Recording


def play(task: tuple[str, str, int, int, int, int]) -> tuple[str, str, list[dict[str, Any]], int]:
    """Play deals start..stop-1 of one deck and setting with the recording search."""
    from sengoku.engine import GameRunner
    from sengoku.goldfish.play.seeds import Chance, seed_run

    deck, setting, start, stop, turns, seed = task
    going_first, defends = SETTINGS[setting]
    tables = load_deck(SUITE / f"{deck}.toml")
    chance = Chance()
    policy = make_recorder()()
    runner = GameRunner(tables, policy, chance, turns, going_first, opponent_defends=defends)
    log = []
    for i in range(start, stop):
        seed_run(chance, seed, i)
        policy.log = []
        runner.play()
        for e in policy.log:
            e.update(deck=deck, setting=setting, deal=i)
        log += policy.log
    return deck, setting, log, stop - start


def tally(log: list[dict[str, Any]], games: int, top: int, title: str) -> None:
    """Print the kinds of difference: count, total gain per game, mean gain, turns."""
    count: dict[str, int] = defaultdict(int)
    gain: dict[str, float] = defaultdict(float)
    turns: dict[str, dict[int, int]] = defaultdict(lambda: defaultdict(int))
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
    parser.add_argument("--deals", type=int, default=100, help="deals per deck and setting")
    parser.add_argument("--deck", action="append", help="suite deck names (default: every deck of decklists/suite/)")
    parser.add_argument("--setting", action="append", choices=list(SETTINGS), help="default: all four")
    parser.add_argument("--turns", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (the result does not depend on it)")
    parser.add_argument("--top", type=int, default=40, help="kinds shown per table")
    parser.add_argument("--json", type=Path, help="also write every recorded choice here")
    args = parser.parse_args(argv)

    decks = args.deck or sorted(p.stem for p in SUITE.glob("*.toml"))
    settings = args.setting or list(SETTINGS)
    print(f"command: python benchmarks/search_choices.py {' '.join(sys.argv[1:] if argv is None else argv)}")
    tasks = [(d, s, 0, args.deals, args.turns, args.seed) for d in decks for s in settings]
    if args.jobs > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(args.jobs) as pool:
            results = list(pool.imap(play, tasks))
    else:
        results = [play(task) for task in tasks]
    log = [e for _, _, part, _ in results for e in part]
    games = sum(n for *_, n in results)
    tally(log, games, args.top, "every deck and setting")
    if len(settings) > 1:
        for setting in settings:
            part = [e for e in log if e["setting"] == setting]
            n = sum(k for _, s, _, k in results if s == setting)
            tally(part, n, args.top, setting)
    if args.json:
        args.json.write_text(json.dumps(log))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
