#!/usr/bin/env bash
# Batch throughput and start-up time of wb (release build), each beside a peer run in
# the same run: a 100,000-line script of cheap commands (commands per second), a
# 100,000-line script of moves with -f against the same piped on stdin (ratio; target
# about 1), and `wb -c quit` against `python3 -c pass` (ratio of medians; target at most 1.0).
source "$(dirname "$0")/bench-common.sh" wb wbgen
.build/release/wbgen --rooms 2 --seed 3 --out "$work/home" >/dev/null
python3 Scripts/bench_shell.py .build/release/wb "$work/home/rooms/$(ls "$work/home/rooms" | head -n 1)" "$work"
