#!/bin/sh
# The family's study at 10 s of CPU a deal (docs/winnability.md, "Every game of the
# family"; issue 48): deals 1-N of Royal Parade, Three Up, Blue Jacket and Big Parade,
# two worker processes, with the project installed as `pip install .` builds it (the
# solver compiled by mypyc, its C loops on). Run from a directory outside the source
# tree, so that the installed package is the one imported:
#     cd /tmp && PY=/path/to/venv/bin/python OUT=/path/to/research/study \
#         nohup sh /path/to/research/study/family.sh bj bp tu rp > family.log 2>&1 &
# A finished CSV already there is extended: its rows become the part file of a study of
# DEALS (same budget, clock and node limit) and --resume searches only the deals it
# lacks, so DEALS=1-2000 extends a study of 1-1000; an interrupted run goes on the same way.
# Each game's summary goes to the log; its rows (with each won deal's winning line)
# to $OUT/study-CODE-10s.csv.
set -e
PY=${PY:-python}
OUT=${OUT:-.}
DEALS=${DEALS:-1-500}
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), native C loops: $($PY -c 'from engine.solver import NATIVE; print(NATIVE)'), search compiled: $($PY -c 'import engine.solver.search as s; print(s.__file__.endswith(".so"))')"
for code in "$@"; do
    echo
    echo "## $code, started $(date -u '+%H:%M:%S UTC')"
    csv="$OUT/study-$code-10s.csv"
    if [ -s "$csv" ] && [ ! -e "$csv.part" ]; then
        { echo "# reel study --deals $DEALS --budget 10s --max-nodes 50000000 --clock cpu --variant $code"
          cat "$csv"; } > "$csv.part"
    fi
    $PY -m engine.solver.cli study --variant "$code" --deals "$DEALS" --budget 10s \
        --clock cpu --jobs 2 --quiet --resume --csv "$csv"
    echo "## $code, ended $(date -u '+%H:%M:%S UTC')"
done
