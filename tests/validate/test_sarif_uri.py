"""SARIF artifact locations are URI references (SARIF 2.1.0 §3.10): a relative path is percent-encoded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from urllib.parse import unquote

from sengoku.validate import validate_paths
from sengoku.validate.reporters import render

ROOT = Path(__file__).resolve().parents[2]
ODD = "decks/ＳＯＭＡ deck,50%.toml"  # full-width letters, a space, a comma and a percent sign


def test_relative_path_with_spaces_and_percent_is_an_encoded_uri(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "decks").mkdir()
    shutil.copy(ROOT / "decklists" / "invalid" / "copy-limit.toml", tmp_path / ODD)
    monkeypatch.chdir(tmp_path)
    log = json.loads(render("sarif", validate_paths([ODD])))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert uris == {"decks/%EF%BC%B3%EF%BC%AF%EF%BC%AD%EF%BC%A1%20deck%2C50%25.toml"}
    assert unquote(uris.pop()) == ODD


def test_plain_relative_path_is_unchanged(tmp_path: Path, monkeypatch) -> None:
    shutil.copy(ROOT / "decklists" / "invalid" / "copy-limit.toml", tmp_path / "copy-limit.toml")
    monkeypatch.chdir(tmp_path)
    log = json.loads(render("sarif", validate_paths(["copy-limit.toml"])))
    assert log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "copy-limit.toml"
