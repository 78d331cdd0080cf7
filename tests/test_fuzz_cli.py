"""Property-based: `validate`, `fmt` and `db check` on arbitrary bytes, names and nesting.

Whatever the input, each command keeps the exit-code contract (0 ok, 1 findings, 2 unusable
input), never prints a traceback, and writes nothing but the one file it may rewrite (fmt).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_run import run_sengoku  # tests/cli_run.py
from sengoku.paths import data_dir

DEFAULT = (data_dir("decklists") / "default.toml").read_bytes()
CARDS = (data_dir("card_db") / "sengoku" / "cards.json").read_bytes()
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def run(*args: str) -> tuple[int, str]:
    """Run `sengoku ARGS` in this process; return (exit code, stdout + stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = run_sengoku(*args)
    return code, out.getvalue() + err.getvalue()


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every entry below `folder`: its bytes (files) and mode, to tell that nothing was written."""
    seen: dict[str, tuple[bytes, int]] = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = os.path.join(root, name)
            info = os.lstat(path)
            data = b""
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    data = f.read()
            seen[os.path.relpath(path, folder)] = (data, info.st_mode)
    return seen


# Text that TOML may hold, hidden characters included (\u escapes reach every code point).
names = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
toml_strings = names.map(lambda s: json.dumps(s))  # a JSON string literal is a TOML basic string
scalars = st.one_of(toml_strings, st.integers(min_value=-(10**30), max_value=10**30).map(str),
                    st.sampled_from(["true", "false", "1.5", "nan", "1979-05-27", "9" * 5000, "'lit'"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
    st.lists(st.tuples(st.sampled_from(["name", "id", "count", "level", "x"]), inner), max_size=3).map(
        lambda kv: "{" + ", ".join(f"{k} = {v}" for k, v in dict(kv).items()) + "}")), max_leaves=12)
keys = st.sampled_from(["name", "id", "count", "level", "epithet", "game", "mode", "format", "cuont", "main"])
tables = st.lists(st.tuples(keys, values), max_size=4).map(lambda kv: "".join(f"{k} = {v}\n" for k, v in dict(kv).items()))
decklists = st.one_of(
    st.binary(max_size=600),  # anything at all
    st.tuples(tables, st.lists(st.tuples(st.sampled_from(["main", "nameless", "familiars", "deck"]), tables),
                               max_size=4)).map(
        lambda t: (t[0] + "".join(f"\n[[{s}]]\n{body}" for s, body in t[1])).encode("utf-8")),
    st.integers(min_value=0, max_value=len(DEFAULT)).map(lambda n: DEFAULT[:n]),  # a cut-off file
)
file_names = st.text(st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)),
                     min_size=1, max_size=20).filter(lambda s: s not in (".", "..") and len(s.encode()) < 200)
depths = st.integers(min_value=0, max_value=40)


def _place(top: Path, depth: int, name: str, data: bytes) -> Path:
    folder = top.joinpath(*["d"] * depth)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.toml"
    path.write_bytes(data)
    return path


@FUZZ
@given(data=decklists, name=file_names, depth=depths, output=st.sampled_from(["text", "json", "github", "sarif", "markdown"]))
def test_validate_keeps_the_contract_and_writes_nothing(data: bytes, name: str, depth: int, output: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp)
        _place(top, depth, name, data)
        before = snapshot(top)
        code, said = run("validate", str(top), "-o", output)
        assert code in (0, 1, 2) and "Traceback" not in said
        assert code == 2 or depth <= 32  # a folder past the search limit is reported, exit 2
        if name.startswith("."):  # hidden: left out, so the folder holds no decklist (a usage mistake, no report)
            assert code == 2 and "hidden files are left out" in said
        elif output in ("json", "sarif"):
            json.loads(said[: said.rindex("}") + 1])  # a whole document before the summary line
        assert snapshot(top) == before


@FUZZ
@given(data=decklists, name=file_names, check=st.booleans())
def test_fmt_keeps_the_contract_and_writes_only_its_file(data: bytes, name: str, check: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp)
        path = _place(top, 0, name, data)
        (top / "neighbour.txt").write_bytes(b"untouched")
        before = snapshot(top)
        code, said = run("fmt", *(["--check"] if check else []), str(path))
        assert code in (0, 1, 2) and "Traceback" not in said
        after = snapshot(top)
        mine = os.path.relpath(path, top)
        assert {k: v for k, v in after.items() if k != mine} == {k: v for k, v in before.items() if k != mine}
        if check or code == 2:  # --check changes nothing; an unusable file is left byte-identical
            assert after[mine] == before[mine]
        else:
            assert after[mine][1] == before[mine][1]  # rewritten with its mode kept


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), names),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(names, inner, max_size=4)), max_leaves=15)


def _card_dbs() -> st.SearchStrategy[bytes]:
    card = st.fixed_dictionaries({"id": names, "name": names, "kind": st.sampled_from(["main", "familiar", "x"])},
                                 optional={"level": st.integers(-5, 10), "is_egg": st.booleans(), "x": json_values})
    whole = st.fixed_dictionaries({"meta": st.fixed_dictionaries({"game": st.sampled_from(
        ["sengoku-yugi", "senjutsu", "champions", "nope"]), "name": names}), "cards": st.lists(card, max_size=4)})
    return st.one_of(st.binary(max_size=400), json_values.map(lambda v: json.dumps(v).encode()),
                     whole.map(lambda v: json.dumps(v).encode()),
                     st.integers(min_value=0, max_value=len(CARDS)).map(lambda n: CARDS[:n]),
                     st.just(b"[" * 100_000), st.just(b'{"n": ' + b"9" * 5000 + b"}"))


@FUZZ
@given(data=_card_dbs(), as_json=st.booleans())
def test_db_check_keeps_the_contract_and_writes_nothing(data: bytes, as_json: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        top = Path(tmp)
        (top / "cards.json").write_bytes(data)
        before = snapshot(top)
        code, said = run("db", "check", str(top / "cards.json"), *(["--json"] if as_json else []))
        assert code in (0, 1, 2) and "Traceback" not in said
        assert snapshot(top) == before
