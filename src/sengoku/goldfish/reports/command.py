"""The command a report page prints to make it again, as a POSIX shell must be given it.

Every word is quoted with `shlex.quote`, so spaces, quotes, `$` or `;` in a path stay in one
argument. A path that starts with `-` needs more: quoted or not, the command line would read
`-weak.toml` as an option. The operands (the decklists) then go after a `--`, behind every
option, where the command line reads them as paths whatever they start with. An option's own
value may start with `-` as it is (`--opponent -strong.toml`): an option that takes a value
takes the next word.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence
from typing import Any


def shell_command(words: Sequence[str], operands: Sequence[str], options: Sequence[str]) -> str:
    """Return `words` (the program and its command), the `operands` and the `options` as one shell command."""
    if any(o.startswith("-") for o in operands):
        args = [*words, *options, "--", *operands]
    else:
        args = [*words, *operands, *options]
    return " ".join(shlex.quote(a) for a in args)


def policy_args(policy: Any, name: str | None = None) -> list[str]:
    """Return the policy that played, as the command line is given it: --policy, then each --policy-setting.

    `policy` is the options' `PolicySpec` (None: only `name`, a report's policy name, is known);
    a setting's value is written as the Python literal the option reads (`abilities=False`).
    """
    if policy is None:
        return ["--policy", str(name)]
    args = ["--policy", policy.name]
    for key, value in policy.settings:
        args += ["--policy-setting", f"{key}={value!r}"]
    return args
