"""The public API as a REPL or an editor shows it: `inspect.signature` and `help()` of the callable packages."""

from __future__ import annotations

import importlib
import inspect
import pydoc

import pytest

import sengoku


@pytest.mark.parametrize(("package", "function"), [("goldfish", "sengoku.goldfish.api:goldfish"),
                                                   ("tune", "sengoku.tune.tuner:tune")])
def test_the_callable_packages_show_their_functions_parameters_and_docstring(package: str, function: str) -> None:
    module, _, name = function.partition(":")
    real = getattr(importlib.import_module(module), name)
    shown = getattr(sengoku, package)
    assert inspect.signature(shown) == inspect.signature(real)
    assert "(*args, **kwargs)" not in str(inspect.signature(shown))
    page = pydoc.render_doc(shown, renderer=pydoc.plaintext)
    first = inspect.getdoc(real).splitlines()[0]
    assert f"sengoku.{package} - {first}" in page  # help()'s NAME line is the function's summary
    assert f"sengoku.{package}{inspect.signature(real)}" in page
    assert shown.__doc__.startswith(first)
    assert inspect.getdoc(real).splitlines()[-1] in page  # the whole docstring, to its last line


def test_goldfish_signature_names_its_options() -> None:
    params = inspect.signature(sengoku.goldfish).parameters
    assert list(params)[:2] == ["deck", "db"]
    # the run's own parameters, and the game's options as one record (PlayOptions, issue 35)
    assert {"runs", "options", "precision", "traces"} <= set(params)
    assert "PlayOptions" in str(params["options"].annotation)
    assert params["runs"].kind is inspect.Parameter.KEYWORD_ONLY
    with pytest.raises(TypeError):  # the signature shown is the one enforced
        inspect.signature(sengoku.goldfish).bind("deck.toml", None, 100)
