"""Shared set-up for the engine tests: make the helper modules beside this file importable.

pytest runs with ``--import-mode=importlib``, which does not put test folders
on ``sys.path``; the engine tests import ``reference`` (the independent model
of the rules) and ``positions`` (readable position builders) from here, and
the solver's tests (solver/) ``slow_closure`` from theirs. (One conftest for
both folders: mypy checks tests/engine as one root, where two modules named
``conftest`` would clash.)
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
for _folder in (str(_HERE), str(_HERE / "solver")):
    if _folder not in sys.path:
        sys.path.insert(0, _folder)
