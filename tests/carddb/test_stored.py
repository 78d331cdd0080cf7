"""A big card database's remembered index (`carddb.stored`): the same results as parsing it, never stale.

Most tests lower `MIN_BYTES` so that a copy of the bundled sample set (70 KB) is indexed; the
two-process test runs the command line on a database over the real threshold.
"""

from __future__ import annotations

import json
import marshal
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import sengoku.carddb.load as load
import sengoku.carddb.stored.folder as stored_folder
import sengoku.carddb.stored.identity as identity
import sengoku.carddb.stored.remembered as remembered_module
import sengoku.carddb.catalog as catalog_module
from sengoku.carddb.stored.views import StoredCards
from sengoku.errors import DataError
from sengoku.paths import data_dir
from sengoku.validate.api import Validator, ValidationRun
from sengoku.validate.reporters import render

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = data_dir("card_db") / "sengoku"
DECKS = sorted((ROOT / "decklists" / "invalid").glob("*.toml")) + [ROOT / "decklists" / "default.toml",
                                                                    ROOT / "decklists" / "ultimate.toml"]
# What a decklist may name that only the whole database answers: suggestions, folded ids, clashes.
MORE_DECKS = {
    "close-name.toml": '[[main]]\nname = "Sooma"\nlevel = 1\ncount = 3\n',
    "close-id.toml": '[[main]]\nid = "SY1-0O2"\ncount = 3\n',
    "no-close-name.toml": '[[main]]\nname = "Qwxyzzy"\ncount = 1\n',
    "folded-id.toml": '[[main]]\nid = "ｓｙ１-００１"\ncount = 3\n',
    "id-and-wrong-name.toml": '[[main]]\nid = "SY1-001"\nname = "Oichi"\ncount = 3\n',
    "name-and-missing-level.toml": '[[main]]\nname = "Soma"\nlevel = 9\ncount = 3\n',
    "full-width-name.toml": '[[main]]\nname = "ＳＯＭＡ"\nlevel = 2\ncount = 3\n',
}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("SENGOKU_CACHE_DIR", str(folder))
    monkeypatch.delenv("SENGOKU_NO_CACHE", raising=False)
    monkeypatch.setattr(load, "INDEX_MIN_BYTES", 1)
    monkeypatch.setattr(identity, "RACY_NS", 0)  # a file written by the test is trusted at once
    catalog_module._load_catalog.cache_clear()
    yield folder / "cards"
    catalog_module._load_catalog.cache_clear()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    shutil.copytree(BUNDLED, folder)
    return folder


