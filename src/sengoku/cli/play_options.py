"""Options that `goldfish`, `compare`, `tune` and `impact` share: one declaration each, so that the
commands read and explain them alike."""

from __future__ import annotations

import ast
from typing import Any

import typer

from sengoku.errors import DataError
from sengoku.goldfish.errors import GoldfishError

SEED = typer.Option(0, "--seed", help="Master seed. Run i (of every deck) takes its own seeds, one per purpose, from "
                    "(seed, i), so the same inputs and seed give byte-identical JSON for any --jobs.")
JOBS = typer.Option(None, "--jobs", "-j", help="Parallel processes. Default: all cores. Results are identical "
                    "to --jobs 1; at most one process per 1,000 runs (fewer runs stay in one process), unless the first 8 runs, "
                    "timed, foretell slow games (a look-ahead, a search): then one per half second of play.",
                    show_default=False)
OPPONENT_DEFENDS = typer.Option(
    False, "--opponent-defends", help="The opponent adds its Commander's ATK and self-boosts from its hand "
    "when it can (G4). Default: it makes no optional choice.")
PLAY_ON = typer.Option(
    False, "--play-on", help="Go on playing after a win, up to --turns. Default: a game stops at the end of "
    "the turn it is won, and later turns count only the games still being played.")
FORCE = typer.Option(False, "--force", help="Replace the --plot or --html file if it exists.")
DB = typer.Option(None, "--db", readable=False, help="Card database folder or file. Default: $SENGOKU_DB, else "
                  "the bundled sample set.", show_default=False)
POLICY_SETTING = typer.Option(
    [], "--policy-setting", metavar="NAME=VALUE", help="Change one of the --policy's settings (repeat for "
    "several); VALUE is a Python literal: 0, False, 0.05. For example --policy-setting lookahead_turns=0 plays "
    "greedy's script alone, without its look-ahead of a turn: much faster going second, against a defender "
    "or in Ultimate mode, and less accurate there. The settings: docs/policies.md. An unknown setting, a "
    "value of the wrong type, a setting given twice or one for a policy without settings is exit 2.",
    show_default=False)


def policy_choice(policy: str | None, settings: list[str]) -> Any:
    """Return --policy with its --policy-setting NAME=VALUE options as one `PolicySpec`, checked once.

    With no setting, `policy` as it is (PlayOptions reads a name, and None as the default policy).
    The names and types are checked by the policy's own settings (PolicySpec), one setting at a
    time so that a refusal names the option as it was given; DataError (exit 2) for any refusal.
    """
    if not settings:
        return policy
    # deferred: the engine's import, paid when a setting is given
    from sengoku.goldfish.options import DEFAULT_POLICY, PolicySpec

    name = DEFAULT_POLICY if policy is None else policy
    PolicySpec(name)  # an unknown policy is refused as it is without settings
    values: dict[str, Any] = {}
    for given in settings:
        key, equals, text = given.partition("=")
        key = key.strip()
        where = f"--policy-setting {given!r}"
        if not equals or not key:
            raise DataError(None, f"{where}: expected NAME=VALUE, for example lookahead_turns=0")
        if key in values:
            raise DataError(None, f"{where}: {key} is given twice")
        try:
            value = ast.literal_eval(text.strip())
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            raise DataError(None, f"{where}: {text.strip()!r} is not a Python literal (a number, True or False, "
                                  "or a quoted text)") from None
        try:
            PolicySpec(name, {key: value})
        except GoldfishError as exc:
            raise DataError(None, f"{where}: {exc}") from None
        values[key] = value
    return PolicySpec(name, values)
