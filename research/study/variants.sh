#!/bin/sh
# The winnability study of every game of the family (docs/winnability.md, "Every game
# of the family"): deals 1-2000 of each, a fixed budget of 0.25 CPU seconds a deal,
# two worker processes. Run from the repository's root:
#     nohup sh research/study/variants.sh > research/study/variants.log 2>&1 &
# Each game's summary goes to the log; its rows to research/study/study-CODE-0.25s.csv.
set -e
PY=${PY:-.venv/bin/python}
echo "# commit $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'), native C loops: $($PY -c 'from engine.solver import NATIVE; print(NATIVE)')"
for code in rp bj bp tu vr; do
    echo
    echo "## $code, started $(date -u '+%H:%M:%S UTC')"
    $PY -m engine.solver.cli study --variant "$code" --deals 1-2000 --budget 0.25s \
        --clock cpu --jobs 2 --quiet --csv "research/study/study-$code-0.25s.csv"
    echo "## $code, ended $(date -u '+%H:%M:%S UTC')"
done
