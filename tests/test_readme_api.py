"""`sengoku.goldfish` is the function whatever was imported before.

(The Python API page's examples, docs/api.md, are run and compared with what Python prints by
tests/test_doc_examples.py; scripts/update_examples.py rewrites them.)
"""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("program", [
    # a submodule imported first: Python binds `sengoku.goldfish` to the package
    "import sengoku.goldfish.result, sengoku\nprint(sengoku.goldfish(runs=7, turns=1).runs)",
    # the function used first, a submodule imported afterwards, then both again
    "import sengoku\nprint(sengoku.goldfish(runs=7, turns=1).runs)\nimport sengoku.goldfish.play.simulate as s\n"
    "from sengoku import goldfish\nprint(goldfish(runs=7, turns=1).runs, s.__name__)",
])
def test_sengoku_goldfish_is_the_function_whatever_was_imported_before(program: str) -> None:
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "7"
    assert done.stdout.split("\n")[1] in ("", "7 sengoku.goldfish.play.simulate")
