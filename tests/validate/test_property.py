"""Property: no input makes the validator raise. Random bytes, TOML-ish text, random structures."""

from __future__ import annotations

import tempfile
from pathlib import Path

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sengoku.decklist.read import parse_decklist
from sengoku.validate import validate_paths
from sengoku.validate.api import Validator

VALIDATOR = Validator()
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_bytes(data: bytes | str) -> None:
    deck, syntax = parse_decklist(data, "<random>", VALIDATOR.games)
    result = VALIDATOR.validate_deck(deck, syntax) if deck.game in VALIDATOR.games else None
    for v in syntax + (result.violations if result else []):
        assert v.severity in ("error", "warning") and isinstance(v.message, str) and v.rule
        assert v.line is None or v.line >= 1


@FAST
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    check_bytes(data)


TOMLISH = st.lists(st.sampled_from([
    "[[main]]", "[[nameless]]", "[[familiars]]", "[[deck]]", "[main]", "name = ", "level = ", "count = ", "id = ",
    "epithet = ", "mode = ", "game = ", '"Soma"', '"Ronin"', '"SY1-001"', '"ultimate"', '"senjutsu"', "1", "3", "-1",
    "1e9", "true", "[", "]", "{", "}", ",", "\n", "\r\n", "#", '"""', "'", " ", "\ufeff", "ＳＯＭＡ", "=", ".", "nan",
]), max_size=60).map("".join)


@FAST
@given(TOMLISH)
def test_random_tomlish_text(text: str) -> None:
    check_bytes(text)
    check_bytes(text.encode("utf-8", "surrogatepass"))


scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**63), max_value=2**63 - 1),
                    st.floats(allow_nan=True), st.text(max_size=12),
                    st.sampled_from(["Soma", "ronin", "Benkei", "SY1-037", "Harbee", "ultimate", "standard"]))
keys = st.sampled_from(["name", "id", "level", "count", "epithet", "mode", "game", "format", "players", "x"])
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(keys, inner, max_size=5)), max_leaves=12)
entry = st.dictionaries(keys, values, max_size=5)
section = st.lists(st.one_of(entry, values), max_size=6)
documents = st.fixed_dictionaries({}, optional={
    "game": st.one_of(st.sampled_from(["sengoku-yugi", "senjutsu", "champions", "fe-tcg", "clan-tactics", "x"]),
                      values),
    "mode": st.one_of(st.sampled_from(["standard", "ultimate", "Ultimate"]), values),
    "format": st.one_of(st.just("sample-championship"), values),
    "players": values, "name": values,
    "main": section, "nameless": section, "familiars": section, "deck": section, "champions": section,
    "junk": values,
})


def _drop_none(value):
    if isinstance(value, dict):
        return {k: _drop_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_drop_none(v) for v in value if v is not None]
    return value


@FAST
@given(documents)
def test_random_structures_dumped_as_toml(doc: dict) -> None:
    try:
        text = tomli_w.dumps(_drop_none(doc))
    except (TypeError, ValueError):
        return  # not representable in TOML (e.g. a top-level array of mixed tables)
    check_bytes(text)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=200), TOMLISH.map(str.encode)), min_size=1, max_size=3))
def test_validate_paths_never_raises(files: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for i, data in enumerate(files):
            Path(tmp, f"d{i}.toml").write_bytes(data)
        run = validate_paths([tmp])
        # Every file gets a verdict, or is skipped with a note as not a decklist (a TOML file
        # with keys but none of a decklist's).
        assert len(run.results) + len(run.skipped) == len(files) and run.exit_code in (0, 1)


names = st.one_of(st.none(), st.text(max_size=10), st.sampled_from(["Soma", "ronin", "Benkei", "Harbee", "ＳＯＭＡ"]))
entries = st.builds(
    lambda section, count, name, card_id, level, epithet: __import__("sengoku").DeckEntry(
        section=section, count=count, name=name, id=card_id, level=level, epithet=epithet),
    st.sampled_from(["main", "nameless", "familiars", "deck", "other"]),
    st.integers(min_value=-5, max_value=10**30), names,
    st.one_of(st.none(), st.sampled_from(["SY1-001", "sy1-037", "nope"])),
    st.one_of(st.none(), st.integers(min_value=-3, max_value=9)), st.one_of(st.none(), st.text(max_size=6)))


@FAST
@given(st.lists(entries, max_size=12), st.sampled_from(["standard", "ultimate", "odd"]),
       st.sampled_from(["sengoku-yugi", "senjutsu", "champions", "nope"]))
def test_validate_deck_on_decklists_built_in_code(items, mode, game) -> None:
    from sengoku import Decklist, validate_deck

    result = validate_deck(Decklist(entries=items, mode=mode, game=game))
    assert all(v.rule and v.severity in ("error", "warning") for v in result.violations)
