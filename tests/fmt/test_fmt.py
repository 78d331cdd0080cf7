"""`sengoku fmt`: canonical form, comments kept, merging, idempotence, --check, atomic writes."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sengoku.decklist.fmt import canonical_decklist, fmt_decklist
from sengoku.decklist.tomldoc import source_comments
from sengoku.errors import DataError
from sengoku.paths import data_dir

MESSY = '''\
#:schema ../schemas/decklist.schema.json
# Tournament list, round 3

mode = "standard"   # Standard Mode (D7)
name = "Banners"

# Nameless first: they start in the Perimeter (S2)
[[nameless]]
name = "Ronin"

[[main]]
count = 2
name = "Sorin"    # support
level = 3

# our Commander (S1)
[[main]]
level = 1
name = "Soma"
count = 2

[[main]]
name = "Kagetora"
level = 1
count = 3

[[main]]
name = "SOMA"
level = 1
count = 1
'''

CANONICAL = '''\
#:schema ../schemas/decklist.schema.json
# Tournament list, round 3

name = "Banners"
mode = "standard"  # Standard Mode (D7)

[[main]]
name = "Kagetora"
level = 1
count = 3

# our Commander (S1)
[[main]]
name = "Soma"
level = 1
count = 3

[[main]]
name = "Sorin"  # support
level = 3
count = 2

# Nameless first: they start in the Perimeter (S2)
[[nameless]]
name = "Ronin"
'''


def test_canonical_form_by_hand() -> None:
    """Sections in order; Main (by level, name) before Support; Soma's two entries merged; keys ordered."""
    result = canonical_decklist(MESSY)
    assert result.formatted == CANONICAL
    assert result.notes == ["merged 2 entries of Soma Lv1 in [[main]] into one (count 3)"]
    assert canonical_decklist(CANONICAL).changed is False


def test_kind_comes_from_the_card_database() -> None:
    """Sorin Lv2 is a Support card: it sorts after Main cards of higher level."""
    text = '[[main]]\nname = "Sorin"\nlevel = 2\n\n[[main]]\nname = "Oichi"\nlevel = 4\n\n[[main]]\nid = "SY1-001"\n'
    out = canonical_decklist(text).formatted
    assert [line for line in out.splitlines() if line.startswith(("name", "id"))] == [
        'id = "SY1-001"', 'name = "Oichi"', 'name = "Sorin"']


def test_every_comment_is_kept() -> None:
    out = canonical_decklist(MESSY).formatted
    assert sorted(c for _, c in source_comments(out)) == sorted(c for _, c in source_comments(MESSY))


def test_opening_comment_block_stays_on_top_when_keys_reorder() -> None:
    text = '#:schema ../schemas/decklist.schema.json\n# expect: deck-size\nmode = "standard"\nname = "x"\n'
    assert canonical_decklist(text).formatted == (
        '#:schema ../schemas/decklist.schema.json\n# expect: deck-size\nname = "x"\nmode = "standard"\n')


def test_merged_entry_comments_move_above_the_entry_they_join() -> None:
    text = '[[main]]\nname = "Soma"\nlevel = 1\ncount = 1\n\n# second copy\n[[main]]\nname = "Soma"  # why\nlevel = 1\n'
    result = canonical_decklist(text)
    assert result.formatted == '# second copy\n# why\n[[main]]\nname = "Soma"\nlevel = 1\ncount = 2\n'


def test_comment_inside_an_array_is_reported_not_silently_dropped() -> None:
    text = 'name = "x"\ntags = [\n  "a",  # first tag\n  "b",\n]\n'
    result = canonical_decklist(text)
    assert result.formatted == 'name = "x"\ntags = ["a", "b"]\n'
    assert result.notes == ["line 3: comment could not be kept (it sits inside an array or inline table): "
                            "# first tag"]


