"""The solver's commands: ``reel solve`` (one deal) and ``reel study`` (winnability of a range).

Wiring into ``reel`` (bot/cli.py)::

    from engine.solver.cli import add_solve_commands, run_solve_command
    add_solve_commands(sub)                      # in build_parser()
    if command in ("solve", "study"):            # in main(), before the config is read
        return run_solve_command(args)

Also runnable alone: ``python -m engine.solver.cli solve --deal 16``.

``reel solve --deal N [--budget 10s]`` prints the verdict and, for a won deal,
the winning line in the engine's notation. ``reel study --deals 1-10000
--budget 10s [--jobs 2] [--csv study.csv]`` solves every deal of the range
(in worker processes with ``--jobs``), shows progress on stderr, prints the
won / unwinnable / unknown counts and a 95% Wilson interval for the winnable
fraction (its low end counts the unknown deals as lost, its high end as won),
and writes one CSV row per deal. A study stopped halfway (Ctrl-C, a crash)
keeps the deals it solved in ``PATH.part``; the same command with ``--resume``
solves only the others.

Both take ``--variant CODE`` for the deals of another game of the family (``rp``
Royal Parade, ``tu`` Three Up, ``bj`` Blue Jacket, ``bp`` Big Parade; ``vr``, Virginia
Reel, when not given).

Both print to stdout for pipes: when the reader goes away early (``reel solve
--deal 1 | head -3``) they stop quietly, as Unix tools do, with no traceback
and exit status 141 (what a shell reports for a tool SIGPIPE stopped).
"""

from __future__ import annotations

import argparse
import csv
import io
import math
import os
import re
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, NoReturn, TextIO

from ..deal import MAX_DEAL, MIN_DEAL
from ..game import Game
from ..variant import VARIANTS, VIRGINIA_REEL, variant_by_code
from . import blind, blind_study
from .model import models
from .search import CLOCKS, solve
from .verdict import Solution, Verdict

Z95 = 1.959963984540054  # the normal quantile for a two-sided 95% interval

EXIT_BROKEN_PIPE: Final = 128 + 13  # a shell's status for a process stopped by SIGPIPE (13)
EXIT_INTERRUPTED: Final = 128 + 2  # and by SIGINT (2): Ctrl-C


DEFAULT_BUDGET: Final = 10.0  # seconds
DEFAULT_MAX_NODES: Final = 50_000_000
DEFAULT_CSV: Final = "study.csv"
MAX_STUDY_DEALS: Final = 1_000_000  # days of solving already; rows and jobs are held in memory

BUDGET_FORM: Final = "the budget must be a positive number of seconds such as 10s or 0.5s"
DEALS_FORM: Final = "deals are a range such as 1-10000 or one deal such as 42"


def parse_budget(text: str) -> float:
    """Seconds from ``10s``, ``10``, ``500ms`` or ``2m``."""
    t = text.strip().lower()
    scale = 1.0
    for suffix, factor in (("ms", 0.001), ("s", 1.0), ("m", 60.0)):
        if t.endswith(suffix):
            t, scale = t[: -len(suffix)], factor
            break
    try:
        seconds = float(t) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a budget is a time such as 10s, 500ms or 2m, not {text!r}"
        ) from None
    if not seconds > 0:  # zero, negative or nan
        raise argparse.ArgumentTypeError(f"{BUDGET_FORM}, not {text!r}")
    if math.isinf(seconds):
        raise argparse.ArgumentTypeError(
            f"the budget must be finite, a time such as 10s or 0.5s, not {text!r}"
        )
    return seconds


def parse_deal(text: str) -> int:
    try:
        deal = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a deal number is a whole number, not {text!r}") from None
    if not MIN_DEAL <= deal <= MAX_DEAL:
        raise argparse.ArgumentTypeError(f"deal numbers run from {MIN_DEAL} to {MAX_DEAL}")
    return deal


