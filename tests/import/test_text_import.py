"""`sengoku import`: plain-text lists to decklist TOML; every bad line reported with its number."""

from __future__ import annotations

import json
import unicodedata
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sengoku.carddb.names import fold as norm
from sengoku.decklist.fmt import canonical_decklist
from sengoku.decklist.read import load_decklist
from sengoku.decklist.text_import import SECTION_ALIASES, import_text, parse_card_line, strip_comment
from sengoku.paths import data_dir
from sengoku.validate.api import validate_deck, validate_file

CARDS = json.loads((data_dir("card_db") / "sengoku" / "cards.json").read_text(encoding="utf-8"))["cards"]

# The bundled default deck (decklists/default.toml), written the way players type lists.
DEFAULT_AS_TEXT = """\
// Four Banners -- exported from a deck builder
Main Deck (52):
3 Soma Lv1
3x Soma (Lv 2)
3 x Soma Level 3
Soma Lv4 x2
3 Kagetora LV.1
3 Kagetora lv 2
3 kagetora Lv3
2 Kagetora Lv4
3 Oichi Lv1
3 Oichi Lv2
3 Oichi Lv3
2 Oichi Lv4
3 Yukimura Lv1
3 Yukimura Lv2
3 Yukimura Lv3
2 Yukimura Lv4
3 Sorin Lv2   # support
2 SY1-030
3 Nene Lv2

[nameless]
1 Ronin
Nameless Spearman
"""


@pytest.mark.parametrize(("line", "count", "name", "level", "epithet"), [
    ("3 Soma Lv2", 3, "Soma", 2, None),
    ("3x Soma (Lv 2)", 3, "Soma", 2, None),
    ("3 x Soma Level 2", 3, "Soma", 2, None),
    ("3X Soma [Lv.2]", 3, "Soma", 2, None),
    ("Soma Lv2 x3", 3, "Soma", 2, None),
    ("Soma Lv2 (3)", 3, "Soma", 2, None),
    ("Soma Lv2", 1, "Soma", 2, None),
    ("1 Benkei Lv3 \"Pilgrim of Mount Hiei\"", 1, "Benkei", 3, "Pilgrim of Mount Hiei"),
    ("2 Benkei - Seven-Weapon Giant Lv3", 2, "Benkei", 3, "Seven-Weapon Giant"),
    ("2 Benkei, Seven-Weapon Giant (Lv3)", 2, "Benkei", 3, "Seven-Weapon Giant"),
    ("1 Karasu-Tengu", 1, "Karasu-Tengu", None, None),
    ("3 Xanadu", 3, "Xanadu", None, None),  # an X starting a name is no count marker
    ("2 SY1-004", 2, "SY1-004", None, None),
])
def test_line_variants(line: str, count: int, name: str, level: int | None, epithet: str | None) -> None:
    parsed = parse_card_line(line)
    assert not isinstance(parsed, str), parsed
    assert (parsed.count, parsed.name, parsed.level, parsed.epithet) == (count, name, level, epithet)


@pytest.mark.parametrize(("line", "why"), [
    ("----", "not a card line"), ("3", "not a card line"), ("Lv2", "not a card line"),
    ("0 Soma Lv1", "a count of 0"), ("100 Soma Lv1", "a count of 100 is not a deck's"),
])
def test_lines_that_are_no_cards(line: str, why: str) -> None:
    parsed = parse_card_line(line)
    assert isinstance(parsed, str) and why in parsed


def test_round_trip_text_to_toml_validates_like_the_bundled_deck(tmp_path: Path) -> None:
    result = import_text(DEFAULT_AS_TEXT, CARDS, name="Four Banners", source="four.txt")
    assert result.problems == [] and result.deck.mode == "standard"
    out = tmp_path / "four.toml"
    out.write_text(result.toml, encoding="utf-8")

    imported = validate_deck(load_decklist(out))
    bundled = validate_file(data_dir("decklists") / "default.toml")
    assert imported.valid, imported.violations
    assert [v for v in imported.violations if v.severity == "warning"] == []
    assert imported.sections == bundled.sections  # the same cards, the same counts
    assert sum(imported.sections["main"].values()) == 52 and sum(imported.sections["nameless"].values()) == 2


def test_output_is_canonical_and_keeps_comments() -> None:
    result = import_text(DEFAULT_AS_TEXT, CARDS, source="four.txt")
    assert canonical_decklist(result.toml).changed is False
    assert result.toml.startswith("# Imported by `sengoku import` from four.txt.\n"
                                  "# Four Banners -- exported from a deck builder\nmode = \"standard\"\n")
    assert '# support\n[[main]]\nname = "Sorin"\nlevel = 2\ncount = 3\n' in result.toml
    data = tomllib.loads(result.toml)
    assert {"name": "Ashigaru", "count": 1} in data["nameless"]  # found by its epithet
    assert {"name": "Sorin", "level": 3, "count": 2} in data["main"]  # found by its id


