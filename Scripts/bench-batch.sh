#!/usr/bin/env bash
# Batch fix-ups with `wb --each` (release build): 1,000 generated room files relabelled,
# moved to story 2 and saved, with --jobs 2 against a sequential Python json script doing
# the same (target: at most 0.2 of its time) and the same Python under multiprocessing with
# 2 workers (target: less time); and wb's peak RSS over 10,000 small files against over
# 100 (target: at most 1.5 times).
#   Scripts/bench-batch.sh           (the memory run over 10,000 files; about a minute)
#   Scripts/bench-batch.sh --big     (the memory run over 100,000 files; a few minutes, ~1.5 GB of disk)
many=10000
if [ "${1:-}" = "--big" ]; then many=100000; fi
source "$(dirname "$0")/bench-common.sh" wb wbgen
# 50 different rooms; the 1,000 files are copies of them in turn.
.build/release/wbgen --rooms 50 --stories 2 --core-model-kb 2 --seed 17 --out "$work/home" >/dev/null
python3 Scripts/bench_batch.py .build/release/wb "$work/home/rooms" "$work" "$many"
