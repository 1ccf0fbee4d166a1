#!/usr/bin/env bash
# Opens and saves a large generated structure with wb (release build) and, on the same
# file in the same run, with Python's json module; prints both times and their ratio.
#   Scripts/bench-codec.sh [ROOMS] [CORE_MODEL_KB]
rooms=${1:-150}
core_kb=${2:-160}
source "$(dirname "$0")/bench-common.sh" wb wbgen
.build/release/wbgen --rooms "$rooms" --stories 3 --core-model-kb "$core_kb" --seed 1 --out "$work/building" >/dev/null
python3 Scripts/bench_codec.py .build/release/wb "$work/building/structure.json" "$work"