BAD = """\
Main:
3 Soma Lv1
3 Somma Lv2
----
2 Benkei Lv3
3 Soma
Sideboard:
2 Oichi Lv1
0 Oichi Lv2
Nameless:
1 Ronin
"""


def test_bad_lines_are_reported_with_their_numbers() -> None:
    result = import_text(BAD, CARDS)
    assert [p.line for p in result.problems] == [3, 4, 5, 6, 7, 8, 9]
    messages = [p.message for p in result.problems]
    assert messages[0] == "no card is named 'Somma'; did you mean 'Soma Lv2'?"  # the line's level kept
    assert messages[1].startswith("not a card line")
    assert "matches 2 cards; add the epithet in quotes" in messages[2] and "SY2-025" in messages[2]
    assert "has several levels; add one, e.g. `3 Soma Lv1`" in messages[3]
    assert messages[4].startswith("unknown section header") and messages[5] == "listed under an unknown section header"
    assert messages[6].startswith("a count of 0")
    assert not result.ok


def test_cards_go_to_their_kinds_section_with_a_note() -> None:
    result = import_text("Main:\n3 Soma Lv1\n1 Ronin\n1 Harbee\n", CARDS)
    assert [(e.section, e.name) for e in result.deck.entries] == [
        ("main", "Soma"), ("nameless", "Ronin"), ("familiars", "Harbee")]
    assert result.deck.mode == "ultimate"  # auto: familiars make an Ultimate deck
    assert any("line 3:" in n and "[[nameless]]" in n and "(D8)" in n for n in result.notes)
    standard = import_text("1 Harbee\n", CARDS, mode="standard")
    assert standard.deck.mode == "standard" and any("(D7)" in n for n in standard.notes)


# --- the command line --------------------------------------------------------------------------

def test_cli_writes_atomically_and_refuses_to_overwrite(tmp_path: Path, cli) -> None:
    src, out = tmp_path / "list.txt", tmp_path / "deck.toml"
    src.write_text(DEFAULT_AS_TEXT, encoding="utf-8")
    code, stdout, err = cli("import", str(src), "-o", str(out))
    assert code == 0 and stdout == "" and "imported 52 main, 2 nameless (standard)" in err
    first = out.read_text(encoding="utf-8")
    assert tomllib.loads(first)["mode"] == "standard"

    code, _, err = cli("import", str(src), "-o", str(out), "--name", "Other")
    assert code == 2 and "already exists; pass --force" in err
    assert out.read_text(encoding="utf-8") == first
    code, _, _ = cli("import", str(src), "-o", str(out), "--name", "Other", "--force")
    assert code == 0 and tomllib.loads(out.read_text(encoding="utf-8"))["name"] == "Other"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.toml", "list.txt"]


@pytest.mark.parametrize(("line", "suggested"), [
    ("3 Kagetora L3", "'Kagetora Lv3'"),  # a level spelled as the parser does not read it (issue 34)
    ("3 Kagetoro L3", "'Kagetora Lv3'"),  # ... on a misspelt name
    ("1 Kagetora-L3", "'Kagetora Lv3'"),
    ("2 Kagetora 3", "'Kagetora Lv3'"),
    ("3 Somma Lv9", "'Soma'"),  # no Soma Lv9: the name alone, never a card that does not exist
])
def test_a_suggestion_keeps_the_lines_level(line: str, suggested: str, tmp_path: Path, cli) -> None:
    src = tmp_path / "list.txt"
    src.write_text(line + "\n", encoding="utf-8")
    code, stdout, err = cli("import", str(src))
    assert code == 1 and stdout == ""
    assert f"; did you mean {suggested}?: {line!r}" in err
    # the suggestion, written as the importer reads it, imports
    name = suggested.strip("'")
    src.write_text(f"{line.split()[0]} {name}\n", encoding="utf-8")
    if "Lv" in name:
        code, stdout, err = cli("import", str(src))
        assert code == 0, err
        level = int(name.rsplit("Lv", 1)[1])
        assert f'name = "{name.split(" Lv")[0]}"\nlevel = {level}\n' in stdout


def test_cli_bad_lines_exit_1_and_write_nothing(tmp_path: Path, cli) -> None:
    src, out = tmp_path / "bad.txt", tmp_path / "deck.toml"
    src.write_text(BAD, encoding="utf-8")
    code, stdout, err = cli("import", str(src), "-o", str(out))
    assert code == 1 and stdout == "" and not out.exists()
    assert f"{src}:3: no card is named 'Somma'; did you mean 'Soma Lv2'?: '3 Somma Lv2'" in err
    assert "7 line(s) not imported; nothing written" in err


