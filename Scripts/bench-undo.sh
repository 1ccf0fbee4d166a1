#!/usr/bin/env bash
# Memory of the undo history: opens a generated 100-room structure, runs 10,000 edits
# (moves, turns, labels, sets, each its own undo step) and compares peak RSS with the RSS
# of just opening it (release build). Target: the history adds less than the document.
source "$(dirname "$0")/bench-common.sh" wb wbgen
.build/release/wbgen --rooms 100 --stories 3 --core-model-kb 160 --seed 4 --out "$work/b" >/dev/null
python3 Scripts/bench_undo.py .build/release/wb "$work/b/structure.json" "$work"