def test_inline_section_becomes_tables_and_unknown_keys_stay() -> None:
    text = 'main = [{ name = "Soma", level = 1, count = 3, note = "x" }, { id = "SY1-005" }]\nname = "d"\n'
    out = canonical_decklist(text).formatted
    assert out == ('name = "d"\n\n[[main]]\nid = "SY1-005"\n\n'
                   '[[main]]\nname = "Soma"\nlevel = 1\ncount = 3\nnote = "x"\n')
    assert tomllib.loads(out)["main"][1]["note"] == "x"


def test_odd_values_are_kept_and_never_merged() -> None:
    """Entries the validator will reject (count "3", level 2.5) are kept as they are, not merged or lost."""
    text = ('[[main]]\nname = "Soma"\nlevel = 1\ncount = "3"\n\n'
            '[[main]]\nname = "Soma"\nlevel = 1\ncount = -2\n\n[[main]]\nname = "Soma"\nlevel = 2.5\n')
    out = canonical_decklist(text).formatted
    data = tomllib.loads(out)
    assert sorted(map(repr, data["main"])) == sorted(map(repr, tomllib.loads(text)["main"]))


def test_crlf_and_bom_are_kept() -> None:
    text = "\ufeff" + MESSY.replace("\n", "\r\n")
    out = canonical_decklist(text).formatted
    assert out == "\ufeff" + CANONICAL.replace("\n", "\r\n")


@pytest.mark.parametrize("deck", ["default.toml", "ultimate.toml"])
def test_bundled_decklists_are_idempotent(deck: str) -> None:
    text = (data_dir("decklists") / deck).read_text(encoding="utf-8")
    once = canonical_decklist(text).formatted
    assert canonical_decklist(once).formatted == once
    assert sorted(c for _, c in source_comments(once)) == sorted(c for _, c in source_comments(text))


NAMES = [("Soma", 1), ("Soma", 2), ("Sorin", 2), ("Ronin", None), ("Harbee", 2), ("Kagetora", 4), ("Zzz", 3)]
comment = st.one_of(st.none(), st.text(alphabet="abc #=[]\"'", min_size=0, max_size=8).map(lambda s: "# " + s))


@st.composite
def decklists(draw: st.DrawFn) -> str:
    lines = []
    if draw(st.booleans()):
        lines.append(draw(comment) or "# header")
        if draw(st.booleans()):
            lines.append("")
    for key in draw(st.permutations(["name", "mode"])):
        c = draw(comment)
        lines.append(f'{key} = "v"' + (f"  {c}" if c else ""))
    for _ in range(draw(st.integers(0, 8))):
        section = draw(st.sampled_from(["main", "nameless", "familiars", "extra"]))
        name, level = draw(st.sampled_from(NAMES))
        if draw(st.booleans()):
            lines.append("")
        before = draw(comment)
        if before:
            lines.append(before)
        lines.append(f"[[{section}]]")
        keys = [f'name = "{name}"'] + ([f"level = {level}"] if level else [])
        keys += [f"count = {draw(st.integers(0, 4))}"] if draw(st.booleans()) else []
        for k in draw(st.permutations(keys)):
            c = draw(comment)
            lines.append(k + (f"  {c}" if c else ""))
        tail = draw(comment)
        if tail:
            lines.append(tail)
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None)
@given(decklists())
def test_fmt_is_idempotent_and_keeps_every_comment(text: str) -> None:
    once = canonical_decklist(text)
    assert canonical_decklist(once.formatted).formatted == once.formatted
    assert sorted(c for _, c in source_comments(once.formatted)) == sorted(c for _, c in source_comments(text))
    assert not [n for n in once.notes if "could not be kept" in n]


# --- files and the command line ----------------------------------------------------------------

def test_fmt_file_rewrites_in_place_and_keeps_mode(tmp_path: Path) -> None:
    path = tmp_path / "deck.toml"
    path.write_text(MESSY, encoding="utf-8")
    os.chmod(path, 0o640)
    result = fmt_decklist(path)
    assert result.changed and path.read_text(encoding="utf-8") == CANONICAL
    assert path.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.toml"]


