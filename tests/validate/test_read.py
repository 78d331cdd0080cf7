"""Reading decklist files: every kind of bad input becomes a `syntax` violation with a line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from sengoku.decklist.read import DecklistSyntaxError, load_decklist, parse_decklist, read_decklist
from sengoku.errors import DataError
from sengoku.validate import validate_file, validate_paths

DEFAULT = (Path(__file__).resolve().parents[2] / "decklists" / "default.toml").read_text(encoding="utf-8")


def syntax_of(path: Path) -> list:
    result = validate_file(path)
    assert not result.valid
    return [v for v in result.violations if v.rule == "syntax"]


def only_syntax(path: Path):
    """The file's single violation, which must be a syntax error; return it."""
    result = validate_file(path)
    assert [v.rule for v in result.violations] == ["syntax"], [str(v) for v in result.violations]
    return result.violations[0]


def test_bundled_decklist_reads_with_lines() -> None:
    deck, problems = read_decklist(Path(__file__).resolve().parents[2] / "decklists" / "default.toml")
    assert problems == []
    first = deck.entries[0]
    import tomllib

    want = tomllib.loads(DEFAULT)["main"][0]
    assert (first.section, first.name, first.level, first.count) == (
        "main", want["name"], want["level"], want["count"])
    lines = DEFAULT.splitlines()
    for entry in deck.entries:  # every entry points at its own [[section]] header
        assert lines[entry.line - 1].strip() == f"[[{entry.section}]]"
    assert deck.mode == "standard" and deck.name == "Sample Standard: Four Banners"


def test_missing_file_is_a_data_error(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="no such decklist file"):
        load_decklist(tmp_path / "nope.toml")
    with pytest.raises(DataError, match="no such file or folder"):
        validate_paths([tmp_path / "nope.toml"])


def test_folder_without_decklists_is_a_data_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hi")
    with pytest.raises(DataError, match=r"no \*\.toml files"):
        validate_paths([tmp_path])


def test_folder_of_hidden_decklists_says_what_it_left_out(tmp_path: Path) -> None:
    """Hidden files are left out of a folder's search, as .git is; a folder holding only hidden decklists is
    refused with their name (the first in name order and how many more), not as if it were empty."""
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / ".b.toml").write_text(DEFAULT, encoding="utf-8")
    (tmp_path / ".a.toml").write_text(DEFAULT, encoding="utf-8")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "c.toml").write_text(DEFAULT, encoding="utf-8")  # a hidden folder is not searched at all
    with pytest.raises(DataError, match=r"no \*\.toml files in this folder \(hidden files are left out: "
                                        r"\.a\.toml and 1 more; name a hidden file on the command line"):
        validate_paths([tmp_path])
    assert validate_paths([tmp_path / ".a.toml"]).results[0].valid  # named, it is read


def test_load_decklist_raises_syntax_error_carrying_every_violation(write) -> None:
    path = write('[[main]]\nname = "Soma"\ncount = -1\n[[main]]\nname = 3\n')
    with pytest.raises(DecklistSyntaxError) as info:
        load_decklist(path)
    assert [v.line for v in info.value.violations] == [3, 5]
    assert isinstance(info.value, DataError) and info.value.line == 3


def test_binary_file(write) -> None:
    v = only_syntax(write(bytes(range(256)) * 4))
    # byte 10 is a newline, so byte 128 (the first invalid one) is on line 2, column 128 - 10
    assert "not UTF-8" in v.message and (v.line, v.column) == (2, 118)


def test_nul_bytes_in_utf8_text(write) -> None:
    v = only_syntax(write('name = "a\x00b"\n'))
    assert "not valid TOML" in v.message and v.line == 1


def test_empty_file(write) -> None:
    v = only_syntax(write(""))
    assert "holds no decklist" in v.message and v.line == 1


def test_comment_only_file(write) -> None:
    assert "holds no decklist" in only_syntax(write("# nothing here\n\n")).message


def test_byte_order_mark_is_accepted(write) -> None:
    result = validate_file(write(b"\xef\xbb\xbf" + DEFAULT.encode()))
    assert result.valid and result.violations == []


def test_crlf_line_ends_are_accepted_and_lines_still_right(write) -> None:
    crlf = DEFAULT.replace("\n", "\r\n")
    assert validate_file(write(crlf.encode())).violations == []
    bad = crlf.replace("count = 3", "count = 33", 1)
    deck, problems = parse_decklist(bad.encode())
    line = next(i for i, t in enumerate(bad.split("\r\n"), 1) if t == "count = 33")
    assert deck.entries[0].count == 33 and problems == []
    v = [v for v in validate_file(write(bad.encode())).violations if v.rule == "copy-limit"][0]
    assert v.line == line - 3  # the [[main]] header of that entry


def test_ten_megabyte_file_is_refused_unread(write) -> None:
    result = validate_file(write("# " + "x" * 10_000_000 + "\n"))
    assert result.unreadable  # like any file that cannot be read: exit 2
    assert [v.message for v in result.violations] == ["the file is 10.0 MB, over the 1 MB limit: not read"]


