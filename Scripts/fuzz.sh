#!/usr/bin/env bash
# Builds (cached) and runs wb's libFuzzer harnesses (Fuzz/*.swift).
#
#   Scripts/fuzz.sh HARNESS SECONDS       run one harness for SECONDS
#   Scripts/fuzz.sh all SECONDS           run every harness in turn, SECONDS each
#   Scripts/fuzz.sh build [HARNESS]       only build
#   Scripts/fuzz.sh minimize HARNESS FILE [SECONDS]
#                                         shrink a crashing input (to FILE.min)
#   Scripts/fuzz.sh repro HARNESS FILE    run one input, with the stack if it crashes
#   Scripts/fuzz.sh list                  the harnesses
#
# Harnesses: roomplan (RoomPlan JSON read/write law), command (lexer and command
# binding), where (where-expressions), plist (binary plists, ARWorldMap archives),
# deflate (raw DEFLATE), hyperbasis (a Hyperbasis store folder, and JSON round trips).
#
# Everything lives in .build-fuzz/ (git-ignored): obj/ and bin/ the builds, seeds/ the
# starting inputs (from wbgen and ../shared/samples, made once), corpus/ what the fuzzer
# learned (kept between runs), crashes/HARNESS/ the inputs that broke something, logs/.
# Reproduce a crash with Scripts/fuzz.sh repro HARNESS FILE (or by hand with
# SWIFT_BACKTRACE=enable=no .build-fuzz/bin/HARNESS FILE: Swift's own backtracer hangs
# under ASan). Extra libFuzzer flags go in FUZZ_FLAGS, e.g. FUZZ_FLAGS=-max_len=4096;
# WB_FUZZ_SKIP=utf8 switches off a law whose bug is known, to look past it.
# Exits 1 when a run found a crash (or a harness would not build), 2 on bad usage.
set -euo pipefail
# The Swift runtime's own crash backtracer trips ASan; libFuzzer prints the stack.
export SWIFT_BACKTRACE=enable=no
cd "$(dirname "$0")/.."
root=$(pwd)
out=$root/.build-fuzz
samples=${WB_SAMPLES:-$root/../shared/samples}
harnesses=(roomplan command where plist deflate hyperbasis)

