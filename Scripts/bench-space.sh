#!/usr/bin/env bash
# Opening a Hyperbasis store whose world map is 50 MB raw (raw DEFLATE on disk) and
# inspecting the map, with wb (release build) beside Python's zlib + plistlib doing the
# same in the same run; and wb's peak memory against the raw map size (target < 3x).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product wb >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 Scripts/bench_space.py .build/release/wb "$work"
