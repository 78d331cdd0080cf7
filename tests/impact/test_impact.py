"""`impact()` (G9): a planted dead card and a planted strong card, the effect against compare's own paired
difference, the association columns against exact probabilities, and cards whose removal is illegal."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from impact_planted import DEAD, DEFAULT_DECK, STRONG
from sengoku.decklist.read import read_decklist
from sengoku.goldfish.compare import compare
from sengoku.goldfish.options import PolicySpec
from sengoku.goldfish.statistics.differences import KILL_TURN_MEAN
from sengoku.impact import ImpactError, impact
from sengoku.impact.result import DEAD as DEAD_WEIGHT
from sengoku.impact.result import PULLS, UNMEASURED, UNTOLD
from sengoku.impact.work import cards_seen
from sengoku.tune.deck import Change, Deck, decklist


@pytest.fixture(scope="module")
def planted(planted_deck: Path, planted_db: Path):  # type: ignore[no-untyped-def]
    """The planted deck's two planted cards, measured with a defending opponent (longer games: G9's bias shows),
    played by greedy's script (no look-ahead: its 1,000 runs a change at the script's speed; what is tested
    is the measure, not the player)."""
    return impact(planted_deck, planted_db, cards=[DEAD, STRONG], precision=0.03, opponent_defends=True,
                  policy=PolicySpec("greedy", {"lookahead_turns": 0}))


def _row(result, label: str):  # type: ignore[no-untyped-def]
    return next(c for c in result.cards if c.subject.label == label)


def test_the_dead_card_reads_worse_when_drawn_but_removing_it_changes_nothing_measurable(planted) -> None:  # type: ignore[no-untyped-def]
    """G9: the association carries game length's bias; the effect does not."""
    dead = _row(planted, f"{DEAD} Lv2")
    a = dead.association
    assert a["drawn"]["runs"] + a["not_drawn"]["runs"] == planted.runs
    # drawn, the full deck's games are clearly slower: Welch's 95% interval of drawn - not drawn is above 0 ...
    assert a["ci95"][0] > 0, a
    # ... while one copy fewer, on the same deals, cannot be told apart from nothing
    assert dead.ci95 is not None and dead.ci95[0] <= 0 <= dead.ci95[1], dead.ci95
    assert dead.verdict(planted.objective) == UNTOLD
    assert dead.sums.half_width() <= 0.03  # it stopped because it was precise enough, not for lack of runs


def test_the_strong_card_is_found(planted) -> None:  # type: ignore[no-untyped-def]
    strong = _row(planted, f"{STRONG} Lv1")
    assert strong.verdict(planted.objective) == PULLS
    assert strong.corrected[0] > 0  # the deck is slower with one copy fewer, after the correction
    assert planted.ranked()[0] is strong  # the answer lists it first
    # the correction is Bonferroni over the 2 cards and the looks' spending sequence: the level says so
    assert strong.level == pytest.approx(0.05 * 6 / math.pi ** 2 / 2)
    assert "Bonferroni over the 2 card(s)" in planted.correction()


def test_an_effect_is_compare_s_paired_difference_on_the_same_runs(planted, planted_deck: Path,
                                                                   planted_db: Path) -> None:  # type: ignore[no-untyped-def]
    """The effect of one copy fewer is what compare reports for the deck without it against the full deck, run for run."""
    strong = _row(planted, f"{STRONG} Lv1")
    like, _ = read_decklist(planted_deck)
    from sengoku.validate.api import Validator
    from sengoku.carddb.load import load_card_db

    full = Deck.from_sections(Validator(load_card_db(planted_db)).validate_deck(like).sections)
    fewer = full.apply(Change("main", strong.subject.card_id, None))
    again = compare([planted_deck, decklist(fewer, like)], planted_db, runs=strong.sums.n, jobs=1,
                    opponent_defends=True, policy=planted.options.policy)
    row = again.rows(KILL_TURN_MEAN)[0]
    assert row["diff"] == pytest.approx(strong.sums.mean, abs=1e-4)
    assert row["ci95"] == pytest.approx(list(strong.ci95), abs=1e-4)


def test_the_opening_hand_column_matches_the_exact_probability(planted) -> None:  # type: ignore[no-untyped-def]
    """S6: 5 cards from the 57-card Stronghold (58 less the Commander); 3 copies: P(at least one) is exact."""
    dead = _row(planted, f"{DEAD} Lv2")
    p = 1 - math.comb(54, 5) / math.comb(57, 5)
    n = planted.runs
    seen = dead.association["opening_hand"]["runs"]
    assert abs(seen - n * p) <= 4.5 * math.sqrt(n * p * (1 - p)), (seen, n * p)  # beyond 4.5 sd: a bug, not chance


