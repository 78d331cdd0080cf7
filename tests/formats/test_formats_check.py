"""Format files checked against their schema and the card database (also via `sengoku db check`)."""

from __future__ import annotations

from pathlib import Path

import pytest

import sengoku
from sengoku.errors import DataError
from sengoku.formats.file_check import check_format_files

HEAD = 'name = "{name}"\ntitle = "T"\ngame = "sengoku-yugi"\n'


def write(db: Path, name: str, body: str, head: str | None = None) -> Path:
    path = db / "formats" / f"{name}.toml"
    path.write_text((head if head is not None else HEAD.format(name=name)) + body, encoding="utf-8")
    return path


def codes(problems) -> list[tuple[str, int | None, str | None]]:
    return [(p.rule, p.line, p.card_id) for p in problems]


def test_bundled_formats_are_clean() -> None:
    assert check_format_files() == []


def test_a_missing_path_is_an_error_not_a_clean_result(tmp_path: Path, cli) -> None:
    # as `sengoku db check` refuses it (exit 2), so does the library: [] would read as "clean"
    missing = tmp_path / "no-such-db"
    with pytest.raises(DataError) as caught:
        sengoku.check_format_files(missing)
    assert caught.value.path == missing and str(caught.value).startswith(f"{missing}: no such card database")
    assert isinstance(caught.value, sengoku.SengokuError)
    code, _, err = cli("db", "check", str(missing))
    assert code == 2 and str(missing) in err
    with pytest.raises(DataError, match="not a card database folder"):
        check_format_files(tmp_path)  # a folder with neither a cards file nor formats


def test_a_database_without_formats_has_nothing_to_check(scratch_db: Path) -> None:
    (scratch_db / "formats").rmdir()
    assert check_format_files(scratch_db) == []
    assert check_format_files(scratch_db / "cards.json") == []


def test_unknown_ids_duplicates_and_unknown_sets(scratch_db: Path) -> None:
    write(scratch_db, "cup", '\n[[lists]]\neffective = 2026-01-01\nsource = "x"\n'  # lines 4-7
          'banned = ["SY1-004", "SY9-999"]\n'          # 8
          'restricted = [\n  "SY1-008",\n  "SY1-004",\n]\n'  # 9-12: SY1-004 also banned
          'limited = { "SY1-00" = 2 }\n'               # 13
          'sets = ["SY1", "ZZ9"]\n')                    # 14
    problems = check_format_files(scratch_db)
    assert codes(problems) == [
        ("unknown-card", 8, "SY9-999"),
        ("duplicate", 11, "SY1-004"),
        ("unknown-card", 13, "SY1-00"),
        ("unknown-set", 14, None),
    ]
    assert "(did you mean SY1-0" in problems[2].message  # the closest ids are offered
    assert "in both banned and restricted" in problems[1].message
    assert "set 'ZZ9'" in problems[3].message and "SY1, SY2" in problems[3].message
    assert all(p.path.endswith("cup.toml") and p.severity == "error" for p in problems)


def test_dates_missing_impossible_duplicated(scratch_db: Path) -> None:
    write(scratch_db, "dates", '\n[[lists]]\nsource = "no date"\n'     # 4-6: effective missing
          '\n[[lists]]\neffective = "2026-02-30"\nsource = "x"\n')      # 7-10: impossible date
    write(scratch_db, "twice", '\n[[lists]]\neffective = 2026-01-01\nsource = "a"\n'
          '\n[[lists]]\neffective = 2026-01-01\nsource = "b"\n')        # 9-11: same date again, line 10
    write(scratch_db, "timed", '\n[[lists]]\neffective = 2026-01-01T10:00:00\nsource = "a"\n')
    problems = check_format_files(scratch_db)
    by_file = {}
    for p in problems:
        by_file.setdefault(Path(p.path).stem, []).append((p.rule, p.line))
    assert by_file["dates"] == [("schema", 5)]  # schema errors first; dates checked once the shape is right
    assert "'effective' is a required property" in problems[0].message
    assert by_file["twice"] == [("duplicate-date", 10)]
    assert by_file["timed"] == [("schema", 6)]  # a date with a time is not a date

    (scratch_db / "formats" / "dates.toml").write_text(
        HEAD.format(name="dates") + '\n[[lists]]\neffective = "2026-02-30"\nsource = "x"\n', encoding="utf-8")
    problems = [p for p in check_format_files(scratch_db) if p.path.endswith("dates.toml")]
    assert codes(problems) == [("date", 6, None)] and "not a real date" in problems[0].message


def test_invalid_toml_name_mismatch_and_wrong_game(scratch_db: Path) -> None:
    write(scratch_db, "broken", '\n[[lists]\n')
    write(scratch_db, "renamed", '\n[[lists]]\neffective = 2026-01-01\nsource = "x"\n', head=HEAD.format(name="other"))
    write(scratch_db, "elsewhere", '\n[[lists]]\neffective = 2026-01-01\nsource = "x"\n',
          head='name = "elsewhere"\ntitle = "T"\ngame = "senjutsu"\n')
    problems = {Path(p.path).stem: p for p in check_format_files(scratch_db)}
    assert (problems["broken"].rule, problems["broken"].line) == ("unreadable", 5)  # not TOML: exit 2
    assert (problems["renamed"].rule, problems["renamed"].line) == ("name", 1)
    assert (problems["elsewhere"].rule, problems["elsewhere"].line) == ("game", 3)


def test_db_check_reports_format_problems(scratch_db: Path, cli) -> None:
    code, out, err = cli("db", "check", str(scratch_db))
    assert code == 0, out + err
    write(scratch_db, "cup", '\n[[lists]]\neffective = 2026-01-01\nsource = "x"\nbanned = ["NOPE-1"]\n')
    code, out, err = cli("db", "check", str(scratch_db))
    assert code == 1
    assert "cup.toml:8" in out and "NOPE-1" in out and "no card with id 'NOPE-1'" in out
    write(scratch_db, "cup", '\n[[lists]]\neffective = "2026-02-30"\nsource = "x"\n')
    code, out, err = cli("db", "check", str(scratch_db))
    assert code == 1 and "cup.toml:6" in out and "effective date '2026-02-30' is not a real date" in out
