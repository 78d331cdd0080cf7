"""Any game's cards as plain table rows (`sengoku cards --game`): every field the cards have."""

from __future__ import annotations

from typing import Any


def card_rows(cards: list[dict[str, Any]]) -> tuple[list[str], list[list[str]]]:
    """Return (columns, rows) showing every field any of `cards` has: id, name, kind first."""
    columns = ["id", "name", "kind"]
    for card in cards:
        for key in card:
            if key not in columns and key != "text":
                columns.append(key)

    def show(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "yes" if value else "no"
        if isinstance(value, list):
            return ", ".join(map(show, value))
        return str(value).replace("_", " ") if isinstance(value, str) else str(value)

    return columns, [[show(card.get(c)) for c in columns] for card in cards]