def test_cli_stdout_and_unusable_input(tmp_path: Path, cli) -> None:
    src = tmp_path / "l.txt"
    src.write_text("\ufeff3 Soma Lv1\r\n1 Ronin\r\n", encoding="utf-8")
    code, stdout, _ = cli("import", str(src))
    assert code == 0 and tomllib.loads(stdout)["main"] == [{"name": "Soma", "level": 1, "count": 3}]
    (tmp_path / "b.txt").write_bytes(b"\x00\x01\x02binary")
    assert cli("import", str(tmp_path / "b.txt"))[0] == 2
    code, _, err = cli("import", str(tmp_path / "none.txt"))
    assert code == 2 and "no such file" in err and "Traceback" not in err
    code, _, err = cli("import", str(src), "--mode", "chaos")
    assert code == 2 and "--mode must be one of auto, standard, ultimate" in err


WORDS = ["3", "x", "Soma", "Lv2", "(Lv 2)", "Main:", "[familiars]", "#", "//", '"', "Benkei", "Level", "×", "-",
         ",", "Nameless", "Harbee", "SY1-004", "(3)", "0", "99999999999999999999", "「Wandering Blade」", "ｓｏｍａ"]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join), max_size=8))
def test_no_line_is_dropped_silently(lines: list[str]) -> None:
    """Every line with content becomes an entry, a section header, or a problem naming that line;
    the TOML written is always canonical and parses."""
    text = "\n".join(lines)
    result = import_text(text, CARDS)
    used = {e.line for e in result.deck.entries} | {p.line for p in result.problems}
    for number, raw in enumerate(text.splitlines(), start=1):
        content = strip_comment(raw)[0].strip()
        if content and number not in used:
            assert norm(content.strip("[]:")).split(" (")[0] in SECTION_ALIASES, (number, raw)
    tomllib.loads(result.toml)
    assert canonical_decklist(result.toml, cards=CARDS).changed is False


@pytest.mark.parametrize("text", ["", "# only a comment\n\nMain:\n"])
def test_a_list_without_cards_is_a_problem_not_an_empty_deck(text: str) -> None:
    result = import_text(text, CARDS)
    assert [p.message for p in result.problems] == ["no card lines found (expected lines like `3 Soma Lv2`)"]


def test_repeated_lines_never_merge_past_the_largest_count() -> None:
    """`60 Soma Lv1` twice is 120 copies: written as two entries the validator reads, not one
    entry of 120 that it rejects as a `syntax` error."""
    from sengoku.decklist.read import parse_decklist

    result = import_text("60 Soma Lv1\n60 Soma Lv1\n2 Ronin\n", CARDS)
    assert result.problems == []
    counts = [t["count"] for t in tomllib.loads(result.toml)["main"]]
    assert counts == [60, 60]
    _, violations = parse_decklist(result.toml)
    assert [v for v in violations if v.rule == "syntax"] == []


# Bidi embeddings and overrides (U+202A-202E), isolates (U+2066-2069), marks and zero-width ones.
BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u200b\u200d\u061c"


def test_comments_copy_no_bidi_or_hidden_character_into_the_toml() -> None:
    """A comment that would show the TOML's text reordered ('evil' read backwards) is written
    with each hidden character as a visible escape, and noted with its line."""
    text = f"# Deck by \u202elive\u202c\n3 Soma Lv1 // {BIDI}\n\n# end \u2067x\u2069\n"
    result = import_text(text, CARDS, source="list.txt", name=f"Four \u202eBanners")
    assert not [c for c in result.toml if unicodedata.category(c) in ("Cf", "Cc") and c != "\n"]
    assert "# Deck by \\u202elive\\u202c\n" in result.toml  # the comment kept, readable as it is
    assert "# " + "".join(repr(c)[1:-1] for c in BIDI) + "\n" in result.toml
    assert tomllib.loads(result.toml)["name"] == "Four \u202eBanners"  # a value: the same, spelt with an escape
    assert 'name = "Four \\u202EBanners"' in result.toml
    assert [n.split(":")[0] for n in result.notes if "hidden characters" in n] == ["line 1", "line 2", "line 4"]
    assert "(U+202E, U+202C)" in result.notes[0]


def test_the_cli_writes_no_bidi_character_from_a_comment(tmp_path: Path, cli) -> None:
    source = tmp_path / "list.txt"
    source.write_text(f"3 Soma Lv1 # by \u202eeman\u202c\n", encoding="utf-8")
    code, out, err = cli("import", str(source))
    assert code == 0 and "\u202e" not in out and "\u202e" not in err
    assert "# by \\u202eeman\\u202c\n" in out and "line 1: hidden characters in the comment" in err
