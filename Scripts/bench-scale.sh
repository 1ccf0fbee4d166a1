#!/usr/bin/env bash
# How wb's costs grow with the size of the work (release build), each beside a peer run in
# the same run: open+save of 10 to 5,000-room structures against Python's json, one move by
# building size, a script moving each of 1,000 rooms, a 100,000-line script with -f against
# stdin, and 1,000 to 3,000 files all named room.json against as many named apart.
# Ends with one table: measure, wb, peer, ratio, target, pass/fail.
#   Scripts/bench-scale.sh
# WB_SCALE_LIMIT (seconds, default 60) caps one run: a size whose run exceeds it is skipped
# with a note. WB_SCALE_BUDGET (seconds, default 280) caps all the measuring, so the whole
# script ends within about six minutes even when wb is slow.
source "$(dirname "$0")/bench-common.sh" wb wbgen
for rooms in 10 100 1000 5000; do
  # --core-model-kb 2 keeps the files moderate: about 19 KB a room, 94 MB at 5,000 rooms.
  .build/release/wbgen --rooms "$rooms" --stories 3 --core-model-kb 2 --seed 1 --out "$work/b$rooms" >/dev/null
done
# The small rooms: one small building, one of its room files copied as often as needed.
.build/release/wbgen --rooms 2 --seed 3 --out "$work/home" >/dev/null
python3 Scripts/bench_scale.py .build/release/wb "$work" "$work/home/rooms/$(ls "$work/home/rooms" | head -n 1)"
