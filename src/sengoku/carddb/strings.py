"""Check every string of a card database: nothing hidden in it, and no name left blank.

A card database is read by people (`sengoku cards`, reports naming cards) as much as by the
checks. A control character (ESC, NUL), a bidi override or another invisible character in a
name would reach the reader's terminal or a CI log, or make two different names look alike;
a blank name or id names nothing. These hold for every game, so they run on the whole file,
each problem at its JSON path.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sengoku.display import hidden_characters
from sengoku.problems import Problem

# Fields that name something and are shown on one line: they may not be blank.
NAMING_FIELDS = frozenset({"id", "name", "epithet", "set"})
# Fields of running text, where a line break or a tab is at home.
TEXT_FIELDS = frozenset({"text", "description", "note", "notes"})


def _strings(value: Any, path: list[Any]) -> Iterator[tuple[list[Any], str]]:
    stack: list[tuple[Any, list[Any]]] = [(value, path)]
    while stack:  # no recursion: JSON nesting is bounded by the parser, but need not be by us
        item, where = stack.pop()
        if isinstance(item, str):
            yield where, item
        elif isinstance(item, dict):
            stack.extend((v, [*where, k]) for k, v in reversed(list(item.items())))
        elif isinstance(item, list):
            stack.extend((v, [*where, i]) for i, v in reversed(list(enumerate(item))))


def _json_path(parts: list[Any]) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def string_problems(path: str, data: Any) -> list[Problem]:
    """Return a problem for every string holding a hidden character and every blank name or id."""
    problems: list[Problem] = []
    cards = data.get("cards") if isinstance(data, dict) else None
    for where, text in _strings(data, []):
        key = where[-1] if where else None
        card_id = None
        if len(where) >= 2 and where[0] == "cards" and isinstance(cards, list) and isinstance(where[1], int):
            card = cards[where[1]]
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                card_id = card["id"]
        hidden = hidden_characters(text, allowed="\n\t" if key in TEXT_FIELDS else "")
        if hidden:
            names = ", ".join(f"U+{ord(c):04X}" for c in hidden)
            problems.append(Problem(path=path, card_id=card_id, json_path=_json_path(where), code="hidden-character",
                                    message=f"{text!r} holds a control or invisible character ({names}); "
                                            "write the text without it"))
        elif key in NAMING_FIELDS and not text.strip():
            problems.append(Problem(path=path, card_id=card_id, json_path=_json_path(where), code="blank",
                                    message=f"`{key}` is blank ({text!r}): it must name something"))
    return problems
