#!/usr/bin/env bash
# Speed of putting rooms together (release build): merge of 10, 100 and 1,000 generated rooms
# on three stories against opening them and against n log n growth, align --all auto of 10 and
# 30 rooms scanned apart, and align ROOM auto of a room's own scan beside the 30 rooms of its
# building's structure.
#   Scripts/bench-merge.sh
source "$(dirname "$0")/bench-common.sh" wb wbgen
for rooms in 10 100 1000; do
  .build/release/wbgen --rooms "$rooms" --stories 3 --core-model-kb 1 --seed 1 --out "$work/m$rooms" >/dev/null
done
for rooms in 10 30; do
  .build/release/wbgen --rooms "$rooms" --seed 1 --out "$work/a$rooms" >/dev/null
done
python3 Scripts/bench_merge.py .build/release/wb "$work"
