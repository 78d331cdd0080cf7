"""Generated decks (issue 36): legal under D1-D8 on every profile and many seeds, each profile true to its
definition, reproducible from (database, profile, seed), written as decklists `sengoku validate` passes."""

from __future__ import annotations

from collections import Counter

import pytest

from sengoku.generate import PROFILES, GenerateError, deck_toml, generate_deck
from sengoku.validate.api import validate_deck

from cli_run import run_captured

SEEDS = range(8)


def characters(result, rows):
    """(card row, copies) of the Character Deck (the main section), as the validator resolved it."""
    return [(rows[card_id], n) for card_id, n in result.sections.get("main", {}).items()]


def mean_level(cards) -> float:
    return sum(c["level"] * n for c, n in cards) / sum(n for _, n in cards)


def climbing_names(cards) -> int:
    levels: dict[str, set[int]] = {}
    for c, _ in cards:
        if c["kind"] == "main":
            levels.setdefault(c["name"], set()).add(c["level"])
    return sum(1 for lv in levels.values() if lv == {1, 2, 3, 4})


# Each profile's defining property, computed here from the validator's resolved cards (not the generator's).
def _ultimate(cards, result, rows) -> bool:
    familiars = [rows[i] for i in result.sections.get("familiars", {})]
    names = {f["name"] for f in familiars}
    top = max(c["level"] for c, _ in cards)
    return (result.mode == "ultimate" and 10 <= len(familiars) <= 20 and any(f["is_egg"] for f in familiars)
            and all(f["evolves_from"] is None or f["evolves_from"] in names for f in familiars)  # whole lines
            and all(f["level"] <= top for f in familiars) and climbing_names(cards) >= 4)


PROPERTY = {
    "climb": lambda cards, result, rows: climbing_names(cards) >= 4,
    "low-curve": lambda cards, result, rows: max(c["level"] for c, _ in cards) <= 2 and mean_level(cards) <= 1.5,
    "high-level": lambda cards, result, rows: mean_level(cards) >= 2.6,
    "mat-heavy": lambda cards, result, rows: 2 * sum(n for c, n in cards if c["mat"] > c["atk"])
    >= sum(n for _, n in cards),
    "supports": lambda cards, result, rows: sum(n for c, n in cards if c["kind"] == "support") >= 12,
    "one-commander": lambda cards, result, rows: len({c["name"] for c, _ in cards
                                                      if c["kind"] == "main" and c["level"] == 1}) == 1,
    "sixty": lambda cards, result, rows: sum(n for _, n in cards) == 60,
    "ultimate": _ultimate,
}


def test_every_profile_has_its_property_checked_here():
    assert set(PROPERTY) == set(PROFILES)


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_generated_decks_are_legal_without_warnings_and_true_to_their_profile(databases, profile):
    for db_name, (path, cards) in databases.items():
        rows = {c["id"]: c for c in cards}
        for seed in SEEDS:
            deck = generate_deck(cards, profile, seed)
            result = validate_deck(deck, path)
            where = f"{profile}, seed {seed}, {db_name}"
            assert result.valid and not result.violations, (where, [v.message for v in result.violations])
            main = characters(result, rows)
            assert 50 <= sum(n for _, n in main) <= 60, where  # D1, asked again of the resolved cards
            assert len(result.sections["nameless"]) == 2, where  # two different Nameless (D2)
            assert PROPERTY[profile](main, result, rows), where


def test_a_deck_is_the_same_from_the_same_seed_and_differs_between_seeds(databases):
    _, cards = databases["bundled"]
    for profile in PROFILES:
        texts = [deck_toml(generate_deck(cards, profile, seed)) for seed in SEEDS]
        assert texts == [deck_toml(generate_deck(list(reversed(cards)), profile, seed)) for seed in SEEDS]
        assert len(set(texts)) >= 6, profile  # eight seeds, at most two alike


def test_ultimate_decks_take_different_familiar_lines_by_seed(databases):
    for _, (_, cards) in databases.items():
        rows = {c["name"]: c for c in cards if c["kind"] == "familiar"}
        roots = Counter()
        for seed in SEEDS:
            familiars = [e.name for e in generate_deck(cards, "ultimate", seed).section("familiars")]
            roots[frozenset(n for n in familiars if rows[n]["evolves_from"] is None)] += 1
        assert len(roots) >= 4, roots


def test_written_decklists_pass_sengoku_validate(tmp_path, capsys, databases):
    for db_name, (path, cards) in databases.items():
        for profile in ("low-curve", "ultimate"):
            deck = tmp_path / f"{db_name}-{profile}.toml"
            deck.write_text(deck_toml(generate_deck(cards, profile, 3), f"{profile}, seed 3\n{db_name}"),
                            encoding="utf-8")
            args = ["validate", str(deck)] + (["--db", str(path)] if path is not None else [])
            outcome = run_captured(capsys, *args)
            assert outcome.code == 0, outcome.out + outcome.err
            assert deck.read_text(encoding="utf-8").startswith(f"# {profile}, seed 3\n# {db_name}\n")


def test_a_database_that_cannot_give_a_profile_says_why(databases):
    _, cards = databases["bundled"]
    no_supports = [c for c in cards if c["kind"] != "support"]
    with pytest.raises(GenerateError, match="Support"):
        generate_deck(no_supports, "supports", 0)
    no_eggs = [c for c in cards if not c.get("is_egg")]
    with pytest.raises(GenerateError, match="Familiar Egg"):
        generate_deck(no_eggs, "ultimate", 0)
    with pytest.raises(GenerateError, match="unknown deck profile 'tiny'.*low-curve"):
        generate_deck(cards, "tiny", 0)
    with pytest.raises(GenerateError, match="seed"):
        generate_deck(cards, "climb", -1)