usage() {
  sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

swift_flags=(-swift-version 6 -O -g -sanitize=fuzzer,address -parse-as-library)

# Whether $1 is missing or older than any of the other paths (files or folders of them).
stale() {
  local target=$1
  shift
  [ -e "$target" ] || return 0
  [ -n "$(find "$@" -newer "$target" -type f 2>/dev/null | head -n 1)" ]
}

# Runs a build step quietly (the linker's warnings about ASan's local symbols are noise);
# shows the log when it fails.
quietly() {
  local log=$out/logs/build.log
  if ! "$@" >"$log" 2>&1; then
    grep -v "Cannot export local symbol" "$log" | tail -n 40 >&2
    echo "fuzz: build failed: $*" | cut -c1-300 >&2
    return 1
  fi
}

# StructureModel, once, instrumented, as a module with testing enabled so harnesses
# can `@testable import` it and reach internal readers.
build_model() {
  mkdir -p "$out/obj" "$out/logs"
  if stale "$out/obj/StructureModel.o" Sources/StructureModel; then
    echo "fuzz: building StructureModel (instrumented; a few minutes)" >&2
    rm -f "$out/obj/StructureModel.o"
    # shellcheck disable=SC2046
    quietly swiftc "${swift_flags[@]}" -module-name StructureModel -enable-testing -wmo -I Sources/CZlib \
      -c $(find Sources/StructureModel -name '*.swift' | sort) \
      -emit-module -emit-module-path "$out/obj/StructureModel.swiftmodule" -o "$out/obj/StructureModel.o.tmp"
    mv "$out/obj/StructureModel.o.tmp" "$out/obj/StructureModel.o"
  fi
}

# The C line editor and a module map for it, for the command harness.
build_line_editor() {
  mkdir -p "$out/modules/WBLineEditor"
  cat >"$out/modules/WBLineEditor/module.modulemap.tmp" <<EOF
module WBLineEditor {
    header "$root/Sources/WBLineEditor/include/WBLineEditor.h"
    export *
}
EOF
  if ! cmp -s "$out/modules/WBLineEditor/module.modulemap.tmp" "$out/modules/WBLineEditor/module.modulemap"; then
    mv "$out/modules/WBLineEditor/module.modulemap.tmp" "$out/modules/WBLineEditor/module.modulemap"
  else
    rm "$out/modules/WBLineEditor/module.modulemap.tmp"
  fi
  if stale "$out/obj/LineEditor.o" Sources/WBLineEditor; then
    # shellcheck disable=SC2046
    quietly clang -O1 -g -c -I Sources/WBLineEditor/include $(pkg-config --cflags libedit 2>/dev/null) \
      Sources/WBLineEditor/LineEditor.c -o "$out/obj/LineEditor.o"
  fi
}

build_harness() {
  local name=$1 file
  case $name in
    roomplan) file=RoomPlanHarness ;;
    command) file=CommandHarness ;;
    where) file=WhereHarness ;;
    plist) file=BinaryPlistHarness ;;
    deflate) file=DeflateHarness ;;
    hyperbasis) file=HyperbasisHarness ;;
    *) echo "fuzz: no harness '$name' (have: ${harnesses[*]})" >&2; exit 2 ;;
  esac
  build_model
  mkdir -p "$out/bin"
  local binary=$out/bin/$name
  if [ "$name" = command ]; then
    build_line_editor
    if stale "$binary" "$out/obj/StructureModel.o" "$out/obj/LineEditor.o" Sources/Workbench Fuzz/Support.swift \
        "Fuzz/$file.swift" "$0"; then
      echo "fuzz: building $name (the Workbench module with the harness in it)" >&2
      # shellcheck disable=SC2046
      # (From a scratch folder: linking a named module leaves Workbench-1.swiftmodule & co.
      # in the current folder.)
      mkdir -p "$out/scratch"
      (cd "$out/scratch" && quietly swiftc "${swift_flags[@]}" -module-name Workbench -wmo -I "$out/obj" \
        -I "$root/Sources/CZlib" -I "$out/modules/WBLineEditor" \
        $(find "$root/Sources/Workbench" -name '*.swift' | sort) "$root/Fuzz/Support.swift" "$root/Fuzz/$file.swift" \
        "$out/obj/StructureModel.o" "$out/obj/LineEditor.o" -lz -ledit -o "$binary")
    fi
  elif stale "$binary" "$out/obj/StructureModel.o" Fuzz/Support.swift "Fuzz/$file.swift" "$0"; then
    echo "fuzz: building $name" >&2
    quietly swiftc "${swift_flags[@]}" -I "$out/obj" -I Sources/CZlib Fuzz/Support.swift "Fuzz/$file.swift" \
      "$out/obj/StructureModel.o" -lz -o "$binary"
  fi
}

# wbgen itself (Sources/wbgen/main.swift) linked against the instrumented StructureModel.
build_wbgen() {
  build_model
  if stale "$out/bin/wbgen" "$out/obj/StructureModel.o" Sources/wbgen; then
    quietly swiftc -swift-version 6 -O -sanitize=address -I "$out/obj" -I Sources/CZlib Sources/wbgen/main.swift \
      "$out/obj/StructureModel.o" -lz -o "$out/bin/wbgen"
  fi
}

