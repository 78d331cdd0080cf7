"""Opening hands for the games beside SENGOKU YUGI (issue 5): exact and simulated, with `--want`.

These games are not simulated turn by turn (their rules engines are not ours to write); what a
deck builder can still learn is how often the opening hand, and each later round's draws,
hold what they want. The game file says how a hand is dealt (`[opening_hand]`: which section,
which of its cards are shuffled in, how many are dealt, how many are drawn per round); a game
without one deals no opening hand from a shuffled deck, and we say so (its `no_opening_hand`
gives the reason).

Exact values are hypergeometric (`math.comb`, via `goldfish.probability`); simulated ones deal
`runs` shuffled hands from one seeded `random.Random` and carry 95% Wilson intervals. Each
simulated count is checked against its exact value by the exact two-sided binomial tail
(`probability.binomial_two_sided`), the threshold split over every event and round checked, so
a correct simulation reports an error in fewer than one run in a million.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from sengoku.decklist.model import Decklist
from sengoku.errors import SengokuError
from sengoku.goldfish.statistics.probability import (FALSE_ALARM, alarm_threshold, binomial_two_sided, hypergeom_at_least,
                                          multivariate_at_least, round_tail, wilson_interval)
from sengoku.goldfish.wants import Want, resolve_wants
from sengoku.decklist.read import read_decklist
from sengoku.games import opening_hand
from sengoku.goldfish.errors import InvalidDeckError
from sengoku.validate.api import Validator
from sengoku.validate.rules import compile_filter

DEFAULT_ROUNDS = 5  # rounds shown in the by-round table when the game draws per round
MAX_RUNS = 10_000_000


class NoOpeningHandError(SengokuError):
    """The game deals no opening hand from a shuffled deck: there is nothing to compute."""


def _load(deck: Decklist | Path | str) -> tuple[Decklist, list[Any]]:
    if isinstance(deck, Decklist):
        return deck, []

    return read_decklist(deck)


def _events_for(field: str, pool: Mapping[str, dict[str, Any]], ids: list[str]) -> list[tuple[str, set[str]]]:
    """One default event per value of `field` among the deck's shuffled cards: 'at least one such card'."""
    values: dict[Any, set[str]] = {}
    for card_id in ids:
        value = pool[card_id].get(field)
        if value is not None and not isinstance(value, (list, dict)):
            values.setdefault(value, set()).add(card_id)
    return [(f"≥1 {str(v).replace('_', ' ')} card ({field})", cards) for v, cards in sorted(values.items(), key=str)]


def _resolve_wants(wants: Iterable[Want | str], pool: Mapping[str, dict[str, Any]]) -> list[tuple[Want, set[str]]]:
    """Match each want to the shuffled cards of that name (as `resolve_wants` does); refuse unknowns and repeats."""
    by_name: dict[str, set[str]] = {}
    for card_id, card in pool.items():
        by_name.setdefault(str(card.get("name", card_id)), set()).add(card_id)
    resolved = resolve_wants(wants, by_name, unknown="no card of that name is shuffled into this game's deck")
    return [(w, by_name[w.name]) for w in resolved]


