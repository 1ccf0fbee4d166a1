#!/usr/bin/env bash
# Memory of the undo history: opens a generated 100-room structure, runs 10,000 edits
# (moves, turns, labels, sets, each its own undo step) and compares peak RSS with the RSS
# of just opening it (release build). Target: the history adds less than the document.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product wb >/dev/null
swift build -c release --product wbgen >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.build/release/wbgen --rooms 100 --stories 3 --core-model-kb 160 --seed 4 --out "$work/b" >/dev/null
python3 Scripts/bench_undo.py .build/release/wb "$work/b/structure.json" "$work"
