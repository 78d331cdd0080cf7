"""What the impact tests share: a card database with a planted dead card and a planted strong card, and a deck
holding both (beside the default deck's cards)."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from impact_planted import DEAD, DEFAULT_DECK, SAMPLE_DB, STRONG


def _planted_cards(cards: list[dict]) -> list[dict]:
    soma = next(c for c in cards if c["id"] == "SY1-001")  # a Level 1 Main card to copy the fields from
    soma2 = next(c for c in cards if c["id"] == "SY1-002")
    dead = copy.deepcopy(soma2)
    dead.update(id="PL-001", name=DEAD, epithet="Never Deployed", deployment_cost=30, charge_value=0, abilities=[])
    strong = copy.deepcopy(soma)
    strong.update(id="PL-002", name=STRONG, epithet="Planted", deployment_cost=1, charge_value=20, atk=40, mat=40, abilities=[],
                  range=["near_left", "near_right", "far_left", "far_right"])
    return [dead, strong]


@pytest.fixture(scope="session")
def planted_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample card database with the planted dead card and strong card added."""
    folder = tmp_path_factory.mktemp("planted") / "sengoku"
    shutil.copytree(SAMPLE_DB, folder)
    data = json.loads((folder / "cards.json").read_text(encoding="utf-8"))
    data["cards"] += _planted_cards(data["cards"])
    (folder / "cards.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    return folder


@pytest.fixture(scope="session")
def planted_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default deck (52 cards) with 3 copies of each planted card: 58 cards and 2 Nameless (D1, D2)."""
    path = tmp_path_factory.mktemp("planted-deck") / "planted.toml"
    text = DEFAULT_DECK.read_text(encoding="utf-8").replace('name = "Sample Standard: Four Banners"',
                                                            'name = "Planted"')
    text += "".join(f'\n[[main]]\nname = "{name}"\nlevel = {level}\ncount = 3\n'
                    for name, level in ((DEAD, 2), (STRONG, 1)))
    path.write_text(text, encoding="utf-8")
    return path
