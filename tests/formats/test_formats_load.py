"""Loading formats and picking the list in force on a date (--as-of)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from sengoku.formats.load import list_formats, load_format
from sengoku.formats.model import FormatError, parse_as_of
from sengoku.paths import data_dir

SAMPLE = "sample-championship"
BUNDLED = data_dir("card_db") / "sengoku"


def test_sample_format_loads_with_two_dated_lists() -> None:
    fmt = load_format(SAMPLE)
    assert fmt.name == SAMPLE and fmt.game == "sengoku-yugi" and fmt.sample is True
    assert [lst.effective for lst in fmt.lists] == [dt.date(2026, 1, 15), dt.date(2026, 7, 1)]
    assert "SAMPLE" in fmt.lists[0].source and "SAMPLE" in fmt.lists[1].source


@pytest.mark.parametrize(("as_of", "effective"), [
    ("2026-01-15", dt.date(2026, 1, 15)),   # the first list's own day
    ("2026-06-30", dt.date(2026, 1, 15)),   # the day before the second list
    (dt.date(2026, 7, 1), dt.date(2026, 7, 1)),
    ("2030-01-01", dt.date(2026, 7, 1)),    # the latest list stays in force
])
def test_as_of_picks_the_latest_list_effective_on_or_before_the_date(as_of, effective) -> None:
    assert load_format(SAMPLE).in_force(as_of).effective == effective


def test_the_two_sample_lists_differ_so_as_of_matters() -> None:
    fmt = load_format(SAMPLE)
    first, second = fmt.in_force("2026-03-01"), fmt.in_force("2026-08-01")
    assert first.restricted == {"SY1-008"} and first.sets == {"SY1"} and not first.banned
    assert second.banned == {"SY2-012"} and second.restricted == {"SY2-035"}
    assert second.limited == {"SY1-004": 2, "SY2-008": 2} and second.sets == {"SY1", "SY2"}
    assert first.limit("SY1-008") == 1 and second.limit("SY1-008") is None
    assert second.limit("SY2-012") == 0 and second.limit("SY2-008") == 2


def test_no_list_in_force_is_a_clear_error() -> None:
    with pytest.raises(FormatError, match=r"no list in force on 2026-01-14 .*first list takes effect on 2026-01-15"):
        load_format(SAMPLE).in_force("2026-01-14")


def test_bad_as_of_date_is_a_clear_error() -> None:
    with pytest.raises(FormatError, match="not a date: '2026-13-01'"):
        parse_as_of("2026-13-01")
    assert parse_as_of(None) == dt.date.today()


def test_load_by_path_and_unknown_name(tmp_path: Path) -> None:
    by_path = load_format(BUNDLED / "formats" / f"{SAMPLE}.toml")
    assert by_path.name == SAMPLE
    with pytest.raises(FormatError, match=r"unknown format 'worlds' \(known formats: sample-championship\)"):
        load_format("worlds")
    with pytest.raises(FormatError, match="no such format file"):
        load_format(tmp_path / "missing.toml")


def test_broken_format_file_names_file_and_line(scratch_db: Path) -> None:
    bad = scratch_db / "formats" / "broken.toml"
    bad.write_text('name = "broken"\ntitle = "B"\ngame = "sengoku-yugi"\n[[lists]]\neffective = 2026-01-01\n'
                   'source = "x"\nbanned = "SY1-001"\n', encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_format("broken", scratch_db)
    assert info.value.line == 7 and "is not of type 'array'" in info.value.message
    with pytest.raises(FormatError, match=r"broken.toml:2"):
        bad.write_text('name = "broken"\ntitle = \n', encoding="utf-8")
        list_formats(scratch_db)


def test_list_formats_of_bundled_and_empty_databases(scratch_db: Path) -> None:
    assert [f.name for f in list_formats()] == [SAMPLE]
    assert list_formats(scratch_db) == []
    assert list_formats(scratch_db / "cards.json") == []  # a cards file points at its folder


def test_cli_formats_text_and_json(cli) -> None:
    code, out, err = cli("formats", "--as-of", "2026-03-01")
    assert code == 0
    assert "sample-championship: Sample Championship [SAMPLE DATA]" in out
    assert "list effective 2026-01-15" in out and "1 restricted" in out and "sets: SY1" in out
    assert "next: list effective 2026-07-01" in out

    code, out, _ = cli("formats", "--json", "--as-of", "2026-08-01")
    data = json.loads(out)
    assert code == 0 and [d["name"] for d in data] == [SAMPLE]
    assert data[0]["in_force"]["effective"] == "2026-07-01"
    assert data[0]["in_force"]["banned"] == ["SY2-012"]
    assert [lst["effective"] for lst in data[0]["lists"]] == ["2026-01-15", "2026-07-01"]

    code, out, _ = cli("formats", "--json", "--as-of", "2020-01-01")
    assert json.loads(out)[0]["in_force"] is None


def test_cli_formats_bad_date_is_exit_2(cli) -> None:
    code, _, err = cli("formats", "--as-of", "tomorrow")
    assert code == 2 and "not a date: 'tomorrow'" in err and "Traceback" not in err
