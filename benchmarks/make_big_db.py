"""Write SENGOKU YUGI card databases of a chosen size, for timing `validate`, `db check` and `cards`.

    python benchmarks/make_big_db.py OUT [--cards 5000 20000 100000]

Writes one card database folder per size, OUT/cards-<N>/ (cards.json, board.json, game.toml,
formats/), each a valid database that `sengoku db check` passes. The bundled sample set's 95
cards come first, unchanged, so that the bundled decklists resolve against it; the rest are
copies of them under new ids and names (`Soma 17`), familiars' `evolves_from` renamed with
their chain, so every check has the same work per card as on the sample set.
"""

from __future__ import annotations

import argparse
import copy
import json
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "card_db" / "sengoku"


def big_cards(n: int) -> dict:
    """Return a card database of n cards: the sample set, then renamed copies of it."""
    data = json.loads((SAMPLE / "cards.json").read_text(encoding="utf-8"))
    sample = data["cards"]
    cards = list(sample)
    copy_no = 0
    while len(cards) < n:
        copy_no += 1
        for card in sample:
            if len(cards) >= n:
                break
            clone = copy.deepcopy(card)
            clone["id"] = f"BG{copy_no}-{card['id']}"
            clone["set"] = f"BG{copy_no}"
            clone["name"] = f"{card['name']} {copy_no}"
            if clone.get("evolves_from"):
                clone["evolves_from"] = f"{card['evolves_from']} {copy_no}"
            cards.append(clone)
    data["meta"] = {**data["meta"], "name": f"{n}-card benchmark set", "sample": True}
    data["cards"] = cards
    return data


def write_db(folder: Path, n: int) -> Path:
    """Write an n-card database folder; return its cards.json."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("board.json", "game.toml"):
        shutil.copy(SAMPLE / name, folder / name)
    shutil.copytree(SAMPLE / "formats", folder / "formats", dirs_exist_ok=True)
    data = big_cards(n)
    # One card per line, as the sample set is written.
    lines = ",\n".join("    " + json.dumps(card, ensure_ascii=False) for card in data["cards"])
    text = ('{\n  "meta": ' + json.dumps(data["meta"], ensure_ascii=False) + ',\n  "cards": [\n'
            + lines + "\n  ]\n}\n")
    out = folder / "cards.json"
    out.write_text(text, encoding="utf-8")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder to write cards-<N>/ folders into")
    parser.add_argument("--cards", type=int, nargs="+", default=[5000, 20000, 100000],
                        help="database sizes (default 5000 20000 100000)")
    args = parser.parse_args()
    for n in args.cards:
        path = write_db(args.out / f"cards-{n}", n)
        print(f"{path}  {n} cards, {path.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
