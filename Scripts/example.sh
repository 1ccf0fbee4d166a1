#!/usr/bin/env bash
# Builds wb, generates an example home (two stories, each room also as a separate scan)
# into examples/home, and opens it in wb. Extra arguments go to wb, e.g.
#   Scripts/example.sh -c summary
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
swift build --product wb >/dev/null
swift build --product wbgen >/dev/null
.build/debug/wbgen --rooms 8 --stories 2 --seed 2026 --core-model-kb 60 --out examples/home >&2
exec .build/debug/wb examples/home/structure.json "$@"
