"""`--want NAME[:N]`: user events on the opening hand ("at least N copies of NAME, any level")."""

from __future__ import annotations

import difflib
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


def parse_want(text: str) -> Want:
    """Parse 'NAME' or 'NAME:N' (N ≥ 1)."""
    name, sep, count = text.rpartition(":")
    if not sep:
        name, count = text, "1"
    name = name.strip()
    if not name:
        raise WantError(f"--want {text!r}: give a card name, e.g. --want 'Soma:2'")
    head, sep2, extra = name.rpartition(":")
    if sep2 and head.strip() and extra.strip().isdigit():  # 'Soma:2:3': not a name ending in ':2'
        raise WantError(f"--want {text!r}: one count per want, after a single ':' (e.g. --want "
                        f"'{head.strip()}:{extra.strip()}'); repeat --want for another event")
    try:
        copies = int(count)
    except ValueError:
        raise WantError(f"--want {text!r}: the count after ':' must be a whole number") from None
    if copies < 1:
        raise WantError(f"--want {text!r}: the count must be at least 1")
    return Want(name, copies)


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
        if name is None:
            close = difflib.get_close_matches(w.name, sorted(known.values()), n=3)
            hint = f" (did you mean {', '.join(close)}?)" if close else ""
            raise WantError(f"--want {w.name!r}: {unknown}{hint}")
        if name in seen:
            raise WantError(f"--want {name!r} is given twice; give it once with the count you want")
        seen.add(name)
        out.append(Want(name, w.copies))
    return out
