#!/usr/bin/env bash
# The README's example of a batch split into shards under GNU parallel, run for real: one
# list of paths, four `wb --each --shard I/4` tasks at once, each file fixed exactly once.
#   Scripts/parallel-example.sh [WB] [WBGEN]     (default: the debug build)
# Installs GNU parallel with apt-get when it is missing; exits 77 (skipped) when it cannot.
set -euo pipefail
cd "$(dirname "$0")/.."
wb=$(realpath "${1:-.build/debug/wb}")
wbgen=$(realpath "${2:-.build/debug/wbgen}")
if ! command -v parallel >/dev/null 2>&1; then
  sudo=""
  if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; fi
  if ! { $sudo apt-get install -y -qq parallel >/dev/null 2>&1 \
         || { $sudo apt-get update -qq >/dev/null 2>&1 && $sudo apt-get install -y -qq parallel >/dev/null 2>&1; }; }; then
    echo "skipped: GNU parallel is not installed and apt-get could not install it" >&2
    exit 77
  fi
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$wbgen" --rooms 12 --seed 9 --out "$work/home" >/dev/null
find "$work/home/rooms" -name '*.json' | sort > "$work/list.txt"
cat > "$work/fix.wb" <<'WB'
label r1 bedroom
story r1 1
save
WB
# The example itself (README, "Past one machine"):
parallel --will-cite "$wb" -q --json --each -f "$work/fix.wb" --shard {}/4 --files-from "$work/list.txt" ::: 1 2 3 4 \
  > "$work/results.jsonl"
python3 - "$work/results.jsonl" "$work/list.txt" <<'PY'
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1])]
paths = [line.strip() for line in open(sys.argv[2]) if line.strip()]
files = [line for line in lines if "path" in line]
summaries = [line for line in lines if line.get("summary")]
assert len(summaries) == 4, f"one summary per shard, found {len(summaries)}"
assert sorted(line["path"] for line in files) == sorted(paths), "every path exactly once across the shards"
assert all(line["status"] == "changed" for line in files), [line for line in files if line["status"] != "changed"]
for path in paths:
    room = json.load(open(path))
    assert room["story"] == 1 and all(s["label"] == "bedroom" for s in room["sections"][:1]), path
print(f"{len(files)} files in 4 shards under GNU parallel: each fixed once "
      f"({', '.join(str(s['files']) for s in summaries)} per shard)")
PY
