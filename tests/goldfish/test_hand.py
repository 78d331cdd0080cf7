"""The opening-hand model: packed counting agrees with exact values on independently drawn hands."""

import random
from collections import Counter

import pytest

from sengoku.goldfish.statistics import probability as prob
from sengoku.goldfish.statistics.hand import CardFacts, OpeningHandModel, turn1_ap
from sengoku.goldfish.wants import Want, WantError, parse_want, resolve_wants

# A small deck: a Commander line (Soma 1-4), a cheap line, an expensive line.
CARDS = {
    "S1": CardFacts("S1", "Soma", 1, 3, 3),
    "S2": CardFacts("S2", "Soma", 2, 2, 4),
    "S3": CardFacts("S3", "Soma", 3, 2, 7),
    "K1": CardFacts("K1", "Kai", 1, 2, 2),
    "K2": CardFacts("K2", "Kai", 2, 3, 5),
    "B4": CardFacts("B4", "Big", 4, 1, 16),
    "B3": CardFacts("B3", "Big", 3, 1, 11),
}
DECK = {"S1": 3, "S2": 3, "S3": 3, "K1": 3, "K2": 3, "B4": 2, "B3": 3}


def model(going_first: bool = True, wants=()) -> OpeningHandModel:
    stronghold = dict(DECK)
    stronghold["S1"] -= 1  # S1: the Commander has left the deck
    return OpeningHandModel(CARDS, stronghold, CARDS["S1"], going_first, list(wants))


def test_turn1_ap_is_start_plus_charge_base() -> None:
    assert turn1_ap(True) == 10  # S7 0 + T2a 10
    assert turn1_ap(False) == 15  # S7 5 + T2a 10


def test_exact_events_by_hand() -> None:
    m = model()
    assert m.deck_size == 19
    exact = {e.key: m.exact(e) for e in m.events}
    # 8 Soma cards left (2+3+3) can grow/focus the Soma Commander
    assert exact["commander_growth_focus"] == pytest.approx(1 - prob.hypergeom_pmf(19, 8, 5, 0))
    # Level 1: 2 Soma + 3 Kai
    assert exact["level1"] == pytest.approx(1 - prob.hypergeom_pmf(19, 5, 5, 0))
    # deployable with 10 AP and not named Soma (M1): Kai 1 (2), Kai 2 (5) -> 6 cards; Big costs 11+
    assert exact["turn1_deployable"] == pytest.approx(1 - prob.hypergeom_pmf(19, 6, 5, 0))
    # going second: 15 AP, now Big 3 (11) too -> 9 cards
    m2 = model(going_first=False)
    e2 = {e.key: m2.exact(e) for e in m2.events}
    assert e2["turn1_deployable"] == pytest.approx(1 - prob.hypergeom_pmf(19, 9, 5, 0))


def test_packed_counts_match_exact_on_sampled_hands() -> None:
    m = model(wants=[Want("Kai", 2), Want("Big", 1)])
    index_ids = sorted(m.stronghold)  # any index order works; here one index per card id
    packed = m.packed_table(index_ids)
    deck = [i for i, cid in enumerate(index_ids) for _ in range(m.stronghold[cid])]
    rng = random.Random(2024)
    n = 20000
    hands = Counter(sum(packed[c] for c in rng.sample(deck, 5)) for _ in range(n))
    out = m.summarise(hands, n)
    keys = [p["event"] for p in out["probabilities"]]
    assert keys == ["commander_growth_focus", "level1", "turn1_deployable", "want:Kai:2", "want:Big:1", "wants"]
    for p in out["probabilities"]:
        assert p["ok"], p
        assert p["ci95"][0] <= p["simulated"] <= p["ci95"][1]
    together = next(p for p in out["probabilities"] if p["event"] == "wants")
    assert together["exact"] == pytest.approx(prob.multivariate_at_least(19, [(6, 2), (5, 1)], 5), abs=1e-6)
    # charge value distribution: exact sums to 1, simulated close to exact
    dist = out["charge_value"]["distribution"]
    assert sum(r["exact"] for r in dist) == pytest.approx(1, abs=1e-5)
    for r in dist:
        assert abs(r["simulated"] - r["exact"]) <= 4 * prob.standard_error(r["exact"], n) + 1e-6
    # levels: Level 3 has 6 cards (Soma 3 x3, Big 3 x3)
    lv3 = next(lv for lv in out["levels"] if lv["level"] == 3)
    assert lv3["in_deck"] == 6 and lv3["mean"]["exact"] == round(5 * 6 / 19, 4)


def test_packed_fields_do_not_overflow() -> None:
    m = model()
    s1 = m.packed_table(["S1"])[0]
    fields = m.decode(5 * s1)  # a hand of five Soma 1 (charge 3): every set count 5, charge 15
    assert fields[-1] == 15
    assert fields[0] == 5 and fields[1] == 5  # grow/focus-the-Commander and Level 1 sets
    assert fields[2] == 0  # Soma shares the Commander's name: not deployable (M1)


def test_want_parsing() -> None:
    assert parse_want("Soma") == Want("Soma", 1)
    assert parse_want("Soma:2") == Want("Soma", 2)
    for bad in ("Soma:0", "Soma:-1", ":2", '"":2'):
        with pytest.raises(WantError):
            parse_want(bad)
    assert resolve_wants(["soma:2"], ["Soma", "Kai"]) == [Want("Soma", 2)]
    with pytest.raises(WantError, match="the count after ':' must be a whole number"):
        resolve_wants(["Soma:x"], ["Soma", "Kai"])
    with pytest.raises(WantError, match="did you mean Soma"):
        resolve_wants(["Somma"], ["Soma", "Kai"])
    with pytest.raises(WantError, match="twice"):
        resolve_wants(["Soma", "soma:2"], ["Soma"])


NAMES = ["Soma", "Ninja: Shadow", "Ten", "Ten:10", "Eleven:11"]


@pytest.mark.parametrize("typed, expected", [
    ("Ninja: Shadow", Want("Ninja: Shadow", 1)),  # ':' not followed by a count: part of the name
    ("ninja: shadow:2", Want("Ninja: Shadow", 2)),  # split at the last ':' only
    ("Ninja: Shadow : 3 ", Want("Ninja: Shadow", 3)),
    ("Ten:10", Want("Ten", 10)),  # a count after the last ':'
    ('"Ten:10"', Want("Ten:10", 1)),  # quoted: the whole name
    ('"Ten:10":2', Want("Ten:10", 2)),
    ("Eleven:11", Want("Eleven:11", 1)),  # no card 'Eleven': the whole text is the name
    ("Eleven:11:3", Want("Eleven:11", 3)),
])
def test_a_card_name_holding_a_colon_can_be_wanted(typed: str, expected: Want) -> None:
    assert resolve_wants([typed], NAMES) == [expected]


def test_a_count_past_any_deck_is_no_crash() -> None:
    assert parse_want("Soma:" + "9" * 5000).copies > 60  # int() alone refuses 4,300 digits and more


def test_the_help_says_how_to_want_a_name_holding_a_colon(cli) -> None:
    for command in ("goldfish", "compare"):
        r = cli(command, "--help")
        assert r.code == 0 and "at the last ':' only when a number follows" in " ".join(r.out.replace("│", " ").split())
