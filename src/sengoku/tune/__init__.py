"""`sengoku tune`: find a better deck, one legal card change at a time, each won in a paired race.

The data flows one way: the start deck -> legal one-card changes (`candidates`, checked by the
validator) -> a paired race on common random numbers (`race`, played through `goldfish.pairs`
by an executor: this process, a local pool or a Dask cluster, `executors`) -> an accepted change
-> the next step (`tuner`) -> `TuneResult` (`result`), which the reporters turn into text,
JSON or HTML.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["TuneError", "TuneResult", "Tuner", "tune"]

if TYPE_CHECKING:  # pragma: no cover
    from sengoku.tune.result import TuneResult
    from sengoku.tune.tuner import TuneError, Tuner, tune


def __getattr__(name: str) -> Any:
    # `import sengoku.tune` stays cheap: the engine loads only when a tune starts
    import importlib  # deferred: start-up time, as above

    where = {"TuneError": "tuner", "Tuner": "tuner", "tune": "tuner", "TuneResult": "result"}.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"sengoku.tune.{where}"), name)