@pytest.mark.parametrize("fail_at", ["fsync", "replace"])
def test_failure_mid_write_leaves_the_original_intact(tmp_path: Path, monkeypatch, fail_at: str) -> None:
    path = tmp_path / "deck.toml"
    path.write_text(MESSY, encoding="utf-8")

    def boom(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, fail_at, boom)
    with pytest.raises(DataError, match="No space left on device; file left as it was"):
        fmt_decklist(path)
    monkeypatch.undo()
    assert path.read_text(encoding="utf-8") == MESSY
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.toml"]  # no temporary file left behind


def test_check_exit_codes_and_diff(tmp_path: Path, cli) -> None:
    messy, clean = tmp_path / "messy.toml", tmp_path / "clean.toml"
    messy.write_text(MESSY, encoding="utf-8")
    clean.write_text(CANONICAL, encoding="utf-8")

    code, out, err = cli("fmt", "--check", str(clean))
    assert (code, out) == (0, "") and "0 file(s) would be reformatted, 1 already canonical" in err

    code, out, err = cli("fmt", "--check", str(tmp_path))
    assert code == 1
    assert out.startswith(f"--- {messy}\n+++ {messy} (formatted)\n@@ ")
    assert '-mode = "standard"   # Standard Mode (D7)\n' in out and '+mode = "standard"  # Standard Mode (D7)\n' in out
    assert f"would reformat {messy}" in err and "merged 2 entries of Soma Lv1" in err
    assert messy.read_text(encoding="utf-8") == MESSY  # --check changes nothing

    code, out, err = cli("fmt", str(tmp_path))
    assert (code, out) == (0, "") and f"reformatted {messy}" in err
    assert messy.read_text(encoding="utf-8") == CANONICAL
    assert cli("fmt", "--check", str(tmp_path))[0] == 0


def test_invalid_toml_is_exit_2_with_line_and_untouched(tmp_path: Path, cli) -> None:
    bad = tmp_path / "bad.toml"
    raw = b'name = "x"\n\n[[main]]\nname = "Soma"\nname = "Soma"\n'  # a duplicate key
    bad.write_bytes(raw)
    code, out, err = cli("fmt", str(bad))
    assert code == 2 and out == ""
    assert f"{bad}:5:" in err and "not valid TOML" in err and "file left as it was" in err
    assert "Traceback" not in err
    assert bad.read_bytes() == raw


def test_unusable_inputs_are_exit_2(tmp_path: Path, cli) -> None:
    (tmp_path / "latin1.toml").write_bytes('name = "Sōma"\n'.encode("latin-1", "replace").replace(b"?", b"\xf4"))
    code, _, err = cli("fmt", str(tmp_path / "latin1.toml"))
    assert code == 2 and "not UTF-8" in err
    code, _, err = cli("fmt", str(tmp_path / "missing.toml"))
    assert code == 2 and "no such file or folder" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = cli("fmt", str(empty))
    assert code == 2 and "no *.toml files" in err


def test_fmt_never_changes_a_bundled_decklists_verdict(tmp_path: Path) -> None:
    """Every bundled decklist (valid and invalid, every game) keeps its validation verdict and rule ids
    after fmt; only the `duplicate-entry` warning goes, since fmt merges the entries it warns about."""
    from sengoku.validate.api import validate_file

    checked = 0
    for src in sorted(data_dir("decklists").rglob("*.toml")):
        text = src.read_text(encoding="utf-8")
        try:
            formatted = canonical_decklist(text, path=str(src)).formatted
        except DataError:
            continue  # not TOML at all: fmt refuses, as tested above
        copy = tmp_path / src.relative_to(data_dir("decklists"))
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(formatted, encoding="utf-8")
        before, after = validate_file(src), validate_file(copy)
        rules = lambda r: sorted(v.rule for v in r.violations if v.rule != "duplicate-entry")  # noqa: E731
        assert (before.valid, rules(before), before.sections) == (after.valid, rules(after), after.sections), src
        assert canonical_decklist(formatted).formatted == formatted
        checked += 1
    assert checked >= 2


