"""Build hook: compile the solver when a C compiler is at hand.

Everything else about the package is declared in pyproject.toml. The solver
(``engine/solver.py``) is plain, fully typed Python; mypyc compiles that same
source to a C extension about five times faster (``bench/solver.py`` prints
which one it measured), and its hottest loops, the dead-card fixpoint, the
ordering probe and the dead-end test, are built from their C twin
``engine/_native.c``, about 2.4 times faster again. Both extensions are
optional: without a compiler, or with ``REEL_PURE_PYTHON=1`` set, the install
keeps the pure Python module, which gives the same answers. Editable installs
(``pip install -e``) stay pure Python, so that an edit of the source is never
shadowed by a stale build.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup


def extensions() -> list[object]:
    if os.environ.get("REEL_PURE_PYTHON") or {"editable_wheel", "develop"} & set(sys.argv):
        return []
    # the solver's hottest loops in C; no compiler: the solver runs their Python twins
    modules: list[object] = [
        Extension("engine._native", ["engine/_native.c"], optional=True, extra_compile_args=["-O2"])
    ]
    try:
        from mypyc.build import mypycify
    except ImportError:
        return modules
    compiled = mypycify(["engine/solver.py"], opt_level="3")
    for module in compiled:
        module.optional = True  # no compiler: keep the pure Python module
    return modules + list(compiled)


setup(ext_modules=extensions())
