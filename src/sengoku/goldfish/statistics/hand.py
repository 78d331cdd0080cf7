"""The opening hand (SPEC S1, S6): exact probabilities next to simulated ones.

The hand is 5 cards drawn from the Stronghold once the Commander has left the Character Deck
(S1, S3, S6), so the exact values come from that composition with the hypergeometric law.

To keep the per-game cost to one C-level sum, every card index gets a *packed* integer: one
small bit field per thing we count (cards of an event's set, cards of each level, charge
value). Summing the packed values of the 5 hand cards adds every field at once; no field can
overflow because each is wide enough for a whole hand. Hands are then counted by their packed
sum, which takes a few hundred distinct values, not one per game.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sengoku.engine.constants import AP_CHARGE, HAND_LIMIT, STARTING_AP
from sengoku.goldfish.statistics import probability as prob
from sengoku.goldfish.wants import Want



def turn1_ap(going_first: bool) -> int:
    """Return the AP available in the first Main Phase before charging any card.

    Starting AP (S7: 0 going first, 5 going second) plus the AP Charge's base 10 (T2a). Cards
    sent to the Standby Zone would add their charge value, but they come out of this same
    hand, so the event counts only AP the hand does not have to pay for.
    """
    return STARTING_AP[going_first] + AP_CHARGE


@dataclass(frozen=True)
class CardFacts:
    """The few facts about a Character card the opening-hand events need."""

    id: str
    name: str
    level: int
    charge_value: int
    deployment_cost: int


@dataclass(frozen=True)
class HandEvent:
    """'The hand holds at least `need` cards of each group', for one or more disjoint groups."""

    key: str
    label: str
    groups: tuple[tuple[int, int], ...]  # (field index, at least)


class OpeningHandModel:
    """What we measure in opening hands of one deck, and how to count it exactly."""

    def __init__(
        self,
        cards: Mapping[str, CardFacts],
        stronghold: Mapping[str, int],
        commander: CardFacts,
        going_first: bool,
        wants: Sequence[Want] = (),
        names_in_play: Sequence[str] = (),
        hand_size: int = HAND_LIMIT,
    ) -> None:
        self.cards = dict(cards)
        self.stronghold = {cid: n for cid, n in sorted(stronghold.items()) if n > 0}
        self.deck_size = sum(self.stronghold.values())
        self.hand_size = min(hand_size, self.deck_size)
        self.commander = commander
        self.turn1_ap = turn1_ap(going_first)
        self.wants = list(wants)
        blocked = {commander.name, *names_in_play}
        ids = list(self.stronghold)

        # Fields: one per counted set of cards, then one per level, then the charge sum.
        self.sets: list[frozenset[str]] = []

        def field(members: list[str]) -> int:
            self.sets.append(frozenset(members))
            return len(self.sets) - 1

        c = self.cards
        self.events: list[HandEvent] = [
            HandEvent(
                "commander_growth_focus",
                f"≥1 card that can grow or focus the Commander ({commander.name})",
                # M2 Growth: same name, higher level; M3 Focus: same name and level.
                ((field([i for i in ids if c[i].name == commander.name and c[i].level >= commander.level]), 1),),
            ),
            HandEvent("level1", "≥1 Level 1 card", ((field([i for i in ids if c[i].level == 1]), 1),)),
            HandEvent(
                "turn1_deployable",
                f"≥1 card deployable with the turn-1 AP ({self.turn1_ap})",
                # M1: pay the deployment cost; no second ally with a name already in play.
                ((field([i for i in ids if c[i].deployment_cost <= self.turn1_ap and c[i].name not in blocked]), 1),),
            ),
        ]
        want_groups = []
        for w in self.wants:
            g = (field([i for i in ids if c[i].name == w.name]), w.copies)
            want_groups.append(g)
            self.events.append(HandEvent(f"want:{w.name}:{w.copies}", w.label(), (g,)))
        if len(want_groups) > 1:
            label = " and ".join(w.label() for w in self.wants)
            self.events.append(HandEvent("wants", f"all wants together: {label}", tuple(want_groups)))

        self.levels = sorted({c[i].level for i in ids})
        self.level_field = {lv: field([i for i in ids if c[i].level == lv]) for lv in self.levels}
        self.max_charge = max((c[i].charge_value for i in ids), default=0)

        count_bits = max(1, self.hand_size.bit_length())
        charge_bits = max(1, (self.hand_size * self.max_charge).bit_length())
        self.widths = [count_bits] * len(self.sets) + [charge_bits]
        self.shifts = []
        shift = 0
        for w in self.widths:
            self.shifts.append(shift)
            shift += w

    # -- packing -------------------------------------------------------------------------
    def pack(self, card_id: str) -> int:
        """Return the packed integer of one card (its contribution to every field)."""
        if card_id not in self.cards:
            return 0
        value = 0
        for k, members in enumerate(self.sets):
            if card_id in members:
                value |= 1 << self.shifts[k]
        return value | (self.cards[card_id].charge_value << self.shifts[-1])

    def packed_table(self, index_ids: Sequence[str]) -> list[int]:
        """Return the packed integer of every engine card index (`index_ids[i]` = card id)."""
        return [self.pack(cid) for cid in index_ids]

    def decode(self, key: int) -> tuple[int, ...]:
        """Return the field values (set counts…, charge sum) of a packed hand sum."""
        return tuple((key >> s) & ((1 << w) - 1) for s, w in zip(self.shifts, self.widths))

    # -- exact -----------------------------------------------------------------------------
    def exact(self, event: HandEvent) -> float:
        groups = [(sum(self.stronghold[i] for i in self.sets[f]), need) for f, need in event.groups]
        return prob.multivariate_at_least(self.deck_size, groups, self.hand_size)

    def set_size(self, field: int) -> int:
        return sum(self.stronghold[i] for i in self.sets[field])

    # -- report ------------------------------------------------------------------------------
    def summarise(self, hands: Counter[int], runs: int) -> dict[str, object]:
        """Return the opening-hand section of the result from the counted packed hands.

        Each event's simulated count is checked against its exact probability by the exact
        two-sided binomial tail (`probability.binomial_two_sided`, reported to three
        significant digits); an event fails (`ok` False: a bug, not luck) when that tail is
        below `probability.alarm_threshold` of the number of events, so a correct run alarms
        with chance below `probability.FALSE_ALARM` (`compare` splits it over every deck's).
        """
        decoded = [(self.decode(key), games) for key, games in sorted(hands.items())]
        family = len(self.events)
        threshold = prob.alarm_threshold(family)
        probabilities = []
        for ev in self.events:
            hits = sum(g for fields, g in decoded if all(fields[f] >= need for f, need in ev.groups))
            exact = self.exact(ev)
            sim = hits / runs if runs else 0.0
            lo, hi = prob.wilson_interval(hits, runs)
            # three significant digits, and `ok` judged on them: the same bytes for any --jobs, and
            # anyone can recheck `ok` from the JSON
            tail = prob.round_tail(prob.binomial_two_sided(hits, runs, exact))
            probabilities.append({
                "event": ev.key,
                "label": ev.label,
                "exact": round(exact, 6),
                "simulated": round(sim, 6),
                "hits": hits,
                "ci95": [round(lo, 6), round(hi, 6)],
                "tail": tail,
                "ok": tail >= threshold,
            })

        charge_sim: Counter[int] = Counter()
        for fields, g in decoded:
            charge_sim[fields[-1]] += g
        charge_exact = prob.sum_distribution(self._charge_counts(), self.hand_size)
        charge_rows = [
            {"total": v, "exact": round(charge_exact.get(v, 0.0), 6),
             "simulated": round(charge_sim.get(v, 0) / runs, 6) if runs else 0.0}
            for v in sorted(set(charge_exact) | set(charge_sim))
        ]

        levels = []
        for lv in self.levels:
            f = self.level_field[lv]
            sim_counts: Counter[int] = Counter()
            for fields, g in decoded:
                sim_counts[fields[f]] += g
            exact_dist = prob.count_distribution(self.deck_size, self.set_size(f), self.hand_size)
            levels.append({
                "level": lv,
                "in_deck": self.set_size(f),
                "distribution": [
                    {"cards": k, "exact": round(p, 6),
                     "simulated": round(sim_counts.get(k, 0) / runs, 6) if runs else 0.0}
                    for k, p in enumerate(exact_dist)
                ],
                "mean": {"exact": round(self.hand_size * self.set_size(f) / self.deck_size, 4),
                         "simulated": round(sum(k * g for k, g in sim_counts.items()) / runs, 4) if runs else 0.0},
            })

        return {
            "hand_size": self.hand_size,
            "deck_size": self.deck_size,
            "turn1_ap": self.turn1_ap,
            "check": {"method": "exact binomial tail, two-sided", "false_alarm": prob.FALSE_ALARM,
                      "events": family, "threshold": threshold},
            "probabilities": probabilities,
            "charge_value": {
                "method": "exact and simulated",
                "mean": {"exact": round(prob.mean_of(charge_exact.items()), 4),
                         "simulated": round(sum(v * g for v, g in charge_sim.items()) / runs, 4) if runs else 0.0},
                "distribution": charge_rows,
            },
            "levels": levels,
        }

    def _charge_counts(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for cid, n in self.stronghold.items():
            v = self.cards[cid].charge_value
            out[v] = out.get(v, 0) + n
        return out
