"""Shared set-up for the engine tests: make the helper modules beside this file importable.

pytest runs with ``--import-mode=importlib``, which does not put test folders
on ``sys.path``; the engine tests import ``reference`` (the independent model
of the rules) and ``positions`` (readable position builders) from here.
"""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
