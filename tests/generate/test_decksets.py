"""The fit and test sets (issue 36, G6): data that builds to the digest it records, byte for byte, with no
deck and no generated card database in both sets; the test set as large as the issue asks."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import pytest

from sengoku.errors import DataError
from sengoku.generate.deckset import build_deckset, load_deckset

ROOT = Path(__file__).resolve().parents[2]
SETS = ROOT / "benchmarks" / "decksets"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Each set read from its manifest and built into a folder of its own."""
    out = {}
    for name in ("fit", "test"):
        manifest = load_deckset(SETS / f"{name}.toml")
        out[name] = (manifest, build_deckset(manifest, tmp_path_factory.mktemp(name)))
    return out


def files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_each_set_builds_to_the_digest_its_manifest_records(built):
    for name, (manifest, result) in built.items():
        assert result.digest == manifest.digest, (
            f"{name}: the set now builds to {result.digest}; a generator, the bundled cards or a listed decklist "
            "changed. If that is meant, write the new digest into the manifest (the set changes with it)")


def test_a_set_built_twice_is_the_same_bytes(built, tmp_path):
    manifest, first = built["test"]
    again = build_deckset(manifest, tmp_path)
    root = first.decks[0].decklist.parents[2]  # <folder>/decks/<database>/<deck>.toml
    assert files(root) == files(tmp_path) and len(files(tmp_path)) == 24 + 2  # 24 decklists, 2 cards.json
    assert again.digest == first.digest


def test_the_test_set_has_24_decks_over_the_bundled_and_two_generated_databases(built):
    manifest, result = built["test"]
    assert len(result.decks) >= 24
    generated = {name for name, seed in manifest.databases.items() if seed is not None}
    assert len(generated) >= 2 and None in manifest.databases.values()
    used = {d.database for d in manifest.decks}
    assert generated | {"bundled"} <= used
    assert any(d.mode == "ultimate" for d in result.decks) and any(d.mode == "standard" for d in result.decks)


def test_no_deck_and_no_generated_database_is_in_both_sets(built):
    (fit_manifest, fit), (test_manifest, test) = built["fit"], built["test"]
    assert not {d.deck_hash for d in fit.decks} & {d.deck_hash for d in test.decks}
    bundled = fit.database_hashes["bundled"]
    assert test.database_hashes["bundled"] == bundled  # the one database both sets share, by design
    fit_generated = {h for n, h in fit.database_hashes.items() if h != bundled}
    test_generated = {h for n, h in test.database_hashes.items() if h != bundled}
    assert len(fit_generated) >= 2 and not fit_generated & test_generated
    assert not {s for s in fit_manifest.databases.values() if s is not None} & \
        {s for s in test_manifest.databases.values() if s is not None}  # other generator seeds
    assert not {d.seed for d in fit_manifest.decks} & {d.seed for d in test_manifest.decks}
    suite = {d.deck_hash for d in fit.decks if d.name.startswith("file/")}
    assert len(suite) == len(list((ROOT / "decklists" / "suite").glob("*.toml")))  # the suite is fit data


def test_the_script_builds_a_set_and_checks_its_digest(tmp_path):
    script = ROOT / "scripts" / "generate.py"
    ok = subprocess.run([sys.executable, str(script), "deckset", str(SETS / "test.toml"), str(tmp_path), "--check"],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.splitlines()[-1].startswith(f"digest {load_deckset(SETS / 'test.toml').digest} (24 decks)")
    changed = tmp_path / "changed.toml"
    changed.write_text((SETS / "test.toml").read_text(encoding="utf-8").replace("seeds = [1]", "seeds = [2]"),
                       encoding="utf-8")
    off = subprocess.run([sys.executable, str(script), "deckset", str(changed), str(tmp_path / "b"), "--check"],
                         capture_output=True, text=True)
    assert off.returncode == 1 and "builds to digest" in off.stderr


@pytest.mark.parametrize("text, message", [
    ('set = "x"\ncolour = 1\n', "unknown key"),
    ('set = "x"\n[databases]\ng = { seed = -1 }\n', "databases.g"),
    ('set = "x"\n[[decks]]\ndatabases = ["nowhere"]\nprofiles = ["climb"]\nseeds = [1]\n', "'nowhere'"),
    ('set = "x"\n[databases]\nb = { bundled = true }\n[[decks]]\ndatabases = ["b"]\nprofiles = ["tiny"]\n'
     'seeds = [1]\n', "'tiny'"),
    ('set = "x"\n[databases]\nb = { bundled = true }\n[[decks]]\ndatabases = ["b", "b"]\nprofiles = ["climb"]\n'
     'seeds = [1]\n', "listed twice: b/climb-1"),
    ('set = "x"\n[[decklists]]\npath = "missing"\n', "holds no decklist"),
    ('set = "x"\ndigest = [\n', "manifest.toml:2:11: not valid TOML"),
])
def test_a_bad_manifest_is_refused_naming_the_file_and_key(tmp_path, text, message):
    path = tmp_path / "manifest.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_deckset(path)
    assert message in str(info.value) and "manifest.toml" in str(info.value)