def test_cards_seen_reads_the_opening_hand_and_the_draws_by_turn_t() -> None:
    events = [{"event": "setup", "hand": [1, 2, 3, 4, 5]}, {"event": "turn", "turn": 1},
              {"event": "draw", "cards": [6, 7]}, {"event": "turn", "turn": 2}, {"event": "troop", "card": 8},
              {"event": "draw", "cards": [9]}, {"event": "turn", "turn": 3}, {"event": "draw", "cards": [10]}]
    assert cards_seen(events, 1) == ({1, 2, 3, 4, 5}, {1, 2, 3, 4, 5, 6, 7})
    assert cards_seen(events, 2) == ({1, 2, 3, 4, 5}, {1, 2, 3, 4, 5, 6, 7, 8, 9})
    assert cards_seen(events, 8)[1] == set(range(1, 11))


@pytest.fixture(scope="module")
def fifty(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default deck at exactly 50 Main and Support cards (D1): Nene Lv2 at 1 copy instead of 3."""
    text = DEFAULT_DECK.read_text(encoding="utf-8")
    nene = '[[main]]\nname = "Nene"\nlevel = 2\ncount = 3\n'
    assert nene in text
    path = tmp_path_factory.mktemp("fifty") / "fifty.toml"
    path.write_text(text.replace(nene, nene.replace("count = 3", "count = 1")), encoding="utf-8")
    return path


def test_a_card_whose_removal_is_illegal_cannot_be_measured_without_a_filler(fifty: Path) -> None:
    result = impact(fifty, cards=["Soma Lv1", "Ronin"], budget=10)  # nothing to play: no game is needed
    assert result.measured == 0 and result.games == 0
    for c in result.cards:
        assert c.verdict(result.objective) == UNMEASURED and c.sums is None
    soma, ronin = _row(result, "Soma Lv1"), _row(result, "Ronin Lv1")
    assert "(deck-size)" in soma.subject.reason and "--filler" in soma.subject.reason
    assert "(nameless-count)" in ronin.subject.reason and "nameless card" in ronin.subject.reason


def test_with_a_filler_one_copy_is_replaced_and_measured(fifty: Path) -> None:
    result = impact(fifty, cards=["Soma Lv1", "Ronin"], filler=["Nene Lv2", "Ashigaru"], precision=0.2)
    soma, ronin = _row(result, "Soma Lv1"), _row(result, "Ronin Lv1")
    assert soma.subject.change_words(result.names) == "one copy replaced by Nene Lv2"
    assert soma.sums is not None and soma.sums.n >= 1000 and "(deck-size)" in soma.subject.reason
    assert ronin.subject.change_words(result.names) == "one copy replaced by Ashigaru Lv1"
    assert ronin.sums is not None and ronin.association is None  # a Nameless is never drawn (S2)
    assert result.measured == 2


def test_a_filler_that_makes_the_deck_illegal_is_said(fifty: Path) -> None:
    """Replacing a copy of Oichi Lv1 by a fourth Soma Lv1 breaks the copy limit (D3): the reason says both."""
    result = impact(fifty, cards=["Oichi Lv1"], filler=["Soma Lv1"], budget=10)
    oichi = _row(result, "Oichi Lv1")
    assert oichi.verdict(result.objective) == UNMEASURED
    assert "(deck-size)" in oichi.subject.reason and "replaced by Soma Lv1" in oichi.subject.reason


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"filler": ["No Such Card"]}, "--filler 'No Such Card': no card"),
    ({"filler": ["Soma"]}, "add the level, as in 'Soma Lv1'"),
    ({"cards": ["Nene Lv3"]}, "the deck holds no such card"),
    ({"budget": 100}, "less than the first look needs"),
    ({"precision": 0.0}, "--precision must be a positive number"),
    ({"drawn_by": 9}, "--drawn-by must be a turn from 1 to --turns (8)"),
    ({"objective": "won-by:9"}, "--objective must be"),
    ({"error_rate": 1.0}, "--error-rate must be between 0 and 1"),
])
def test_unusable_options_are_refused_before_any_game(kwargs: dict, says: str) -> None:
    with pytest.raises(ImpactError) as caught:
        impact(None, **kwargs)
    assert says in str(caught.value)


def test_every_deck_shares_the_full_deck_s_copy_codes_even_against_another_opponent() -> None:
    """G7: a copy both decks hold takes the same place in both Stronghold orders, also with an --opponent deck
    (whose pairing goldfish gives the deck it plays, and the race must not)."""
    from sengoku.impact.race import ImpactRace

    race = ImpactRace(DEFAULT_DECK, opponent=DEFAULT_DECK.parent / "tune" / "no-level4.toml",
                      cards=["Soma Lv1", "Sorin Lv2", "Kagetora Lv4"])
    full = race.full.tables
    codes = {full.card_id[i]: full.copy_codes[i] for i in range(full.n)}
    assert len(race.plans) == 3
    for plan in race.plans:
        t = plan.tables
        for i in range(t.n):
            shared = codes.get(t.card_id[i], ())
            assert t.copy_codes[i][:len(shared)] == shared[:len(t.copy_codes[i])], t.card_id[i]
