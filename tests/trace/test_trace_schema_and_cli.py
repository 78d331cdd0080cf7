"""Every event of a trace validates against schemas/trace.schema.json; `goldfish --trace` end to end."""

from __future__ import annotations

import json

import jsonschema
import pytest

from sengoku.paths import data_dir
from sengoku.trace import SCHEMA_VERSION, trace_run

SCHEMA = json.loads((data_dir("schemas") / "trace.schema.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA, format_checker=jsonschema.FormatChecker())


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$defs"]["trace"]["properties"]["schema_version"] == {"const": SCHEMA_VERSION}


@pytest.mark.parametrize("options", [
    {},
    {"going": "second", "opponent_defends": True},
    {"deck": str(data_dir("decklists") / "ultimate.toml")},
    {"deck": str(data_dir("decklists") / "ultimate.toml"), "going": "second", "opponent_defends": True,
     "play_on": True},
    {"policy": "random", "turns": 6},
    # the random policy reaches what greedy rarely does: Swap, Release, Ultimate HP Charge
    {"deck": str(data_dir("decklists") / "ultimate.toml"), "policy": "random", "play_on": True},
], ids=["standard", "standard-defends", "ultimate", "ultimate-defends-play-on", "random", "ultimate-random"])
def test_every_event_validates(options: dict) -> None:
    kinds = set()
    for run in range(12):
        traced = trace_run(run=run, runs=12, jobs=1, **options)
        assert traced.events[0]["event"] == "trace" and traced.events[-1]["event"] == "end"
        assert traced.text().startswith(f"Run {run} of 12 ")  # every event renders
        for event in traced.events:
            errors = [e.message for e in VALIDATOR.iter_errors(event)]
            assert not errors, (event["event"], errors[:3])
            kinds.add(event["event"])
    assert {"setup", "turn", "draw", "end_turn", "end"} <= kinds
    if options.get("policy") == "random" and "deck" in options:
        assert {"swap", "release", "familiar_hp_charge", "contract"} <= kinds


def test_the_schema_refuses_a_wrong_event() -> None:
    event = trace_run(run=0, runs=1, jobs=1).events[1]
    assert not list(VALIDATOR.iter_errors(event))
    assert list(VALIDATOR.iter_errors({**event, "hp": "six"}))
    assert list(VALIDATOR.iter_errors({**event, "extra": 1}))
    assert list(VALIDATOR.iter_errors({"event": "teleport", "turn": 1}))


def test_cli_trace_text_and_json_tell_the_same_game(cli) -> None:
    text = cli("goldfish", "--runs", "200", "--trace", "median", "--jobs", "1")
    assert text.code == 0, text.err
    lines = cli("goldfish", "--runs", "200", "--trace", "median", "--jobs", "1", "--json")
    assert lines.code == 0, lines.err
    events = [json.loads(line) for line in lines.out.splitlines()]
    header, end = events[0], events[-1]
    assert header["schema_version"] == SCHEMA_VERSION and header["chosen"] == "median"
    assert text.out.startswith(f"Run {header['run']} of 200 (seed 0, the median game)")
    assert text.out.rstrip().endswith(f"Won on turn {end['won_turn']} (K5): the game stops there (G5).")
    assert f"run {header['run']} (the median of 200 games) traced: won on turn {end['won_turn']}" in text.err
    # The text is rendered from these very events.
    from sengoku.trace import render_text
    assert render_text(events) == text.out


def test_cli_trace_index_and_options_keep_their_meaning(cli) -> None:
    r = cli("goldfish", "--runs", "50", "--trace", "17", "--going", "second", "--opponent-defends", "--json",
            "--seed", "9", "--turns", "5")
    assert r.code == 0, r.err
    header = json.loads(r.out.splitlines()[0])
    assert (header["run"], header["seed"], header["going"], header["turns"], header["opponent"]["defends"]) == \
        (17, 9, "second", 5, True)


@pytest.mark.parametrize("args, message", [
    (("--trace", "50"), "run 50 is not one of the 50 runs"),
    (("--trace", "quickest"), "fastest, median, slowest"),
    (("--trace", "0", "--html", "x.html"), "--html cannot go with it"),
    (("--trace", "0", "--precision", "0.1"), "--precision cannot go with it"),
])
def test_cli_trace_refuses_unusable_runs(cli, tmp_path, monkeypatch, args, message) -> None:
    monkeypatch.chdir(tmp_path)
    r = cli("goldfish", "--runs", "50", *args)
    assert r.code == 2 and message in r.err and "Traceback" not in r.err
    assert r.out == ""


def test_html_report_folds_the_median_and_slowest_games(cli, tmp_path) -> None:
    page = tmp_path / "report.html"
    r = cli("goldfish", "--runs", "300", "--jobs", "1", "--html", str(page))
    assert r.code == 0, r.err
    html = page.read_text(encoding="utf-8")
    section = html[html.index('<section id="g-traces">'):]
    assert section.count("<details><summary>") == 2 and "<details open" not in section
    median = json.loads(cli("goldfish", "--runs", "300", "--jobs", "1", "--trace", "median", "--json")
                        .out.splitlines()[0])["run"]
    slowest = json.loads(cli("goldfish", "--runs", "300", "--jobs", "1", "--trace", "slowest", "--json")
                         .out.splitlines()[0])["run"]
    assert f"The median game: run {median}," in section and f"The slowest game: run {slowest}," in section
    assert "Turn 1" in section and "End of turn 1:" in section
