#!/usr/bin/env bash
# Opening a Hyperbasis store whose world map is 50 MB raw (raw DEFLATE on disk) and
# inspecting the map, with wb (release build) beside Python's zlib + plistlib doing the
# same in the same run; and wb's peak memory against the raw map size (target < 3x).
source "$(dirname "$0")/bench-common.sh" wb
python3 Scripts/bench_space.py .build/release/wb "$work"
