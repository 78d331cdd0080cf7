"""`sengoku cards` and `sengoku db check` end to end, through `cli.main()` as the shell runs it:
exit codes, stdout/stderr, messages naming file, line, card id and problem — never a traceback."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sengoku.cli import main
from sengoku.paths import data_dir

BUNDLED = data_dir("card_db") / "sengoku"
RAW = json.loads((BUNDLED / "cards.json").read_text(encoding="utf-8"))


@pytest.fixture
def cli(monkeypatch, capsys):
    """Run `sengoku ARGS` in-process; return (exit code, stdout, stderr)."""

    def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
        monkeypatch.delenv("SENGOKU_DB", raising=False)
        for k, v in (env or {}).items():
            monkeypatch.setenv(k, v)
        monkeypatch.setattr(sys, "argv", ["sengoku", *args])
        code = 0
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return code, out, err

    return run


def corrupt(tmp_path: Path, change) -> Path:
    data = json.loads(json.dumps(RAW))
    change(data["cards"])
    path = tmp_path / "cards.json"
    # One card per line, like the bundled file, so the line numbers are known: card i on line 4 + i.
    body = ",\n".join("    " + json.dumps(c) for c in data["cards"])
    path.write_text('{\n  "meta": ' + json.dumps(data["meta"]) + ',\n  "cards": [\n' + body + "\n  ]\n}\n")
    return path


# ---- db check -------------------------------------------------------------------------------

def test_db_check_bundled_is_clean(cli) -> None:
    code, out, err = cli("db", "check")
    assert code == 0 and out == ""
    assert "cards.json: ok" in err and "board.json: ok" in err


def test_db_check_bad_json_names_line_and_column(cli, tmp_path) -> None:
    path = tmp_path / "cards.json"
    path.write_text('{\n  "meta": {"game": "sengoku-yugi",}\n}\n')
    code, out, err = cli("db", "check", str(path))
    assert code == 2
    assert f"{path}:2:" in err and "not valid JSON" in err


@pytest.mark.parametrize("change, index, message", [
    (lambda cards: cards[5].update(weapon="sword"), 5, "'sword' is not one of"),
    (lambda cards: cards[7].update(attribute="ice"), 7, "'ice' is not one of"),
    (lambda cards: cards[9].update(id=cards[3]["id"]), 9, "duplicate id"),
    (lambda cards: cards[-1].update(evolves_from="Nobody"), -1, "evolves_from names 'Nobody'"),
], ids=["weapon", "attribute", "duplicate-id", "dangling-evolves-from"])
def test_db_check_corrupted_database(cli, tmp_path, change, index: int, message: str) -> None:
    path = corrupt(tmp_path, change)
    cards = json.loads(path.read_text())["cards"]
    index = index % len(cards)
    code, out, err = cli("db", "check", str(tmp_path))
    assert code == 1
    [line] = [ln for ln in out.splitlines() if ln.startswith(f"error: {path}:{4 + index} ")]
    assert line.startswith(f"error: {path}:{4 + index} card {cards[index]['id']} at $.cards[{index}]")
    assert message in line
    assert f"{path}: 1 error(s)" in err or f"{path}: 2 error(s)" in err  # a duplicate is reported on both cards


def test_db_check_json_output(cli, tmp_path) -> None:
    path = corrupt(tmp_path, lambda cards: cards[0].update(kind="support"))  # a Level 1 Support card
    code, out, _ = cli("db", "check", "--json", str(path))
    assert code == 1
    [problem] = json.loads(out)
    assert problem | {"path": "", "message": ""} == {"path": "", "message": "", "card_id": RAW["cards"][0]["id"],
                                                      "json_path": "$.cards[0].level", "severity": "error",
                                                      "code": "support-level", "line": 4}


def test_db_check_broken_board_in_folder(cli, tmp_path) -> None:
    shutil.copy(BUNDLED / "cards.json", tmp_path / "cards.json")
    board = json.loads((BUNDLED / "board.json").read_text())
    board["stronghold"] = {"row": 5, "column": 2}
    (tmp_path / "board.json").write_text(json.dumps(board))
    code, out, err = cli("db", "check", str(tmp_path))
    assert code == 1
    assert f"{tmp_path / 'board.json'} at $.stronghold: the Stronghold at row 5" in out
    assert "cards.json: ok" in err


def test_db_check_missing_file(cli, tmp_path) -> None:
    code, _, err = cli("db", "check", str(tmp_path / "nope.json"))
    assert code == 2 and "no such card database file" in err


# ---- cards ----------------------------------------------------------------------------------

def test_cards_json_round_trip(cli) -> None:
    code, out, err = cli("cards", "--json")
    assert code == 0
    assert json.loads(out) == RAW["cards"]  # exactly the file's cards and fields
    assert f"{len(RAW['cards'])} of {len(RAW['cards'])} cards" in err


def test_cards_filters_combine(cli) -> None:
    code, out, _ = cli("cards", "SOMA", "--level", "2", "--json")
    assert code == 0
    assert [c["id"] for c in json.loads(out)] == [c["id"] for c in RAW["cards"] if c["name"] == "Soma" and c["level"] == 2]
    code, out, _ = cli("cards", "--kind", "familiar", "--attribute", "lightning", "--json")
    names = {c["name"] for c in json.loads(out)}
    assert {"Radiant Stone of Yellow", "Harbee", "Raibee"} <= names
    assert all(c["kind"] == "familiar" for c in json.loads(out))


def test_cards_table(cli) -> None:
    code, out, err = cli("cards", "--weapon", "greatshield")
    assert code == 0
    ids = [c["id"] for c in RAW["cards"] if c.get("weapon") == "greatshield"]
    assert all(i in out for i in ids) and "SAMPLE DATA" in out
    assert f"{len(ids)} of" in err


@pytest.mark.parametrize("option, value, choice", [("--weapon", "sword", "greatsword"), ("--attribute", "ice", "lightning"),
                                                   ("--kind", "hero", "nameless"), ("--level", "9", "4")])
def test_cards_bad_filter_is_exit_2_with_choices(cli, option: str, value: str, choice: str) -> None:
    code, out, err = cli("cards", option, value)
    assert code == 2 and out == ""
    assert f"error: {option}:" in err and "choose from" in err and choice in err


def test_cards_db_option_and_env(cli, tmp_path) -> None:
    path = corrupt(tmp_path, lambda cards: cards[:] and cards.__delitem__(slice(1, None)))  # keep one card
    for args, env in ((("--db", str(path)), None), ((), {"SENGOKU_DB": str(tmp_path)})):
        code, out, _ = cli("cards", "--json", *args, env=env)
        assert code == 0 and [c["id"] for c in json.loads(out)] == [RAW["cards"][0]["id"]]


def test_cards_refuses_a_corrupted_database(cli, tmp_path) -> None:
    path = corrupt(tmp_path, lambda cards: cards[2].update(weapon="sword"))
    code, out, err = cli("cards", "--db", str(path))
    assert code == 2 and out == ""
    assert f"card {RAW['cards'][2]['id']} at $.cards[2].weapon" in err


def test_installed_entry_point_exit_code(tmp_path) -> None:
    # One real process: the exit code reaches the shell through the console script's main().
    (tmp_path / "cards.json").write_text('{"meta": {"game": "sengoku-yugi", "name": "x", "version": "1"}, '
                                         '"cards": [{"kind": "main"}]}')
    out = subprocess.run([sys.executable, "-m", "sengoku", "db", "check", str(tmp_path)], capture_output=True, text=True)
    assert out.returncode == 1 and "missing field 'id'" in out.stdout and "Traceback" not in out.stderr


def test_cards_of_another_game_get_the_generic_table(cli) -> None:
    # A database of another game (issue 5): every field shown, filters checked against its own values.
    path = data_dir("card_db") / "champions" / "cards.json"
    if not path.exists():
        pytest.skip("no second game bundled")
    cards = json.loads(path.read_text(encoding="utf-8"))["cards"]
    code, out, _ = cli("cards", "--db", str(path))
    assert code == 0 and all(c["id"] in out for c in cards)
    code, _, err = cli("cards", "--db", str(path), "--kind", "nameless")
    assert code == 2 and all(k in err for k in {c["kind"] for c in cards})