def opening_hand_report(deck: Decklist | Path | str, db: Any = None, runs: int = 10_000, seed: int = 0,
                        wants: Iterable[Want | str] = (), rounds: int | None = None) -> dict[str, Any]:
    """Return the opening-hand report of a non-SENGOKU deck: exact and simulated probabilities.

    `deck` is a Decklist or a decklist path, `db` a card database path/catalog or None (the
    game's bundled one), `wants` 'NAME[:N]' strings. Raise `NoOpeningHandError` when the game
    deals no opening hand, `InvalidDeckError` when the deck breaks its rules, `WantError` for
    an unusable want. Same inputs and seed -> same report.
    """

    if not 1 <= runs <= MAX_RUNS:
        raise SengokuError(f"--runs must be from 1 to {MAX_RUNS:,}, not {runs}")
    decklist, syntax = _load(deck)
    validator = Validator(db)
    checker = validator.checker(decklist.game)
    game = checker.book.game
    hand = opening_hand(game)
    if hand is None:
        reason = game.raw.get("no_opening_hand", "its rule file has no [opening_hand]")
        raise NoOpeningHandError(f"{game.title} ({game.id}) deals no opening hand from a shuffled deck: "
                                 f"{reason}. There is nothing to goldfish; `sengoku validate` checks the deck.")
    validation = validator.validate_deck(decklist, syntax)
    if not validation.valid:
        raise InvalidDeckError(validation)

    cards = checker.catalog.cards
    where = compile_filter(hand.where)
    shuffled = {i: c for i, c in cards.items() if where is None or where(c)}
    counts = {i: n for i, n in validation.sections.get(hand.section, {}).items() if i in shuffled}
    ids = sorted(counts)
    library = [i for i in ids for _ in range(counts[i])]  # the shuffled deck, one entry per copy
    total = len(library)
    if rounds is None:
        rounds = DEFAULT_ROUNDS if hand.per_round else 0
    seen_by_round = [min(total, hand.size + r * hand.per_round) for r in range(rounds + 1)]
    if hand.size > total:
        raise SengokuError(f"the deck shuffles {total} cards but the opening hand is {hand.size}")

    # Events: every want, all wants together, then 'at least one card of each <field> value'.
    resolved = _resolve_wants(wants, shuffled)
    events: list[dict[str, Any]] = []
    for want, group in resolved:
        events.append({"label": want.label(), "kind": "want", "card": want.name,
                       "groups": [(group, want.copies)]})
    if len(resolved) > 1:
        events.append({"label": "all wants together", "kind": "all_wants",
                       "groups": [(g, w.copies) for w, g in resolved]})
    for field in game.raw.get("opening_hand", {}).get("report", ["kind"]):
        for label, group in _events_for(field, shuffled, ids):
            events.append({"label": label, "kind": field, "groups": [(group, 1)]})

    # Simulate: deal the top `last` cards of a shuffled deck, note when each event first holds.
    last = seen_by_round[-1]
    rng = random.Random(seed)
    index = {card_id: n for n, card_id in enumerate(ids)}
    deck_idx = [index[c] for c in library]
    member = [[[0] * len(ids) for _ in ev["groups"]] for ev in events]  # event -> group -> card idx -> 1
    for e, ev in enumerate(events):
        for g, (group, _) in enumerate(ev["groups"]):
            for c in group:
                if c in index:
                    member[e][g][index[c]] = 1
    first_round = [[0] * (rounds + 2) for _ in events]  # histogram of the round an event first holds
    never = rounds + 1
    for _ in range(runs):
        dealt = rng.sample(deck_idx, last)
        for e, ev in enumerate(events):
            needs = [need for _, need in ev["groups"]]
            have = [0] * len(needs)
            missing = sum(1 for n in needs if n > 0)
            when = never if missing else 0
            if missing:
                for pos, c in enumerate(dealt):
                    for g, m in enumerate(member[e]):
                        if m[c]:
                            have[g] += 1
                            if have[g] == needs[g]:
                                missing -= 1
                    if missing == 0:
                        when = 0 if pos < hand.size else -(-(pos + 1 - hand.size) // hand.per_round)
                        break
            first_round[e][when] += 1

    out_events = []
    errors = []
    threshold = alarm_threshold(len(events) * len(seen_by_round))  # every event, every round: one family
    for e, ev in enumerate(events):
        groups = [(sum(counts[c] for c in group if c in counts), need) for group, need in ev["groups"]]
        by_round = []
        hits = 0
        for r, seen in enumerate(seen_by_round):
            hits += first_round[e][r]
            if len(groups) == 1:
                exact = hypergeom_at_least(total, groups[0][0], seen, groups[0][1])
            else:
                exact = multivariate_at_least(total, groups, seen)
            lo, hi = wilson_interval(hits, runs)
            sim = hits / runs
            tail = round_tail(binomial_two_sided(hits, runs, exact))
            by_round.append({"round": r, "cards_seen": seen, "exact": exact, "simulated": sim, "hits": hits,
                             "interval": [lo, hi], "tail": tail})
            if tail < threshold:
                errors.append(f"{ev['label']}, round {r}: {hits} of {runs} simulated deals where the exact "
                              f"probability is {exact:.4f}: two-sided binomial tail {tail:.3g}, below the alarm "
                              f"threshold {threshold:.3g}")
        out_events.append({"label": ev["label"], "event": ev["kind"], **({"card": ev["card"]} if "card" in ev else {}),
                           "in_deck": [g for g, _ in groups], "need": [n for _, n in groups],
                           **{k: by_round[0][k] for k in ("exact", "simulated", "hits", "interval", "tail")},
                           "by_round": by_round if rounds else []})
    return {
        "game": game.id,
        "title": game.title,
        "deck": decklist.path,
        "section": hand.section,
        "deck_size": total,
        "hand_size": hand.size,
        "per_round": hand.per_round,
        "rounds": rounds,
        "runs": runs,
        "seed": seed,
        "events": out_events,
        "check": {"method": "exact binomial tail, two-sided", "false_alarm": FALSE_ALARM,
                  "events": len(events) * len(seen_by_round), "threshold": threshold},
        "errors": errors,
        "ok": not errors,
        "note": game.raw.get("opening_hand", {}).get("note", ""),
    }


def render_text(report: Mapping[str, Any]) -> str:
    """Return the report as plain text tables (stdout of `sengoku goldfish` for these games)."""
    lines = [f"{report['title']}: opening hand of {report['hand_size']} from {report['deck_size']} shuffled "
             f"[[{report['section']}]] cards; {report['runs']:,} simulated deals, seed {report['seed']}"]
    if report.get("note"):
        lines.append(report["note"])
    lines.append("")
    width = max([len(e["label"]) for e in report["events"]] + [5])
    lines.append(f"{'event':<{width}}  {'exact':>7}  {'simulated':>9}  {'95% interval':>17}")
    for e in report["events"]:
        lo, hi = e["interval"]
        lines.append(f"{e['label']:<{width}}  {e['exact']:>7.2%}  {e['simulated']:>9.2%}  [{lo:>6.2%}, {hi:>6.2%}]")
    if report["rounds"]:
        lines.append("")
        lines.append(f"by round (exact; {report['per_round']} card(s) drawn each round after the opening hand):")
        head = "  ".join(f"r{r['round']}({r['cards_seen']})".rjust(8) for r in report["events"][0]["by_round"])
        lines.append(f"{'event':<{width}}  {head}")
        for e in report["events"]:
            lines.append(f"{e['label']:<{width}}  " + "  ".join(f"{r['exact']:>8.2%}" for r in e["by_round"]))
    for err in report["errors"]:
        lines.append(f"error: {err}")
    return "\n".join(lines) + "\n"