@pytest.mark.parametrize("count, words", [
    (str(10**100), "from 1 to 99"),
    ("-1", "from 1 to 99"),
    ("0", "from 1 to 99"),
    ("2.5", "whole number, not a number with a fraction"),
    ("true", "whole number, not a boolean (true)"),
    ('"3"', "whole number, not a string"),
    ("inf", "whole number"),
    ("nan", "whole number"),
    ("[3]", "whole number, not an array"),
])
def test_bad_counts(write, count: str, words: str) -> None:
    v = only_syntax(write(f'mode = "standard"\n[[main]]\nname = "Soma"\nlevel = 1\ncount = {count}\n'))
    assert words in v.message and "`count`" in v.message
    assert (v.line, v.column) == (5, 1)


def test_wrong_types_and_unknown_keys_each_with_their_line(write) -> None:
    path = write(
        'mode = 3\n'                 # 1
        'name = ["a"]\n'             # 2
        'colour = "red"\n'           # 3
        'format = 1\n'               # 4
        '[[main]]\n'                 # 5
        'name = "Soma"\n'            # 6
        'level = "1"\n'              # 7
        'cuont = 3\n'                # 8
        '[[main]]\n'                 # 9
        'level = 2\n'                # 10
        '[nameless]\n'               # 11
        'name = "Ronin"\n'           # 12
        'familiars = 3\n'            # 13 (inside [nameless]: a key of that table)
    )
    got = [(v.line, v.message) for v in syntax_of(path)]
    lines = [line for line, _ in got]
    assert lines == [1, 2, 3, 4, 7, 8, 9, 11]
    assert "did you mean `count`" in got[5][1]
    assert "`mode` must be a string, not an integer" in got[0][1]
    assert "[[nameless]]" in got[-1][1]


def test_unknown_mode_value(write) -> None:
    v = only_syntax(write('mode = "quick"\n'))
    assert "standard, ultimate" in v.message


def test_unknown_game(write) -> None:
    v = only_syntax(write('game = "chess"\n[[main]]\nname = "Soma"\n'))
    assert v.line == 1 and "sengoku-yugi" in v.message and "chess" in v.message


def test_duplicate_keys_point_at_the_second(write) -> None:
    v = only_syntax(write('[[main]]\nname = "Soma"\nname = "Oichi"\n'))
    assert "not valid TOML" in v.message and v.line == 3


def test_toml_error_at_end_of_document(write) -> None:
    v = only_syntax(write('[[main]]\nname = "Soma'))
    assert "not valid TOML" in v.message and v.line == 2


def test_section_as_plain_table_or_scalar(write) -> None:
    assert "array of tables" in only_syntax(write('[main]\nname = "Soma"\n')).message
    assert "array of tables" in only_syntax(write('main = "Soma"\n')).message
    assert "must be a table" in only_syntax(write('main = ["Soma"]\n')).message


def test_entry_needs_a_card(write) -> None:
    assert "names no card" in only_syntax(write("[[main]]\ncount = 2\n")).message


def test_deep_nesting_is_a_syntax_error(write) -> None:
    v = only_syntax(write("main = " + "[" * 5000 + "]" * 5000 + "\n"))
    assert v.rule == "syntax"


def test_inline_tables_get_their_own_line_and_column() -> None:
    text = ('main = [\n'
            '  { name = "Soma", level = 1, count = 3 },  # a { in a comment\n'
            '  { name = "a } b", count = 2 }, { id = "SY1-005" },\n'
            ']\n'
            'nameless = [{ name = "Ronin", count = -2 }]\n')
    deck, problems = parse_decklist(text)
    assert [(e.line, e.column) for e in deck.entries] == [(2, 3), (3, 3), (3, 34)]
    assert [(p.line, p.column) for p in problems] == [(5, 31)]  # the `count` key itself


def test_multiline_string_does_not_fake_a_header() -> None:
    text = 'name = """\n[[main]]\n"""\n[[main]]\nname = "Soma"\nlevel = 1\n'
    deck, problems = parse_decklist(text)
    assert problems == [] and deck.entries[0].line == 4


def test_syntax_errors_skip_deck_level_rules_but_still_resolve(write) -> None:
    path = write('[[main]]\nname = "Somma"\n[[main]]\nname = "Soma"\nlevel = 1\ncount = -3\n')
    result = validate_file(path)
    assert {v.rule for v in result.violations} == {"syntax", "unknown-card"}
    assert "not checked" in str(result.info["note"])


def test_unreadable_file_becomes_a_result(tmp_path: Path) -> None:
    folder = tmp_path / "x.toml"
    folder.mkdir()
    result = validate_file(folder)
    assert [v.rule for v in result.violations] == ["syntax"] and "folder" in result.violations[0].message


def test_fast_header_scan_agrees_with_the_line_scan() -> None:
    from sengoku.decklist.scan import _scan_lines, scan

    root = Path(__file__).resolve().parents[2]
    files = [*root.glob("decklists/**/*.toml"), *root.glob("tests/decklists/**/*.toml")]
    assert len(files) > 30
    for path in files:
        text = path.read_text(encoding="utf-8")
        fast, slow = scan(text), _scan_lines(text)
        assert fast.keys == slow.keys and fast.headers == slow.headers, path
        assert {s: [(t.pos, t.keys) for t in ts] for s, ts in fast.tables.items()} == \
               {s: [(t.pos, t.keys) for t in ts] for s, ts in slow.tables.items()}, path
