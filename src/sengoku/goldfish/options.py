"""A simulation's options as one record (`PlayOptions`), a policy as a name and its settings (`PolicySpec`).

Made and checked once, where a simulation starts (`PlayOptions.given` for the keyword arguments
of `goldfish()` and the others), then passed whole: to the engine's plan, to the worker
processes and Dask workers, to the results that print it (`to_dict`). The module is light enough
for the CLI to import at start-up: the engine is imported only to check a policy's name and
settings, when a `PolicySpec` is made.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sengoku.goldfish.errors import GoldfishError

GOINGS = ("first", "second")
MODES = ("standard", "ultimate")
DEFAULT_RUNS = 10_000
DEFAULT_TURNS = 8
MAX_TURNS = 200
DEFAULT_SEED = 0
DEFAULT_GOING = "first"
DEFAULT_POLICY = "greedy"  # the one place the default policy is named


def policy_label(name: str, settings: Iterable[tuple[str, Any]]) -> str:
    """A policy as reports name it: its name, then the settings changed, if any (`greedy(abilities=False)`)."""
    pairs = ", ".join(f"{k}={v!r}" for k, v in settings)
    return f"{name}({pairs})" if pairs else name


@dataclass(frozen=True)
class PolicySpec:
    """A policy (G2) by name, with settings that differ from its defaults, checked by the policy's own settings.

    `PolicySpec("greedy", {"hp_charge": True})`; no settings is the policy as it ships. The settings
    are kept as sorted (name, value) pairs, so a spec is hashable and pickles to worker processes.
    """

    name: str = DEFAULT_POLICY
    settings: Any = ()  # a mapping of setting -> value; kept as sorted pairs

    def __post_init__(self) -> None:
        # deferred: the engine's import, paid when a policy is chosen, not at the CLI's start-up
        from sengoku.engine.errors import EngineError
        from sengoku.engine.policies import POLICIES, policy_settings

        if not isinstance(self.name, str) or self.name not in POLICIES:
            raise GoldfishError(f"unknown policy {self.name!r} (known: {', '.join(POLICIES)})")
        given = self.settings.items() if isinstance(self.settings, Mapping) else self.settings
        try:
            checked = policy_settings(self.name, dict(given))
        except (EngineError, TypeError, ValueError) as exc:
            raise GoldfishError(str(exc)) from None
        object.__setattr__(self, "settings", tuple(sorted(checked.items())))

    @classmethod
    def of(cls, policy: PolicySpec | str | None) -> PolicySpec:
        """Return `policy` as a spec: a spec as it is, a name with no settings, None the default."""
        if isinstance(policy, PolicySpec):
            return policy
        return cls(DEFAULT_POLICY if policy is None else policy)

    def settings_dict(self) -> dict[str, Any]:
        return dict(self.settings)

    def to_json(self) -> str | dict[str, Any]:
        """The policy as reports print it: its name, or {"name", "settings"} when a setting was changed."""
        return {"name": self.name, "settings": self.settings_dict()} if self.settings else self.name

    def __str__(self) -> str:
        return policy_label(self.name, self.settings)


@dataclass(frozen=True)
class PlayOptions:
    """The options that say which games a simulation plays (SPEC G2-G5), checked once where they are made.

    `mode` None plays the decklist's own mode; `opponent` None a mirror of the deck (G4), else a
    decklist or its path; `commander` None the Commander S1 chooses. `jobs` (None: all cores)
    says how many processes play, at most one a core (`workers`; `jobs_note` says when fewer than
    asked): the games, and so every result, do not depend on it.
    """

    turns: int = DEFAULT_TURNS
    seed: int = DEFAULT_SEED
    going: str = DEFAULT_GOING
    policy: PolicySpec = field(default_factory=PolicySpec)  # a name is read as PolicySpec(name)
    commander: str | None = None
    mode: str | None = None
    opponent: Any = None  # a Decklist, a path, or None
    opponent_defends: bool = False
    play_on: bool = False
    jobs: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.policy, PolicySpec):
            object.__setattr__(self, "policy", PolicySpec.of(self.policy))
        if not _is_int(self.turns) or not 1 <= self.turns <= MAX_TURNS:
            raise GoldfishError(f"turns must be between 1 and {MAX_TURNS}, not {self.turns}")
        if not _is_int(self.seed):
            raise GoldfishError(f"seed must be an integer, not {self.seed!r}")
        if self.going not in GOINGS:
            raise GoldfishError(f"going must be 'first' or 'second', not {self.going!r}")
        if self.mode is not None and self.mode not in MODES:
            raise GoldfishError(f"mode must be 'standard' or 'ultimate', not {self.mode!r}")
        if self.jobs is not None and (not _is_int(self.jobs) or self.jobs < 1):
            raise GoldfishError(f"jobs must be at least 1, not {self.jobs}")
        if self.commander is not None and not isinstance(self.commander, str):
            raise GoldfishError(f"commander must be a card name, not {self.commander!r}")
        for name in ("opponent_defends", "play_on"):
            if not isinstance(getattr(self, name), bool):
                raise GoldfishError(f"{name} must be True or False, not {getattr(self, name)!r}")

    @classmethod
    def given(cls, options: PlayOptions | None = None, **values: Any) -> PlayOptions:
        """Return `options` (default: the defaults) with every value that is not None put in, checked.

        How `goldfish()`, `compare()`, `trace_run()` and `tune()` read their keyword arguments.
        """
        cls.check_names(values)
        base = cls() if options is None else options
        changed = {k: v for k, v in values.items() if v is not None}
        return dataclasses.replace(base, **changed) if changed else base

    @classmethod
    def check_names(cls, values: Mapping[str, Any]) -> None:
        """Refuse, as Python refuses an unknown keyword argument, a name that is no option."""
        unknown = sorted(set(values) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise TypeError(f"unexpected keyword argument(s): {', '.join(unknown)}")

    def engine_given(self) -> list[str]:
        """The engine options that differ from their defaults (another game's deck refuses them)."""
        defaults = PlayOptions()
        return [f.name for f in dataclasses.fields(self) if f.name != "seed"
                and getattr(self, f.name) != getattr(defaults, f.name)]

    @property
    def going_first(self) -> bool:
        return self.going == "first"

    @property
    def workers(self) -> int:
        """The processes that play: `jobs`, or every core this process may use; never more than those cores."""
        return usable_cores() if self.jobs is None else within_cores(self.jobs)[0]

    def jobs_note(self, asked: str = "jobs") -> str | None:
        """A note when `jobs` asks for more processes than the cores, so fewer play (`asked`: how it was asked)."""
        return None if self.jobs is None else within_cores(self.jobs, f"{asked} {self.jobs}")[1]

    def to_dict(self) -> dict[str, Any]:
        """The options as reports print them (`jobs` left out: no result depends on it)."""
        opponent = self.opponent
        if opponent is not None and not isinstance(opponent, (str, Path)):
            opponent = getattr(opponent, "path", None) or getattr(opponent, "name", None) or "deck"
        return {"turns": self.turns, "seed": self.seed, "going": self.going, "policy": self.policy.to_json(),
                "commander": self.commander, "mode": self.mode,
                "opponent": None if opponent is None else str(opponent),
                "opponent_defends": self.opponent_defends, "play_on": self.play_on}


def usable_cores() -> int:
    """Return the number of cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def within_cores(requested: int, asked: str | None = None) -> tuple[int, str | None]:
    """Return the processes to use for `requested`, and a note naming what was `asked` when that is fewer.

    More processes than cores only queue for them (and thousands exhaust the system's process
    and file limits); results do not depend on the number, so the excess is dropped, saying so.
    """
    cores = usable_cores()
    if requested > cores:
        asked = asked or f"jobs {requested}"
        return cores, f"{asked} is more than the {cores} core(s) this process may use; using {cores}"
    return requested, None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)