# Starting inputs, made once per harness (delete .build-fuzz/seeds/HARNESS to remake).
make_seeds() {
  local name=$1 dir=$out/seeds/$1
  [ -d "$dir" ] && [ -n "$(ls -A "$dir")" ] && return 0
  mkdir -p "$dir"
  local store=$samples/hyperbasis/store
  case $name in
    roomplan)
      build_wbgen
      local tmp
      tmp=$(mktemp -d)
      for seed in 1 2 3; do
        "$out/bin/wbgen" --rooms 2 --seed "$seed" --core-model-kb 0 --out "$tmp/$seed" >/dev/null
        cp "$tmp/$seed/structure.json" "$dir/generated-structure-$seed.json"
        for room in "$tmp/$seed"/rooms/*.json; do cp "$room" "$dir/generated-$seed-$(basename "$room")"; done
      done
      "$out/bin/wbgen" --rooms 1 --seed 7 --noise 0 --core-model-kb 0 --out "$tmp/exact" >/dev/null
      cp "$tmp/exact/rooms/"*.json "$dir/" 2>/dev/null || true
      rm -rf "$tmp"
      if [ -d "$samples/roomplan" ]; then cp "$samples"/roomplan/*.json "$dir/" && chmod u+w "$dir"/*.json; fi
      printf '{"walls":[],"doors":[],"windows":[],"openings":[],"objects":[]}' >"$dir/empty-room.json"
      printf '{"rooms":[]}' >"$dir/empty-structure.json"
      ;;
    where)
      local i=0
      while IFS= read -r expression; do
        printf '%s' "$expression" | tr ' ' '\n' >"$dir/expression-$i"
        i=$((i + 1))
      done <<'EOF'
category = chair and confidence < high
width > 80cm or ( ChairType = swivel and not open = true )
(label~bed)
name = "Living* or story >= 1 and area <= 12.5
not not not ( room = r1 ) and height != 2m and depth < 3ft
parent = o12 or identifier = A1B2* or kind = wall or level = ?
color = yellow and x > 1 or deleted = false or version >= 2
EOF
      ;;
    command)
      local i=0
      while IFS= read -r script; do
        printf '%b' "$script" >"$dir/script-$i"
        i=$((i + 1))
      done <<'EOF'
open examples/flat.json; list walls where width > 2m\nsave --force out.json
define ROOM r2\ninfo $ROOM ; move ${ROOM} 1 0 --dry-run # comment
rename r1 "Living room" ; label 'o3' "it's \\"quoted\\"" \\\n  --force
list where "category = chair" and confidence >= medium
align r2 to r1 --at 1,2,3 ; merge r1 r2 --into "$TWO"
set -- x; echo 'single $NOT' "double \\$ROOM\\n" \\t\\\\
spaces; anchors where color = yellow ; source -x script.wb
EOF
      ;;
    plist)
      if [ -d "$store/worldmaps" ]; then
        for map in "$store"/worldmaps/*.bin; do
          if head -c 6 "$map" | grep -q bplist; then
            cp "$map" "$dir/$(basename "$map")"
          else
            python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.decompress(open(sys.argv[1], "rb").read(), -15))' \
              "$map" >"$dir/inflated-$(basename "$map")" || true
          fi
        done
      fi
      printf 'bplist00\x08\x00\x00\x00\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x09' \
        >"$dir/tiny-false"
      ;;
    deflate)
      python3 - "$dir" "$store" <<'EOF'
import os, sys, zlib
folder, store = sys.argv[1], sys.argv[2]
def raw(data, level=5):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()
seeds = {"empty": raw(b""), "text": raw(b"hello hello hello world " * 20),
         "stored": raw(bytes(range(256)), 0), "best": raw(b"abcabcabcabd" * 50, 9)}
maps = os.path.join(store, "worldmaps")
if os.path.isdir(maps):
    for name in sorted(os.listdir(maps)):
        data = open(os.path.join(maps, name), "rb").read()
        seeds["map-" + name] = data if not data.startswith(b"bplist") else raw(data)
for name, data in seeds.items():
    open(os.path.join(folder, name), "wb").write(b"\xff" + data)
EOF
      ;;
    hyperbasis)
      python3 - "$dir" "$store" <<'EOF'
import os, sys
folder, store = sys.argv[1], sys.argv[2]
fixed = "A1B2C3D4-E5F6-4789-8ABC-DEF012345678"
sep = b"\n====\n"
def read(*parts):
    path = os.path.join(store, *parts)
    return open(path, "rb").read() if os.path.exists(path) else None
spaces = sorted(os.listdir(os.path.join(store, "spaces"))) if os.path.isdir(os.path.join(store, "spaces")) else []
anchors = sorted(os.listdir(os.path.join(store, "anchors"))) if os.path.isdir(os.path.join(store, "anchors")) else []
pending = read("pending_operations.json") or b"[]"
for i, name in enumerate(spaces):
    sid = name[:-5]
    space = read("spaces", name).replace(sid.encode(), fixed.encode())
    world = read("worldmaps", sid + ".bin") or b""
    events = (read("events", sid, "events.jsonl") or b"").replace(sid.encode(), fixed.encode())
    for j, anchor in enumerate(anchors or [None]):
        a = (read("anchors", anchor) if anchor else b"{}").replace(sid.encode(), fixed.encode())
        open(os.path.join(folder, "store-%d-%d" % (i, j)), "wb").write(sep.join([space, world, a, events, pending]))
open(os.path.join(folder, "space-only"), "wb").write(b'{"id":"%s","isCompressed":false}' % fixed.encode())
open(os.path.join(folder, "single-file"), "wb").write(
    b'{"id":"%s","name":"one","isCompressed":false,"worldMapData":"YnBsaXN0MDA="}' % fixed.encode())
EOF
      ;;
  esac
}

# Runs one harness; returns 1 when it found a crash.
run_harness() {
  local name=$1 seconds=$2
  build_harness "$name"
  make_seeds "$name"
  local corpus=$out/corpus/$name crashes=$out/crashes/$name log=$out/logs/$name.log
  mkdir -p "$corpus" "$crashes"
  local dict=()
  [ -f "Fuzz/$name.dict" ] && dict=(-dict="Fuzz/$name.dict")
  local before
  before=$(ls "$crashes" | wc -l)
  local start end status=0
  start=$(date +%s)
  # shellcheck disable=SC2086
  "$out/bin/$name" "$corpus" "$out/seeds/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="${FUZZ_MAX_LEN:-262144}" -artifact_prefix="$crashes/" -print_final_stats=1 "${dict[@]}" \
    ${FUZZ_FLAGS:-} >"$log" 2>&1 || status=$?
  end=$(date +%s)
  local executions speed
  executions=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1)
  speed=$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1)
  if [ -z "$executions" ]; then
    executions=$(grep -oE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
  fi
  echo "fuzz: $name: ${executions:-?} executions in $((end - start)) s (${speed:-?}/s), corpus $(ls "$corpus" | wc -l) inputs"
  if [ "$status" -ne 0 ] || [ "$(ls "$crashes" | wc -l)" -gt "$before" ]; then
    local file
    file=$(grep -oE 'Test unit written to [^ ]+' "$log" | tail -n 1 | sed 's/Test unit written to //')
    echo "fuzz: $name: CRASH (exit $status): ${file:-see $log}"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|fuzz law violated|.*Fatal error|    #[0-9]+ .* in )' "$log" | head -n 12 | sed 's/^/    /'
    echo "    reproduce: Scripts/fuzz.sh repro $name ${file:-FILE}; log: $log"
    return 1
  fi
  return 0
}

[ $# -ge 1 ] || usage
case $1 in
  list)
    printf '%s\n' "${harnesses[@]}"
    ;;
  build)
    if [ $# -ge 2 ]; then build_harness "$2"; else for h in "${harnesses[@]}"; do build_harness "$h"; done; fi
    ;;
  repro)
    [ $# -eq 3 ] || usage
    build_harness "$2"
    "$out/bin/$2" "$3"
    ;;
  minimize)
    [ $# -ge 3 ] || usage
    build_harness "$2"
    "$out/bin/$2" -minimize_crash=1 -max_total_time="${4:-60}" -exact_artifact_path="$3.min" "$3" \
      >"$out/logs/$2-minimize.log" 2>&1 || true
    if [ -f "$3.min" ]; then echo "fuzz: $(wc -c <"$3.min") bytes in $3.min"; else tail -n 20 "$out/logs/$2-minimize.log"; exit 1; fi
    ;;
  all)
    [ $# -eq 2 ] || usage
    found=0
    for h in "${harnesses[@]}"; do run_harness "$h" "$2" || found=1; done
    exit $found
    ;;
  *)
    [ $# -eq 2 ] || usage
    run_harness "$1" "$2" || exit 1
    ;;
esac