def _count(text: str, what: str, unit: str = "") -> int:
    """A whole number, at least 1; ``what`` (and ``unit``) name it in the refusal."""
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        refusal = f"{what} is a whole number{unit}, at least 1, not {text!r}"
        raise argparse.ArgumentTypeError(refusal)
    return n


def parse_samples(text: str) -> int:
    """Stock orders a blind decision tries: a whole number, 0 for no search at all."""
    if text.strip().isdigit():
        return int(text)
    raise argparse.ArgumentTypeError(f"--samples is a whole number, 0 or more, not {text!r}")


def parse_max_nodes(text: str) -> int:
    """A node limit: a whole number of positions, at least 1."""
    return _count(text, "the node limit", " of positions")


def parse_jobs(text: str) -> int:
    """A number of worker processes, at least 1."""
    return _count(text, "the number of worker processes")


def usable_cpus() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):  # Linux: the CPUs it is allowed, not all there are
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def parse_deals(text: str) -> range:
    """``1-10000`` (both ends included) or a single deal ``42``."""
    form = re.fullmatch(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?", text)
    if form is None:
        raise argparse.ArgumentTypeError(f"{DEALS_FORM}, not {text!r}")
    first, last = form.groups()
    lo = parse_deal(first)
    hi = parse_deal(last) if last is not None else lo
    if hi < lo:
        raise argparse.ArgumentTypeError(f"{text!r}: the range ends before it starts")
    if hi - lo + 1 > MAX_STUDY_DEALS:
        raise argparse.ArgumentTypeError(
            f"{text!r} is {hi - lo + 1:,} deals: a study takes at most {MAX_STUDY_DEALS:,} "
            "(split a larger one into ranges)"
        )
    return range(lo, hi + 1)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (0, 1 when n is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _explain_expected_values(parser: argparse.ArgumentParser, forms: dict[str, str]) -> None:
    """Say what an option expects when argparse says only "expected one argument".

    That is all it says when the value is missing, and when the value starts with ``-``
    but is not a plain negative number (``--budget -1s``), as it reads such a value as an
    option.
    """
    plain_error = parser.error

    def error(message: str) -> NoReturn:
        for option, form in forms.items():
            if message == f"argument {option}: expected one argument":
                message = f"{message}: {form}"
        plain_error(message)

    parser.error = error  # type: ignore[method-assign]


def _add_variant(parser: Any, what: str) -> None:
    """The ``--variant CODE`` option: which game of the family ``what`` are of."""
    names = ", ".join(f"{v.code} {v.name}" for v in VARIANTS.values())
    parser.add_argument(
        "--variant",
        choices=tuple(VARIANTS),
        default=VIRGINIA_REEL.code,
        metavar="CODE",
        help=f"the game {what} are of: {names} (default: {VIRGINIA_REEL.code})",
    )


def _code(args: argparse.Namespace) -> str:
    """The code of the game the command's deals are of (Virginia Reel when not given)."""
    code: str = getattr(args, "variant", VIRGINIA_REEL.code)
    return code


def _named(args: argparse.Namespace, deal: str) -> str:
    """``Deal 7``, or ``Royal Parade deal 7`` for a game other than Virginia Reel."""
    variant = variant_by_code(_code(args))
    return f"Deal {deal}" if variant is VIRGINIA_REEL else f"{variant.name} deal {deal}"


def add_solve_commands(sub: Any) -> None:
    """Add ``solve`` and ``study`` to an argparse subparsers object."""
    _add_solve(sub)
    _add_study(sub)


def _add_solve(sub: Any) -> None:
    """The ``solve`` command and its options."""
    solve_p = sub.add_parser(
        "solve",
        help="solve one deal: verdict and winning line",
        description="Search one deal for a win and print the verdict: won (with the winning "
        "line in the engine's notation), unwinnable (proven), or unknown (the time budget or "
        "the node limit ran out first).",
    )
    solve_p.add_argument(
        "--deal",
        type=parse_deal,
        required=True,
        metavar="N",
        help=f"the deal to solve, a number from {MIN_DEAL} to {MAX_DEAL} (required)",
    )
    solve_p.add_argument(
        "--budget",
        type=parse_budget,
        default=DEFAULT_BUDGET,
        metavar="TIME",
        help=f"stop after this much time, such as 10s, 500ms or 2m (default: {DEFAULT_BUDGET:g}s)",
    )
    solve_p.add_argument(
        "--max-nodes",
        type=parse_max_nodes,
        default=DEFAULT_MAX_NODES,
        metavar="N",
        help=(
            f"stop after searching this many positions (default: {DEFAULT_MAX_NODES:,}); "
            "each conflict of the SAT prover counts as one"
        ),
    )
    _add_variant(solve_p, "the deal numbers")
    _explain_expected_values(solve_p, {"--budget": BUDGET_FORM})


def _add_study(sub: Any) -> None:
    """The ``study`` command and its options."""
    study = sub.add_parser(
        "study",
        help=f"winnability study over a range of deals (writes ./{DEFAULT_CSV})",
        description="Solve every deal of a range, print the won, unwinnable and unknown counts "
        "and a 95% Wilson interval for the fraction of deals that can be won, and write one "
        f"CSV row per deal to --csv (default: ./{DEFAULT_CSV}).",
    )
    study.add_argument(
        "--deals",
        type=parse_deals,
        required=True,
        metavar="A-B",
        help="the deals to solve: a range such as 1-10000 (both ends included) or one deal "
        "such as 42 (required)",
    )
    study.add_argument(
        "--budget",
        type=parse_budget,
        default=DEFAULT_BUDGET,
        metavar="TIME",
        help=f"time for each deal, such as 10s, 500ms or 2m (default: {DEFAULT_BUDGET:g}s)",
    )
    study.add_argument(
        "--max-nodes",
        type=parse_max_nodes,
        default=None,
        metavar="N",
        help=(
            f"positions searched at most for each deal (default: {DEFAULT_MAX_NODES:,}); "
            "each conflict of the SAT prover counts as one. With --blind: for each stock "
            f"order tried at each decision (default: {blind.DEFAULT_NODES:,})"
        ),
    )
    study.add_argument(
        "--jobs",
        type=parse_jobs,
        default=1,
        metavar="N",
        help="worker processes solving deals side by side (default: 1); never more than the "
        f"deals, nor than the CPUs ({usable_cpus()} here), since the budget is a time and "
        "workers sharing a CPU would each search less within it",
    )
    _add_variant(study, "the deal numbers")
    _add_blind(study)
    _add_study_output(study)
    _explain_expected_values(study, {"--budget": BUDGET_FORM, "--deals": DEALS_FORM})


def _add_blind(study: Any) -> None:
    """The study's options for blind play: --blind, --samples."""
    study.add_argument(
        "--blind",
        action="store_true",
        help="play each deal blind instead: the blind player, who never sees the stock's "
        "order, from the deal to a win or a dead end; reports the share won (--budget and "
        "--clock do not apply: its budget is --samples and --max-nodes)",
    )
    study.add_argument(
        "--samples",
        type=parse_samples,
        default=blind.DEFAULT_SAMPLES,
        metavar="N",
        help="with --blind: stock orders tried at each decision "
        f"(default: {blind.DEFAULT_SAMPLES}); 0: no search, the rule of thumb alone (the "
        "solver's safe moves, then the hints' ranking of moves)",
    )


def _add_study_output(study: Any) -> None:
    """The study's options for its output and for resuming it: --csv, --clock, --resume,
    --quiet."""
    study.add_argument(
        "--csv",
        type=Path,
        default=Path(DEFAULT_CSV),
        metavar="PATH",
        help="the CSV file to write, one row per deal: deal, verdict, moves, nodes, seconds, "
        "line (a won deal's winning line: its moves in the engine's notation, \", \" between) "
        f"(default: ./{DEFAULT_CSV}); checked before the study starts, replaced at its end; "
        "meanwhile the rows go to PATH.part, which keeps them if the study is stopped "
        "(see --resume)",
    )
    study.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="wall",
        help="time each deal's budget in wall-clock seconds (default: wall) or in CPU "
        "seconds of the worker solving it (cpu), so that other work on the machine takes "
        "nothing from it; the CSV's seconds are on the same clock",
    )
    study.add_argument(
        "--resume",
        action="store_true",
        help="go on with a study that was stopped: keep the deals it solved (in PATH.part, "
        "from the same command) and solve only the others",
    )
    study.add_argument(
        "--quiet", action="store_true", help="no progress bar, and no notes on stderr"
    )


def run_solve_command(args: argparse.Namespace) -> int:
    """Run ``reel solve`` or ``reel study``; the exit status (141 if stdout's reader left)."""
    try:
        status = main_solve(args) if args.command == "solve" else main_study(args)
        sys.stdout.flush()
    except KeyboardInterrupt:
        # Ctrl-C: one line (a study has said where its rows are kept), no traceback.
        if args.command == "solve":
            print("\nreel solve: stopped", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader of stdout went away (``| head``): stop quietly, as Unix tools do.
        # Point stdout at /dev/null, so that Python's flush at exit has nowhere to fail.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_BROKEN_PIPE
    return status


# ------------------------------------------------------------------ solve


def format_line(solution: Solution, per_line: int = 10) -> list[str]:
    """The winning line, numbered, ``per_line`` moves a line."""
    moves = [f"{k + 1}. {m}" for k, m in enumerate(solution.line)]
    return ["  ".join(moves[i : i + per_line]) for i in range(0, len(moves), per_line)]


def main_solve(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    variant = variant_by_code(_code(args))
    game = Game.new(args.deal, variant)
    solution = solve(game, max_nodes=args.max_nodes, max_seconds=args.budget)
    deal = _named(args, str(args.deal))
    plural = "" if solution.nodes == 1 else "s"
    effort = f"{solution.nodes:,} position{plural} searched, {solution.seconds:.2f} s"
    if solution.verdict is Verdict.WON:
        print(f"{deal}: won in {len(solution.line)} moves ({effort})", file=out)
        for text in format_line(solution):
            print(text, file=out)
    elif solution.verdict is Verdict.UNWINNABLE and solution.nodes == 1 and models(variant):
        # The solver's dead-card check at the root, before any search (closure.py).
        print(
            f"{deal}: unwinnable: proven at the start, before any search: "
            "some card can never reach the foundations (1 position checked, "
            f"{solution.seconds:.2f} s)",
            file=out,
        )
    elif solution.verdict is Verdict.UNWINNABLE:
        print(f"{deal}: unwinnable: no line of play wins ({effort})", file=out)
    elif solution.stopped_by == "nodes":
        print(
            f"{deal}: unknown: no answer within the node limit of "
            f"{args.max_nodes:,} positions ({effort}); try a larger --max-nodes",
            file=out,
        )
    else:
        print(
            f"{deal}: unknown: no answer within the time budget of {args.budget:g} s "
            f"({effort}); try a larger --budget",
            file=out,
        )
    return 0


# ------------------------------------------------------------------ study


@dataclass(frozen=True, slots=True)
class Row:
    deal: int
    verdict: Verdict
    moves: int
    nodes: int
    seconds: float
    line: str = ""  # a won deal's winning line: its moves in the engine's notation, ", " between


# A deal for a worker: its number, the budget in seconds, the node limit, the clock,
# the variant's code.
Job = tuple[int, float, int, str, str]


def solve_one(job: Job) -> Row:
    deal, budget, max_nodes, clock, code = job
    game = Game.new(deal, variant_by_code(code))
    s = solve(game, max_nodes=max_nodes, max_seconds=budget, clock=CLOCKS[clock])
    line = ", ".join(str(move) for move in s.line)
    return Row(deal, s.verdict, len(s.line), s.nodes, round(s.seconds, 4), line)


def _rows(
    deals: Sequence[int],
    budget: float,
    max_nodes: int,
    jobs: int,
    clock: str = "wall",
    variant: str = VIRGINIA_REEL.code,
) -> Iterator[Row]:
    work = ((d, budget, max_nodes, clock, variant) for d in deals)
    if jobs <= 1:
        yield from map(solve_one, work)
        return
    with blind_study.quiet_pool(jobs) as pool:  # Ctrl-C stops the workers quietly
        yield from pool.imap_unordered(solve_one, work, chunksize=1)


def _progress(
    done: int, total: int, counts: dict[Verdict, int], started: float, before: int = 0
) -> str:
    """The progress bar: ``done`` of ``total`` deals solved since ``started``, after
    ``before`` deals kept from a stopped study (counted in the bar, not in the time left)."""
    width = 30
    filled = width * (before + done) // max(before + total, 1)
    elapsed = time.monotonic() - started
    eta = elapsed / done * (total - done) if done else 0.0
    return (
        f"\r[{'#' * filled}{'.' * (width - filled)}] {before + done}/{before + total}  "
        f"won {counts[Verdict.WON]}  unwinnable {counts[Verdict.UNWINNABLE]}  "
        f"unknown {counts[Verdict.UNKNOWN]}  eta {eta:,.0f} s "
    )


CSV_HEADER: Final = ["deal", "verdict", "moves", "nodes", "seconds", "line"]


def _csv_row(r: Row) -> list[object]:
    return [r.deal, r.verdict.value, r.moves, r.nodes, r.seconds, r.line]


def _settings_line(args: argparse.Namespace) -> str:
    """The first line of a study's part file: the settings its rows were solved with."""
    deals: range = args.deals
    code = _code(args)
    variant = "" if code == VIRGINIA_REEL.code else f" --variant {code}"
    return (
        f"# reel study --deals {deals[0]}-{deals[-1]} --budget {args.budget:g}s "
        f"--max-nodes {args.max_nodes} --clock {args.clock}{variant}"
    )


def _read_part(path: Path, settings: str, deals: range) -> tuple[dict[int, Row], bool] | str:
    """The rows kept in the part file of a stopped study, by deal, and whether its last
    line was torn (no line end); or why they can't be used.

    A row torn by the stop (or otherwise unreadable) is left out: its deal is solved again.
    """
    try:
        text = path.read_text(encoding="utf-8")
        lines = list(csv.reader(io.StringIO(text, newline="")))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        return f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}"
    if len(lines) < 2 or lines[1] != CSV_HEADER or not lines[0][0].startswith("# reel study "):
        return f"{path} is not the part file of a study; delete it to start the study"
    if lines[0] != [settings]:
        return (
            f"{path} holds a study with other settings ({lines[0][0][2:]}): resume it with "
            f"those, or delete {path} to start this one"
        )
    torn = not text.endswith("\n")
    rows: dict[int, Row] = {}
    for fields in lines[2 : len(lines) - 1 if torn else None]:  # a torn row is solved again
        if len(fields) != len(CSV_HEADER):
            continue
        try:
            deal, verdict = int(fields[0]), Verdict(fields[1])
            row = Row(deal, verdict, int(fields[2]), int(fields[3]), float(fields[4]), fields[5])
        except ValueError:
            continue
        if deal in deals:
            rows[deal] = row
    return rows, torn


def _solve_all(
    args: argparse.Namespace,
    jobs: int,
    partial: TextIO | None = None,
    done: dict[int, Row] | None = None,
) -> tuple[list[Row], dict[Verdict, int]]:
    """Solve the study's deals, with the progress bar on stderr: the rows and the counts.

    ``done``: the rows of deals solved already (by a study stopped before), kept as
    they are. Each row solved is also written to ``partial`` as it comes (in the
    order solved), so that a study stopped halfway keeps what it had done.
    """
    deals: range = args.deals
    rows = list((done or {}).values())
    counts = dict.fromkeys(Verdict, 0)
    for row in rows:
        counts[row.verdict] += 1
    todo = [d for d in deals if done is None or d not in done]
    started = time.monotonic()
    work = _rows(todo, args.budget, args.max_nodes, jobs, args.clock, _code(args))
    for solved, row in enumerate(work, 1):
        rows.append(row)
        counts[row.verdict] += 1
        if partial is not None:
            csv.writer(partial).writerow(_csv_row(row))
            partial.flush()
        if not args.quiet:
            line = _progress(solved, len(todo), counts, started, len(deals) - len(todo))
            print(line, end="", file=sys.stderr)
    if not args.quiet:
        print(file=sys.stderr)
    return rows, counts


def main_study(args: argparse.Namespace, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    jobs = _workers(args)
    if jobs is None:
        return 2
    if getattr(args, "blind", False):
        return _blind_study(args, jobs, out)
    if args.max_nodes is None:
        args.max_nodes = DEFAULT_MAX_NODES
    path: Path = args.csv
    # Open the CSV file before the study, so that a path it cannot write fails at once, not
    # after hours of solving. In append mode, which truncates nothing: a study stopped
    # early (Ctrl-C) leaves the file as it was, and removes it if the study created it.
    existed = path.exists()
    try:
        f = path.open("a", newline="", encoding="utf-8")
    except OSError as exc:
        print(f"reel study: cannot write --csv {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    with f:
        # The rows as they come go to PATH.part beside it (a plain file only, not a pipe),
        # which the finished study removes: a study stopped halfway keeps its rows there,
        # after a line with its settings, and --resume goes on from them.
        partial_path = path.with_name(path.name + ".part") if f.seekable() else None
        settings = _settings_line(args)
        kept = _kept_rows(args, partial_path, settings)
        if isinstance(kept, str):
            if not existed:
                f.close()
                path.unlink(missing_ok=True)
            print(f"reel study: {kept}", file=sys.stderr)
            return 2
        done, torn = kept
        partial, partial_path = _open_part(partial_path, settings, done, torn)
        try:
            rows, counts = _solve_all(args, jobs, partial, done)
        except BaseException:
            if not existed:
                f.close()
                path.unlink(missing_ok=True)
            if partial is not None and partial_path is not None:
                partial.close()
                print(
                    f"\nreel study: stopped; the deals solved so far are in {partial_path} "
                    "(the same command with --resume goes on from them)",
                    file=sys.stderr,
                )
            else:
                print("\nreel study: stopped", file=sys.stderr)
            raise
        if partial is not None and partial_path is not None:
            partial.close()
            partial_path.unlink(missing_ok=True)
        _write_rows(f, rows)
    _print_summary(args, rows, counts, out)
    return 0


def _blind_study(args: argparse.Namespace, jobs: int, out: TextIO) -> int:
    """``reel study --blind``: every deal played blind (blind_study.py)."""
    deals: range = args.deals
    nodes = blind.DEFAULT_NODES if args.max_nodes is None else args.max_nodes
    try:
        games = blind_study.run_blind_study(
            deals, _code(args), csv_path=args.csv, workers=jobs, samples=args.samples,
            max_nodes=nodes, quiet=args.quiet,
        )  # fmt: skip
    except OSError as exc:
        print(f"reel study: cannot write --csv {args.csv}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    which = _named(args, f"{deals[0]}" if len(deals) == 1 else f"{deals[0]}-{deals[-1]}")
    print(
        f"{which.replace('Deal ', 'Deals ')}: {len(games)} played blind, {args.samples} stock "
        f"orders a decision, {nodes:,} positions each",
        file=out,
    )
    won = sum(g.won for g in games)
    blind_study.write_summary(blind_study.summary_lines(games, wilson(won, len(games))), out)
    print(f"CSV: {args.csv}", file=out)
    return 0


def _workers(args: argparse.Namespace) -> int | None:
    """The worker processes the study runs (None, with a message, if --jobs is wrong)."""
    if args.jobs < 1:
        print("reel study: --jobs must be at least 1", file=sys.stderr)
        return None
    deals: range = args.deals
    # No more workers than deals (the others would only start and stop), nor than CPUs: the
    # budget is a time, so workers sharing a CPU would each search less within it.
    jobs: int = min(args.jobs, len(deals))
    cpus = usable_cpus()
    if jobs > cpus:
        if not args.quiet:
            print(
                f"reel study: --jobs {args.jobs} lowered to {cpus}, one per CPU: more workers "
                "would share the CPUs and search less within each deal's time budget",
                file=sys.stderr,
            )
        jobs = cpus
    return jobs


def _kept_rows(
    args: argparse.Namespace, partial_path: Path | None, settings: str
) -> tuple[dict[int, Row] | None, bool] | str:
    """The rows a stopped study kept in ``partial_path`` (None if it starts afresh) and
    whether the part file's last row was torn (no line end); or why the study can't start."""
    if partial_path is not None and partial_path.exists():
        kept = (
            _read_part(partial_path, settings, args.deals)
            if args.resume
            else (
                f"{partial_path} holds the deals of a stopped study: add --resume to go "
                f"on from them, or delete {partial_path} to start again"
            )
        )
        if isinstance(kept, str):
            return kept
        done, torn = kept
        if not args.quiet:
            print(
                f"reel study: resuming with the {len(done):,} deals solved in {partial_path}",
                file=sys.stderr,
            )
        return done, torn
    if args.resume and not args.quiet:
        print("reel study: no stopped study to resume here: starting it", file=sys.stderr)
    return None, False


def _open_part(
    partial_path: Path | None, settings: str, done: dict[int, Row] | None, torn: bool
) -> tuple[TextIO | None, Path | None]:
    """The part file, opened for the rows to come (a new one, or the stopped study's to
    go on with), and its path; (None, None) if there is none or it cannot be written."""
    if partial_path is None:
        return None, None
    try:
        if done is None:
            partial = partial_path.open("w", newline="", encoding="utf-8")
            partial.write(settings + "\r\n")  # csv's line end
            csv.writer(partial).writerow(CSV_HEADER)
        else:
            partial = partial_path.open("a", newline="", encoding="utf-8")
            if torn:  # the next row starts a line of its own
                partial.write("\r\n")
    except OSError:
        return None, None
    return partial, partial_path


def _write_rows(f: TextIO, rows: list[Row]) -> None:
    """The study's CSV, in the order of the deals, replacing what ``f`` held."""
    rows.sort(key=lambda r: r.deal)
    if f.seekable():  # not a pipe or a terminal (--csv /dev/stdout)
        f.seek(0)
        f.truncate()
    writer = csv.writer(f)
    writer.writerow(CSV_HEADER)
    for r in rows:
        writer.writerow(_csv_row(r))


def _print_summary(
    args: argparse.Namespace, rows: list[Row], counts: dict[Verdict, int], out: TextIO
) -> None:
    """The counts, the winnable share and its Wilson interval, and where the CSV is."""
    deals: range = args.deals
    n = len(rows)
    won, lost, unknown = counts[Verdict.WON], counts[Verdict.UNWINNABLE], counts[Verdict.UNKNOWN]
    low, _ = wilson(won, n)
    _, high = wilson(won + unknown, n)
    # "searched", not "solved": the unknown deals are counted too.
    which = _named(args, f"{deals[0]}" if n == 1 else f"{deals[0]}-{deals[-1]}")
    if n != 1:
        which = which.replace("Deal ", "Deals ").replace(" deal ", " deals ")
    print(
        f"{which}: {n} deal{'' if n == 1 else 's'} searched, each for at most "
        f"{args.budget:g} s{' of CPU' if args.clock == 'cpu' else ''} and "
        f"{args.max_nodes:,} positions",
        file=out,
    )
    print(f"won {won}, unwinnable {lost}, unknown {unknown}", file=out)
    print(
        f"winnable: {won / n:.1%} proven, at most {(won + unknown) / n:.1%}; "
        f"95% Wilson interval {low:.1%} to {high:.1%} (unknown deals counted both ways)",
        file=out,
    )
    print(f"CSV: {args.csv}", file=out)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="reel", description="Virginia Reel solver")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    add_solve_commands(sub)
    return run_solve_command(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
