"""`sengoku impact`: what each card of a deck is worth, measured causally (SPEC G9).

The data flows one way: the deck -> its distinct cards, each with the legal deck of one copy
fewer (or one copy replaced by a filler; `cards`, through tune's one-card change) -> a race on
common random numbers against the full deck (`race`, played as `work` tasks by tune's executors:
this process, a local pool or a Dask cluster) -> `ImpactResult` (`result`), which `report` and
`html_report` present. Beside each effect, the association statistics players know (`work`:
the full deck's own games, labelled as associations). Names are imported lazily.
"""

from __future__ import annotations

from sengoku._lazy import callable_package, lazy_exports

_NAMES = {
    "impact": "sengoku.impact.race",
    "ImpactRace": "sengoku.impact.race",
    "ImpactError": "sengoku.impact.cards",
    "ImpactResult": "sengoku.impact.result",
}
__all__ = list(_NAMES)

__getattr__ = lazy_exports(__name__, _NAMES)


callable_package(__name__, "impact")  # sengoku.impact(...) is impact() (see sengoku._lazy.callable_package)
