"""Build hook: compile the solver when a C compiler is at hand.

Everything else about the package is declared in pyproject.toml. The solver
(the package ``engine/solver/``) is plain, fully typed Python; mypyc compiles
its search and the modules it runs on (``COMPILED``, one compilation group, so
that their native classes and functions call each other directly) to C
extensions about five times faster (``bench/solver.py`` prints which build it
measured), and its hottest loops, the dead-card fixpoint, the ordering probe
and the dead-end test, are built from their C twin
``engine/solver/_native.c``, about 2.4 times faster again. Both extensions are
optional: without a compiler (a one-line probe is compiled first, so that a
machine without one does not wait for mypyc's translation), or with
``REEL_PURE_PYTHON=1`` set, the install keeps the pure Python modules, which give
the same answers. Editable installs
(``pip install -e``) stay pure Python, so that an edit of the source is never
shadowed by a stale build.
"""

from __future__ import annotations

import os
import sys
import tempfile

from setuptools import Extension, setup

# The solver's modules mypyc compiles (.ci/run checks that each is built): the
# position, the closure, the phase's deadlines and dead ends, the search. The
# SAT prover (its time is in the SAT solver), the hints and the commands stay
# Python.
COMPILED = [
    "engine/solver/model.py",
    "engine/solver/closure.py",
    "engine/solver/phase.py",
    "engine/solver/search.py",
]


def compiler_works() -> bool:
    """Whether a C compiler builds a one-line file here: without one, mypyc's translation
    (most of a build's time) would be thrown away, so it is not begun."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "probe.c")
        with open(source, "w", encoding="ascii") as file:
            file.write("int probe(void) { return 0; }\n")
        compiler = new_compiler()
        customize_compiler(compiler)
        try:
            compiler.compile([source], output_dir=folder)  # (the object inside folder)
        except Exception:  # CompileError (its module moves between setuptools), OSError
            return False
    return True


def extensions() -> list[object]:
    if os.environ.get("REEL_PURE_PYTHON") or {"editable_wheel", "develop"} & set(sys.argv):
        return []
    if not compiler_works():
        print("no working C compiler: the solver stays pure Python", file=sys.stderr)
        return []
    # the solver's hottest loops in C; no compiler: the solver runs their Python twins
    modules: list[object] = [
        Extension(
            "engine.solver._native",
            ["engine/solver/_native.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
    try:
        from mypyc.build import mypycify
    except ImportError:
        return modules
    compiled = mypycify(COMPILED, opt_level="3")
    for module in compiled:
        module.optional = True  # no compiler: keep the pure Python modules
    return modules + list(compiled)


setup(ext_modules=extensions())
