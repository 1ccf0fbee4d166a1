#!/usr/bin/env bash
# Automatic alignment on a real home: FOLDER holds the rooms of one scan session in that
# session's frame (or one structure that nests them); each run moves all rooms but one into
# frames of their own and lets align --all auto put them back (see bench_real_align.py).
# With SESSIONS, the home is cut into that many sessions of neighbouring rooms instead, each
# session's rooms moved together (ORIGIN: middle, or first to start each where the first began;
# stay, with SESSIONS 0: some rooms stay in the first room's frame, the rest each in their own).
# FOLDER may also be a folder wbgen wrote.
#   Scripts/bench-real-align.sh FOLDER [RUNS [SESSIONS [ORIGIN]]]
[ $# -ge 1 ] || { sed -n '2,9p' "$0"; exit 2; }
folder=$(cd "$1" && pwd) || exit 2
runs=${2:-10}
source "$(dirname "$0")/bench-common.sh" wb
python3 Scripts/bench_real_align.py .build/release/wb "$folder" "$runs" ${3:-} ${4:-}