FRAGMENTS = [
    'name = "a # not a comment"', "x = 'literal # no'", 's = """multi\n# not a comment\nline"""', 'a.b = 1',
    '[tbl]', 'k = 1 # trailing', '[[main]]', 'name = "Soma"', 'level = 2', 'count = 3', '[[nameless]]',
    'id = "SY1-001"', '# comment', '', 'main = [{name="Oichi", level=1}]', '[main.sub]', '[[tbl.arr]]',
    'v = [1, # inside\n 2]', 'inl = { a = 1, b = [1,2] }', '"quoted key" = 5', 'd = 2026-01-01', 'f = 1.5',
    '#:schema s', '  # indented', 'count = "3"', 'level = -1', '[[familiars]]', 'name = "Harbee"',
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=12), st.booleans())
def test_any_toml_is_formatted_idempotently_or_refused_cleanly(parts: list[str], crlf: bool) -> None:
    """Odd but valid TOML (dotted keys, tables, multi-line strings, '#' in strings) is formatted
    idempotently with every comment kept or reported; invalid TOML raises DataError, nothing else."""
    text = "\n".join(parts) + "\n"
    if crlf:
        text = text.replace("\n", "\r\n")
    try:
        once = canonical_decklist(text)
    except DataError as exc:
        assert "a bug in fmt" not in str(exc)
        return
    assert canonical_decklist(once.formatted).formatted == once.formatted
    lost = [n for n in once.notes if "could not be kept" in n]
    plain = lambda t: t.replace("\r\n", "\n")  # noqa: E731
    assert len(source_comments(plain(once.formatted))) + len(lost) == len(source_comments(plain(text)))


def test_interleaved_sections_keep_their_comments_in_place() -> None:
    """tomlkit groups the tables of one array; fmt reads the file in its own order, so a comment
    above the second [[main]] still leads that entry (found by the property test above)."""
    text = ('[[main]]\nname = "Soma"\nlevel = 1\n\n[[nameless]]\nname = "Ronin"\n\n'
            '# the Spearman\n[[nameless]]\nname = "Ashigaru"\n\n# Oichi!\n[[main]]\nname = "Oichi"\nlevel = 1\n'
            '[main.note]\ntext = "belongs to Oichi"\n')
    out = canonical_decklist(text).formatted
    assert out == ('# Oichi!\n[[main]]\nname = "Oichi"\nlevel = 1\nnote = { text = "belongs to Oichi" }\n\n'
                   '[[main]]\nname = "Soma"\nlevel = 1\n\n'
                   '# the Spearman\n[[nameless]]\nname = "Ashigaru"\n\n[[nameless]]\nname = "Ronin"\n')
    assert tomllib.loads(out)["main"][0]["note"] == {"text": "belongs to Oichi"}


def test_a_file_named_twice_is_formatted_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sengoku.folders import find_tomls

    deck = tmp_path / "d.toml"
    deck.write_text('[[main]]\nname = "Soma"\nlevel = 1\n', encoding="utf-8")
    assert [f.path for f in find_tomls([deck, tmp_path, tmp_path / "." / "d.toml"])] == [deck]


def test_merging_never_passes_the_largest_count_the_validator_reads() -> None:
    """Entries of one card whose counts add up past 99 stay apart: one entry of 110 is a `syntax`
    error, two of 60 and 50 are a deck the validator reads (and sums, D3)."""
    from sengoku.decklist.read import parse_decklist

    text = ("[[main]]\nname = \"Soma\"\nlevel = 1\ncount = 60\n\n[[main]]\nname = \"Soma\"\nlevel = 1\ncount = 50\n\n"
            "[[main]]\nname = \"SOMA\"\nlevel = 1\ncount = 2\n")
    result = canonical_decklist(text)
    counts = [t["count"] for t in tomllib.loads(result.formatted)["main"]]
    assert sorted(counts) == [52, 60]
    assert any("separate entry" in n and "110" in n for n in result.notes)
    _, violations = parse_decklist(result.formatted)
    assert [v for v in violations if v.rule == "syntax"] == []
    assert canonical_decklist(result.formatted).formatted == result.formatted  # still idempotent
