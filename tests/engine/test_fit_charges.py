"""benchmarks/fit_charges.py fits the default policy's turn-1 charge rule, repeatably, in the module's own format."""

from __future__ import annotations

from pathlib import Path

import pytest

from sengoku.engine.policies.greedy import charge_weights

from .conftest import fit_script, load_module

@pytest.fixture(scope="module")
def tool():
    with fit_script("fit_charges") as script:
        yield script


def test_the_same_arguments_write_the_same_weights(tool, tmp_path: Path):
    args = ["--seed", "3", "--deals", "3", "--rollouts", "2", "--deck", "mat-heavy", "--deck", "ultimate-eggs"]
    assert tool.main(args + ["--out", str(tmp_path / "a.py"), "--positions", str(tmp_path / "hands.json")]) == 0
    assert tool.main(args + ["--out", str(tmp_path / "b.py"), "--jobs", "2"]) == 0
    a = (tmp_path / "a.py").read_text(encoding="utf-8")
    assert a == (tmp_path / "b.py").read_text(encoding="utf-8")  # any --jobs: the same file
    fitted = load_module(tmp_path / "a.py")
    # the committed module's shapes, and the feature names the policy reads
    assert fitted.CARD_FEATURES == charge_weights.CARD_FEATURES
    assert [len(row) for row in fitted.CARD] == [len(charge_weights.CARD_FEATURES)] * 3
    assert [len(row) for row in fitted.SIZE] == [tool.SIZES] * 5
    assert "python benchmarks/fit_charges.py --seed 3 --deals 3 --rollouts 2 --deck mat-heavy --deck ultimate-eggs" in a
    # 3 deals x 4 settings x 2 decks: one scored hand each, every set of its kept cards
    import json
    hands = json.loads((tmp_path / "hands.json").read_text(encoding="utf-8"))
    assert len(hands) == 24
    for h in hands:
        n = len(h["kept"])
        assert h["sets"][0] == [] and 1 <= len(h["sets"]) <= 2 ** n
        assert all(2 <= 2 * score <= 2 * 13 + 2 for score in h["scores"])  # kill turns 1..12, or past the horizon


def test_the_fit_recovers_weights_it_was_made_from(tool):
    # Hands whose scores are made from known weights (a card's value from two features, a size
    # term): least squares finds those values again.
    n = len(tool.CARD_FEATURES)
    hands = []
    for i in range(40):
        kept = []
        for p in range(4):
            x = [0.0] * n
            x[0] = 1.0
            x[1 + (i + p) % 4] = 1.0  # its level
            x[5] = float(1 + (i * p) % 3)  # its charge value
            kept.append([p, x])
        sets, scores = [], []
        for mask in range(16):
            s = [p for p in range(4) if mask >> p & 1]
            value = sum(-0.05 * kept[p][1][5] + 0.1 * kept[p][1][4] for p in s)
            if s:
                value += 0.02 * len(s)
            sets.append(s)
            scores.append(3.0 + value)
        hands.append({"second": i % 2 == 0, "ultimate": False, "defends": False, "ap": 20,
                      "kept": kept, "sets": sets, "scores": scores})
    card, size, rows = tool.fit(hands)
    assert rows == 40 * 15
    for h in hands:
        for s, score in zip(h["sets"][1:], h["scores"][1:]):
            x = {p: f for p, f in h["kept"]}
            second = float(h["second"])
            value = sum(sum(v * (a + second * b) for v, a, b in zip(x[p], card[0], card[1])) for p in s)
            i = min(len(s), tool.SIZES) - 1
            value += size[0][i] + second * size[1][i] + h["ap"] / 10 * size[4][i]
            assert value == pytest.approx(score - h["scores"][0], abs=1e-4)


@pytest.fixture(scope="module")
def focus_tool(tool):
    import fit_focus
    return fit_focus


def _fit_twice(tool, args: list[str], tmp_path: Path):
    """Run a fit script with `--jobs 1` (keeping its scored choices) and `--jobs 2`: the two weight
    files are the same bytes. Return the written module and the choices."""
    import json

    assert tool.main(args + ["--out", str(tmp_path / "a.py"), "--choices", str(tmp_path / "c.json")]) == 0
    assert tool.main(args + ["--out", str(tmp_path / "b.py"), "--jobs", "2"]) == 0
    assert (tmp_path / "a.py").read_text(encoding="utf-8") == (tmp_path / "b.py").read_text(encoding="utf-8")
    return load_module(tmp_path / "a.py"), json.loads((tmp_path / "c.json").read_text(encoding="utf-8"))


def test_the_focus_fit_writes_the_same_weights_for_any_jobs(focus_tool, tmp_path: Path):
    from sengoku.engine.policies.greedy import focus_weights

    fitted, choices = _fit_twice(focus_tool, ["--seed", "3", "--deals", "6", "--rollouts", "2", "--deck", "ultimate-beasts"],
                                 tmp_path)
    assert fitted.FEATURES == focus_weights.FEATURES
    assert [len(row) for row in fitted.FOCUS] == [len(focus_weights.FEATURES)] * 3
    assert choices, "six deals in four settings hold a turn-1 card that could Focus or deploy"
    for c in choices:
        assert len(c["x"]) == len(focus_weights.FEATURES)
        assert -13 <= c["gain"] <= 13  # a difference of two kill turns, each 1..13


def test_the_focus_fit_recovers_weights_it_was_made_from(focus_tool):
    n = len(focus_tool.FEATURES)
    second_at = focus_tool.FEATURES.index("going second")
    choices = []
    for i in range(200):
        x = [0.0] * n
        x[0] = 1.0
        x[1 + i % 4] = 1.0
        x[6] = float(1 + i % 3)  # charge value
        x[second_at] = float(i % 2)
        gain = 0.1 - 0.05 * x[6] + 0.2 * x[1] + (0.03 if i % 2 else 0.0) * x[6]
        choices.append({"x": x, "gain": gain})
    w0, w1, w2 = focus_tool.fit(choices)
    for c in choices:
        s = c["x"][second_at]
        value = sum(v * (a + s * b) for v, a, b in zip(c["x"], w0, w1))
        assert value == pytest.approx(c["gain"], abs=1e-4)
