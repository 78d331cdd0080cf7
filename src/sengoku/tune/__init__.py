"""`sengoku tune`: find a better deck, one legal card change at a time, each won in a paired race.

The data flows one way: the start deck -> legal one-card changes (`candidates`, checked by the
validator) -> a paired race on common random numbers (`race`, played through `goldfish.pairs`
by an executor: this process, a local pool or a Dask cluster, `executors`) -> an accepted change
-> the next step (`tuner`) -> `TuneResult` (`result`), which `report` and `html_report` present.
Names are imported lazily so that importing a submodule stays cheap.
"""

from __future__ import annotations

from sengoku._lazy import callable_package, lazy_exports

_NAMES = {
    "tune": "sengoku.tune.tuner",
    "Tuner": "sengoku.tune.tuner",
    "TuneError": "sengoku.tune.tuner",
    "TuneResult": "sengoku.tune.result",
}
__all__ = list(_NAMES)

__getattr__ = lazy_exports(__name__, _NAMES)


callable_package(__name__, "tune")  # sengoku.tune(...) is tune() (see sengoku._lazy.callable_package)