@pytest.fixture
def decks(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "decks"
    folder.mkdir()
    for name, text in MORE_DECKS.items():
        (folder / name).write_text('name = "t"\nmode = "standard"\n' + text, encoding="utf-8")
    return DECKS + sorted(folder.iterdir())


def report(db: Path, decks: list[Path]) -> str:
    """Validate every deck against `db` in a fresh catalog; return the JSON report."""
    catalog_module._load_catalog.cache_clear()
    validator = Validator(db)
    run = ValidationRun([validator.validate_file(d) for d in decks])
    return render("json", run)


def remembered(db: Path, decks: list[Path]) -> str:
    """Validate twice: a database is indexed on its second reading. Return the report."""
    first = report(db, decks)
    assert report(db, decks) == first
    return first


def parsed(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Count the parses of cards.json: a catalog's, or an index's that failed halfway."""
    calls: list[Path] = []
    real = catalog_module.read_checked

    def counted(path: Path):  # type: ignore[no-untyped-def]
        calls.append(path)
        return real(path)

    monkeypatch.setattr(catalog_module, "read_checked", counted)
    monkeypatch.setattr(remembered_module, "read_checked", counted)
    return calls


def index_files(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.sqlite"))


def test_a_warm_run_reads_no_json_and_reports_the_same_bytes(db: Path, decks: list[Path], cache: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SENGOKU_NO_CACHE", "1")
    cold = report(db, decks)
    monkeypatch.delenv("SENGOKU_NO_CACHE")
    calls = parsed(monkeypatch)
    first = report(db, decks)  # parses, notes the bytes it read
    assert len(calls) == 1 and not index_files(cache)
    second = report(db, decks)  # the same bytes again: parses, then writes the index
    assert len(calls) == 2 and len(index_files(cache)) == 1
    warm = report(db, decks)
    assert len(calls) == 2  # not parsed again
    assert isinstance(catalog_module.load_catalog(db).cards, StoredCards)
    assert warm == second == first == cold
    # the report says what a warm run had to find in the whole database
    assert "did you mean 'Soma'" in warm and "did you mean SY1-042 or SY1-032" in warm


def test_stored_cards_answer_as_the_parsed_dict(db: Path, cache: Path) -> None:
    parsed_catalog = catalog_module.load_catalog(db)
    catalog_module._load_catalog.cache_clear()
    catalog_module.load_catalog(db)  # the second reading writes the index
    catalog_module._load_catalog.cache_clear()
    warm = catalog_module.load_catalog(db)
    assert isinstance(warm.cards, StoredCards)
    cold_cards = parsed_catalog.cards
    assert list(warm.cards) == list(cold_cards) and len(warm.cards) == len(cold_cards)
    assert dict(warm.cards.items()) == cold_cards
    assert "SY1-001" in warm.cards and "sy1-001" not in warm.cards and "nope" not in warm.cards
    with pytest.raises(KeyError):
        warm.cards["nope"]
    assert warm.describe() == parsed_catalog.describe()
    for name in ("soma", "ＳＯＭＡ", "Kagetora", "nobody"):
        assert warm.index.named(name) == parsed_catalog.index.named(name)
        assert warm.index.close_names(name) == parsed_catalog.index.close_names(name)
    for card_id in ("sy1-001", "SY2-010", "none"):
        assert warm.index.with_id(card_id) == parsed_catalog.index.with_id(card_id)
    epithet = next(c["epithet"] for c in cold_cards.values() if c.get("epithet"))
    assert warm.index.with_epithet(epithet) == parsed_catalog.index.with_epithet(epithet)


def rewrite_same_size(cards_file: Path) -> None:
    """Rename the first Soma card to Sora (the same size), keeping the file's mtime."""
    st = cards_file.stat()
    text = cards_file.read_text(encoding="utf-8")
    changed = text.replace('"name": "Soma"', '"name": "Sora"', 1)
    assert changed != text and len(changed) == len(text)
    cards_file.write_text(changed, encoding="utf-8")
    os.utime(cards_file, ns=(st.st_atime_ns, st.st_mtime_ns))


def test_changed_content_is_never_answered_from_the_old_index(db: Path, decks: list[Path], cache: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    before = remembered(db, decks)
    rewrite_same_size(db / "cards.json")  # same size, same mtime: the change time tells
    calls = parsed(monkeypatch)
    after = remembered(db, decks)
    assert len(calls) == 2 and after != before
    monkeypatch.setenv("SENGOKU_NO_CACHE", "1")
    assert after == report(db, decks)
    assert len(index_files(cache)) == 2  # both contents remembered, each under its own SHA-256


def test_a_file_changed_in_the_tick_it_was_read_is_hashed(db: Path, decks: list[Path], cache: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(identity, "RACY_NS", 10**18)  # every note is racy: only the bytes tell
    remembered(db, decks)
    cards_file = db / "cards.json"
    rewrite_same_size(cards_file)
    # The worst case: a note whose identity is the changed file's (a change in the same clock tick).
    note = next(cache.glob("*.where"))
    old = json.loads(note.read_text())
    old["identity"] = identity.identity(os.stat(cards_file))
    note.write_text(json.dumps(old))
    calls = parsed(monkeypatch)
    after = report(db, decks)
    assert len(calls) == 1 and "Sora" in after  # hashed, found unknown, parsed
    monkeypatch.setenv("SENGOKU_NO_CACHE", "1")
    assert after == report(db, decks)


def test_a_racy_note_still_finds_the_index_by_hashing(db: Path, decks: list[Path], cache: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(identity, "RACY_NS", 10**18)
    first = remembered(db, decks)
    calls = parsed(monkeypatch)
    assert report(db, decks) == first and not calls


def damage(index_file: Path, how: str) -> None:
    if how == "garbage":
        index_file.write_bytes(b"not an index at all\n" * 100)
    elif how == "truncated":
        raw = index_file.read_bytes()
        index_file.write_bytes(raw[: len(raw) // 3])
    elif how == "empty":
        index_file.write_bytes(b"")
    elif how == "foreign":
        index_file.unlink()
        con = sqlite3.connect(index_file)
        con.execute("CREATE TABLE keys (k TEXT PRIMARY KEY, v BLOB, crc INTEGER)")
        con.execute("INSERT INTO keys VALUES ('head', x'00', 0)")
        con.commit()
        con.close()
    elif how in ("card", "name"):  # one stored value changed, the file still a good SQLite file
        con = sqlite3.connect(index_file)
        if how == "card":
            body = con.execute("SELECT body FROM cards WHERE pos = 0").fetchone()[0]  # SY1-001, Soma
            assert b"lightning" in body  # a field nothing but the check tells is wrong
            con.execute("UPDATE cards SET body = ? WHERE pos = 0", (body.replace(b"lightning", b"lightninh"),))
        else:
            somas = marshal.loads(con.execute("SELECT v FROM keys WHERE k = 'n:soma'").fetchone()[0])
            con.execute("UPDATE keys SET v = ? WHERE k = 'n:soma'", (marshal.dumps(somas[:-1]),))  # one lost
        con.commit()
        con.close()
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["garbage", "truncated", "empty", "foreign", "card", "name"])
def test_a_damaged_index_is_ignored_and_rebuilt(db: Path, decks: list[Path], cache: Path,
                                                monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    good = remembered(db, decks)
    cold = catalog_module.load_catalog(db).cards
    (index_file,) = index_files(cache)
    damage(index_file, how)
    catalog_module._load_catalog.cache_clear()
    warm = catalog_module.load_catalog(db)
    assert warm.cards["SY1-001"] == cold["SY1-001"] and warm.index.named("Soma") == \
        [c for c in cold.values() if c["name"] == "Soma"]
    assert report(db, decks) == good  # at the start or halfway through: the file itself answers
    calls = parsed(monkeypatch)
    assert report(db, decks) == good and not calls  # rebuilt by the run that found it damaged


def test_a_damaged_note_is_ignored(db: Path, decks: list[Path], cache: Path) -> None:
    good = remembered(db, decks)
    for note in cache.glob("*.where"):
        note.write_bytes(b"\xff{not json")
    assert report(db, decks) == good


def test_an_index_gone_halfway_through_falls_back_to_the_file(db: Path, cache: Path) -> None:
    good = remembered(db, DECKS[:1])
    catalog_module._load_catalog.cache_clear()
    warm = catalog_module.load_catalog(db)
    damage(index_files(cache)[0], "garbage")  # under an open index: what it reads next fails its check
    assert "SY1-001" in warm.cards
    assert report(db, DECKS[:1]) == good


def test_a_database_changed_while_being_read_is_an_error_not_a_mix(db: Path, cache: Path) -> None:
    remembered(db, DECKS[:1])
    catalog_module._load_catalog.cache_clear()
    warm = catalog_module.load_catalog(db)
    assert isinstance(warm.cards, StoredCards)
    warm.cards._index.con.close()  # the index fails from here on ...
    rewrite_same_size(db / "cards.json")  # ... and the file is not the one indexed any more
    with pytest.raises(DataError, match="changed while it was being read"):
        warm.cards["SY1-001"]


def test_no_cache_switch_writes_no_index(db: Path, decks: list[Path], cache: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SENGOKU_NO_CACHE", "1")
    remembered(db, decks)
    assert not cache.exists()


def test_a_small_database_is_not_indexed(db: Path, decks: list[Path], cache: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(load, "INDEX_MIN_BYTES", 10**9)
    remembered(db, decks)
    assert not index_files(cache)


def test_an_unwritable_cache_folder_is_not_an_error(db: Path, decks: list[Path], cache: Path,
                                                    tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SENGOKU_CACHE_DIR", str(blocker))
    monkeypatch.setenv("SENGOKU_NO_CACHE", "1")
    cold = report(db, decks)
    monkeypatch.delenv("SENGOKU_NO_CACHE")
    assert report(db, decks) == cold == report(db, decks)


def test_at_most_keep_indexes_are_kept_the_newest_first(tmp_path: Path, cache: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stored_folder, "KEEP", 2)
    monkeypatch.setattr(stored_folder, "KEEP_NOTES", 3)
    data = json.loads((BUNDLED / "cards.json").read_text(encoding="utf-8"))
    folders = []
    for n in range(5):
        folder = tmp_path / f"db{n}"
        shutil.copytree(BUNDLED, folder)
        data["meta"]["name"] = f"set {n}"  # other bytes: another index
        (folder / "cards.json").write_text(json.dumps(data), encoding="utf-8")
        folders.append(folder)
        remembered(folder, DECKS[:1])
        assert len(index_files(cache)) == min(n + 1, 2) and len(list(cache.glob("*.where"))) <= 3
    calls = parsed(monkeypatch)
    report(folders[-1], DECKS[:1])
    assert not calls  # the newest stays
    report(folders[0], DECKS[:1])
    assert len(calls) == 1  # the oldest went


def test_a_database_read_once_is_not_indexed(db: Path, decks: list[Path], cache: Path) -> None:
    report(db, decks)
    assert not index_files(cache) and len(list(cache.glob("*.where"))) == 1


def test_two_processes_building_at_once_agree(tmp_path: Path) -> None:
    """Two runs against a database over the threshold build the same index at the same time."""
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "make_big_db.py"), str(tmp_path), "--cards", "1900"],
                   check=True, capture_output=True)
    folder = tmp_path / "cards-1900"
    assert (folder / "cards.json").stat().st_size >= load.INDEX_MIN_BYTES
    deck_args = [str(d) for d in DECKS]
    cmd = [sys.executable, "-m", "sengoku", "validate", *deck_args, "--db", str(folder), "-o", "json"]
    env = {**os.environ, "SENGOKU_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("SENGOKU_NO_CACHE", None)
    cold = subprocess.run(cmd, env={**env, "SENGOKU_NO_CACHE": "1"}, capture_output=True, text=True)
    assert cold.returncode == 1 and cold.stdout and "Traceback" not in cold.stderr
    cards_cache = tmp_path / "cache" / "cards"
    first = subprocess.run(cmd, env=env, capture_output=True, text=True)  # notes the bytes
    assert first.stdout == cold.stdout and not list(cards_cache.glob("*.sqlite"))
    for _ in range(2):  # both read the bytes a second time: both build, at once
        for index_file in cards_cache.glob("*.sqlite"):
            index_file.unlink()
        both = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(2)]
        outs = [p.communicate(timeout=300) for p in both]
        for p, (out, err) in zip(both, outs):
            assert p.returncode == 1 and out == cold.stdout and "Traceback" not in err
        assert len(list(cards_cache.glob("*.sqlite"))) == 1
        assert not list(cards_cache.glob(".*.tmp"))
    warm = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert warm.stdout == cold.stdout
