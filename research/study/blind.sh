#!/bin/sh
# The blind study of docs/winnability.md ("Played blind"): every deal played by the
# blind player (engine/solver/blind.py), which never sees the stock's order, with the
# project installed as `pip install .` builds it (the solver compiled, its C loops on).
# Budgets are node counts, no time: the same games on any machine.
set -e
reel study --blind --deals 1-1000 --jobs 2 --csv research/study/blind-vr.csv
reel study --blind --samples 0 --deals 1-1000 --jobs 2 --csv research/study/casual-vr.csv
for code in rp tu bj bp; do
    reel study --blind --variant "$code" --deals 1-100 --jobs 2 --csv "research/study/blind-$code.csv"
done
