#!/usr/bin/env bash
# Accuracy of `align --all auto` (release build) over seeded buildings of 3 to 10 rooms,
# each room captured in its own frame: at the phone's noise, exact, with two rescans,
# written as iOS 16 writes rooms (no floors, sections or stories), and with doorways as real
# exports show them (wbgen --real-doorways: standard widths, sides up to 8 cm apart in width
# and 30 cm along their wall, some seen from one side only).
# Prints one table: the share of rooms placed right (5 cm, 1 degree), across a wall's
# thickness, wrongly without a word, and left unplaced as uncertain.
#   Scripts/bench-align.sh [SEEDS]       (default 200)
# WB_ALIGN_VERBOSE=1 lists every room not placed right; WB_ALIGN_ROOMS=N makes every
# building N rooms (how accuracy holds up with size).
source "$(dirname "$0")/bench-common.sh" wb wbgen
python3 Scripts/bench_align.py .build/release/wb .build/release/wbgen "$work" "${1:-200}"
