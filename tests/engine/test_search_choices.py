"""benchmarks/search_choices.py notes where `search` parts from greedy, without changing its games."""

from __future__ import annotations


import json

import pytest

from sengoku.engine.actions import Action, Kind
from sengoku.engine.policies import GreedyPolicy

from .conftest import BENCHMARKS, benchmark_script, space
from .test_policy_deploy import NoStep, _position


@pytest.fixture(scope="module")
def tool():
    with benchmark_script("search_choices") as script:
        yield script


def test_the_recording_search_plays_the_search_s_games_and_notes_only_better_choices(tool):
    from sengoku.engine.policies.search import SearchPolicy

    deck, setting, log, games = tool.play(("low-curve", "second-defends", 0, 3, 6, 0))
    assert (deck, setting, games) == ("low-curve", "second-defends", 3)
    plain = [r for _, r in tool.deals("low-curve", "second-defends", SearchPolicy(), 0, 3, 6, 0)]
    recorder = tool.RecordingSearch()
    noted = [r for _, r in tool.deals("low-curve", "second-defends", recorder, 0, 3, 6, 0)]
    # the same draws from policy_rng: every game, turn by turn, as the search plays it
    assert [(r.won_turn, list(r.turns)) for r in noted] == [(r.won_turn, list(r.turns)) for r in plain]
    assert [{k: v for k, v in e.items() if k not in ("deck", "setting", "deal")} for e in log] == recorder.log
    assert log, "the search parts from greedy somewhere in three games"
    for e in log:
        assert e["gain"] > 0  # a choice other than greedy's is taken only when its fresh rollouts win sooner
        assert 1 <= e["turn"] <= 6 and e["deal"] in (0, 1, 2)
        if e["kind"].startswith("charge"):
            more, fewer = e["search_sent"] > e["greedy_sent"], e["search_sent"] < e["greedy_sent"]
            assert e["kind"] == ("charge more" if more else "charge fewer" if fewer else "charge other")
            assert ("sends more cards" in e["what"]) == more and ("sends fewer cards" in e["what"]) == fewer
            assert len(e["hand_cards"]) == e["hand"]
        elif e["kind"] == "deploy-space":
            assert e["what"] == "deploy: other space"


def test_a_known_position_s_choices_are_named_against_greedy_s_steps(tool):
    # test_policy_deploy's position: greedy steps Kagetora L1 from (1, 2) to (2, 2), then deploys
    # Ginchiyo L1 on (1, 2); without step_ahead_for_room it deploys Ginchiyo out of range instead.
    s = _position()
    t = s.t
    front, ahead = space(s, 1, 2), space(s, 2, 2)
    gin = t.index_of("SY1-021")
    kage = next(i for i, a in enumerate(s.allies) if t.card_id[a.top] == "SY1-005")
    elsewhere = next(a for a in s.legal_actions() if a.kind == Kind.DEPLOY and a.args[1] != front)

    note = tool.compare_step(GreedyPolicy(), s, elsewhere)
    assert note["kind"] == "deploy"  # greedy's first step is the move
    assert note["what"] == "deploy: other space"  # greedy deploys that card too, on (1, 2)
    assert note["greedy_first"] == "move" and note["card"] == "Ginchiyo L1"
    assert note["greedy_with_card"][:3] == ["deploy", gin, front]
    # (1, 2) and (2, 2) in the trace's words: column c, rows 2 and 3
    assert note["greedy"].startswith("move Kagetora L1 to c3; deploy Ginchiyo L1 space c2")
    assert note["search"] == f"deploy Ginchiyo L1 space {tool.where(s, elsewhere.args[1])}"

    note = tool.compare_step(GreedyPolicy(), s, Action(Kind.END_TURN, ()))
    assert (note["kind"], note["what"]) == ("stop", "end the turn; greedy would still deploy+move")

    note = tool.compare_step(GreedyPolicy(), s, Action(Kind.MOVE, (kage, ahead)))
    assert (note["kind"], note["what"]) == ("same", "move: a step greedy takes, in another order")

    # Without the step, greedy's first step deploys Ginchiyo: a deployment of it elsewhere is `deploy-space`.
    deploys = [a for a in s.legal_actions() if a.kind == Kind.DEPLOY]
    assert len({a.args[1] for a in deploys}) > 1
    note = tool.compare_step(NoStep(), s, deploys[0])
    assert note["greedy_first"] == "deploy" and note["greedy_what"][1] == gin
    theirs = note["greedy_what"][2]
    assert theirs not in (front, ahead)  # out of range, as test_policy_deploy says
    for action in deploys:
        note = tool.compare_step(NoStep(), s, action)
        expected = ("same", "deploy: a step greedy takes, in another order") if action.args[1] == theirs \
            else ("deploy-space", "deploy: other space")
        assert (note["kind"], note["what"]) == expected
    assert s.hand == [gin] and s.allies[kage].space == front  # the notes played on copies


FIT_SET = BENCHMARKS / "decksets" / "fit.toml"


def test_a_deck_set_s_deck_is_played_with_its_own_card_database(tool, tmp_path, capsys):
    # a generated database's deck: its cards are none of the bundled database's, so a note that names
    # a card (or the game at all) needs the set's own database
    out = tmp_path / "notes.json"
    assert tool.main(["--set", str(FIT_SET), "--deck", "gen-2001/low-curve-101", "--setting", "second-defends",
                      "--deals", "2", "--turns", "3", "--show", "0", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "gen-2001/low-curve-101: 2 games" in printed
    notes = json.loads(out.read_text())
    assert {n["deck"] for n in notes} <= {"gen-2001/low-curve-101"}
    import sengoku

    bundled = {c.name for c in sengoku.load_card_db().cards}
    named = {n["card"].rsplit(" L", 1)[0] for n in notes if n.get("card")}
    assert not named & bundled  # every card named is the generated database's


def test_a_deck_not_in_the_set_is_refused_naming_it_and_the_set_s_decks(tool):
    with pytest.raises(SystemExit) as exc:
        tool.main(["--set", str(FIT_SET), "--deck", "gen-2001/no-such-deck", "--deals", "1"])
    assert "no deck gen-2001/no-such-deck" in str(exc.value) and "gen-2002/low-curve-101" in str(exc.value)
