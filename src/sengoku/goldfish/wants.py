"""`--want NAME[:N]`: user events on the opening hand ("at least N copies of NAME, any level").

A card name may hold `:` itself. The text is split at its last `:` only when a whole number
follows it (`Ninja: Shadow:2` is two Ninja: Shadow; `Ninja: Shadow` is one); a name that ends
in `:` and a number is given in double quotes (`"Ten:10"`, `"Ten:10":2`). Unquoted, such a
name is still found when no card has the name before the colon.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from sengoku.carddb.names import fold
from sengoku.errors import SengokuError


class WantError(SengokuError):
    """A `--want` that cannot be used: bad syntax, unknown card name, a name given twice."""


@dataclass(frozen=True)
class Want:
    """At least `copies` cards named `name` (any level, any epithet) in the opening hand."""

    name: str
    copies: int = 1

    def label(self) -> str:
        return f"≥{self.copies} {self.name}"


_COUNTED = re.compile(r"^(?P<name>.*):\s*(?P<count>[+-]?\d+)\s*$", re.S)  # greedy: the last ':'


def parse_want(text: str) -> Want:
    """Parse 'NAME', 'NAME:N' (N ≥ 1), '"NAME"' or '"NAME":N' (a name holding ':' and a number)."""
    m = _COUNTED.match(text)
    name, count = (m.group("name"), m.group("count")) if m else (text, "1")
    name = name.strip()
    if len(name) >= 2 and name[0] == name[-1] == '"':
        name = name[1:-1].strip()
    if not name:
        raise WantError(f"--want {text!r}: give a card name, e.g. --want 'Soma:2'")
    copies = int(count) if len(count) <= 10 else 10**10  # past any deck; int() stops at 4,300 digits
    if copies < 1:
        raise WantError(f"--want {text!r}: the count must be at least 1")
    return Want(name, copies)


def _unknown(text: str, name: str, known: dict[str, str]) -> str | None:
    """Why a want naming no card looks like a mistyped count, if it does (else None)."""
    head, sep, tail = name.rpartition(":")
    if not sep or fold(head) not in known:
        return None
    if tail.strip().isdigit():  # 'Soma:2:3'
        return (f"--want {text!r}: one count per want, after a single ':' (e.g. --want "
                f"'{head.strip()}:{tail.strip()}'); repeat --want for another event")
    return f"--want {text!r}: the count after ':' must be a whole number"


def resolve_wants(wants: Iterable[Want | str], names: Iterable[str],
                  unknown: str = "no character card of that name in the card database") -> list[Want]:
    """Match each want to a character name of the card DB (case-insensitively); refuse unknowns.

    `names` are the names a want may use (the database's Character cards); `unknown` says why
    a name that is not among them was refused.
    """
    known = {fold(n): n for n in names}
    out: list[Want] = []
    seen: set[str] = set()
    for want in wants:
        w = parse_want(want) if isinstance(want, str) else want
        name = known.get(fold(w.name))
        if name is None and isinstance(want, str) and fold(want) in known:  # 'Ten:10', no card 'Ten'
            w = Want(known[fold(want)], 1)
            name = w.name
        if name is None:
            mistake = _unknown(want if isinstance(want, str) else w.name, w.name, known)
            if mistake:
                raise WantError(mistake)
            close = difflib.get_close_matches(w.name, sorted(known.values()), n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise WantError(f"--want {w.name!r}: {unknown}{hint}")
        if name in seen:
            raise WantError(f"--want {name!r} is given twice; give it once with the count you want")
        seen.add(name)
        out.append(Want(name, w.copies))
    return out
