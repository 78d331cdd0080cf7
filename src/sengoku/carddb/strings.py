"""Check every string of a card database: nothing hidden in it, and no name left blank.

A card database is read by people (`sengoku cards`, reports naming cards) as much as by the
checks. A control character (ESC, NUL), a bidi override or another invisible character in a
name would reach the reader's terminal or a CI log, or make two different names look alike;
a blank name or id names nothing. These hold for every game, so they run on the whole file,
each problem at its JSON path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from sengoku.display import clipped, hidden_characters, quoted
from sengoku.problems import Problem, one_card

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


def _suspect(value: Any) -> bool:
    """Tell quickly whether a value may hold a string that `string_problems` reports.

    Most strings are printable and not blank: this walks without building paths, and only a
    part where it finds something is walked again with paths, to say where.
    """
    stack: list[tuple[Any, Any]] = [(value, None)]
    while stack:
        item, key = stack.pop()
        if isinstance(item, str):
            if not item.isprintable() or (key in NAMING_FIELDS and not item.strip()):
                return True
        elif isinstance(item, dict):
            stack.extend((v, k) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, None) for v in item)
    return False


def _parts(data: Any) -> Iterator[tuple[Any, list[Any]]]:
    """Yield the top-level values of a database, and each card alone, with their paths (in file order)."""
    if not isinstance(data, dict):
        yield data, []
        return
    for key, value in data.items():
        if key == "cards" and isinstance(value, list):
            for i, card in enumerate(value):
                yield card, [key, i]
        else:
            yield value, [key]


# In JSON text that `json.loads` accepted, raw tabs and line breaks are only spacing between
# tokens (a string cannot hold them raw); inside a string, a character the text spells with an
# escape (`\n`, `\u200b`) shows as a backslash and a letter.
_ESCAPE = re.compile(r"\\[bfnrtu]")
_SPACING = frozenset("\t\n\r")
_ASCII_HIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # the ASCII that is not printable, but spacing
_BLANK_NAME = re.compile(r'"(?:%s)"\s*:\s*" *"' % "|".join(sorted(NAMING_FIELDS)))


def _clean_text(text: str) -> bool:
    """Tell whether the JSON text `text` certainly holds no string `string_problems` reports.

    Read off the text in a few passes of C code, where walking 100,000 parsed cards in Python
    took seconds: no escape that could make a hidden character, no raw character that is not
    printable (but spacing), no naming field whose value is spaces. False means "look closer".
    """
    if _ESCAPE.search(text) or _BLANK_NAME.search(text):
        return False
    if text.isascii():  # the usual case, and the quick one: look for the ASCII controls only
        return _ASCII_HIDDEN.search(text) is None
    return all(c.isprintable() or c in _SPACING for c in set(text))


def string_problems(path: str, data: Any, text: str | None = None) -> list[Problem]:
    """Return a problem for every string holding a hidden character and every blank name or id.

    With `text`, the JSON text `data` was parsed from, a database whose text shows none is
    passed at once.
    """
    if text is not None and _clean_text(text):
        return []
    problems: list[Problem] = []
    cards = data.get("cards") if isinstance(data, dict) else None
    strings = (found for part, where in _parts(data) if _suspect(part) or (where and where[-1] in NAMING_FIELDS)
               for found in _strings(part, where))
    for where, text in strings:
        key = where[-1] if where else None
        card_id = None
        if len(where) >= 2 and where[0] == "cards" and isinstance(cards, list) and isinstance(where[1], int):
            card = cards[where[1]]
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                card_id = clipped(card["id"])
        hidden = hidden_characters(text, allowed="\n\t" if key in TEXT_FIELDS else "")
        if hidden:
            names = ", ".join(f"U+{ord(c):04X}" for c in hidden)
            problems.append(Problem(severity="error", path=path, cards=one_card(card_id),
                                    json_path=_json_path(where), rule="hidden-character",
                                    message=f"{quoted(text)} holds a control or invisible character ({names}); "
                                            "write the text without it"))
        elif key in NAMING_FIELDS and not text.strip():
            problems.append(Problem(severity="error", path=path, cards=one_card(card_id),
                                    json_path=_json_path(where), rule="blank",
                                    message=f"`{key}` is blank ({quoted(text)}): it must name something"))
    return problems
