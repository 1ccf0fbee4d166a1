#!/usr/bin/env bash
# The whole test suite under a sanitizer: AddressSanitizer (out-of-bounds, use after free,
# leaks are not checked: Foundation's caches look like leaks) and ThreadSanitizer (data races;
# the suite runs workspaces on several threads at once).
#   Scripts/sanitize.sh [address|thread|all]     (default all)
# Each build goes to its own scratch folder (.build-address, .build-thread), so the
# ordinary build is untouched. Prints the time each took and exits non-zero on a finding.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
which="${1:-all}"
case "$which" in
  address|thread) kinds=("$which") ;;
  all) kinds=(address thread) ;;
  *) echo "usage: Scripts/sanitize.sh [address|thread|all]" >&2; exit 2 ;;
esac
status=0
for kind in "${kinds[@]}"; do
  start=$(date +%s)
  scratch=".build-$kind"
  swift build --build-tests --sanitize="$kind" --scratch-path "$scratch" -Xswiftc -warnings-as-errors
  log=$(mktemp)
  # halt_on_error: the first finding fails the run; detect_leaks=0: see above.
  export ASAN_OPTIONS="halt_on_error=1:detect_leaks=0"
  export TSAN_OPTIONS="halt_on_error=1"
  skip=()
  if [ "$kind" = thread ]; then
    # Under `ulimit -f` ThreadSanitizer's own runtime dies of SIGBUS before wb can report the
    # limit, so that one test says nothing about wb there (it runs in the ordinary suite).
    echo "thread sanitizer: skipping testAFileSizeLimitIsReportedAndLeavesNoTemporaryFile (the sanitizer's runtime cannot run under a file-size limit)"
    skip=(--skip testAFileSizeLimitIsReportedAndLeavesNoTemporaryFile)
  fi
  if swift test --skip-build --disable-swift-testing --sanitize="$kind" --scratch-path "$scratch" "${skip[@]}" >"$log" 2>&1; then
    result=passed
  else
    result=FAILED
    status=1
    grep -E "ERROR: (Address|Thread)Sanitizer|WARNING: ThreadSanitizer|SUMMARY:|error:" "$log" | head -20 || true
  fi
  summary=$(grep -E 'Executed [0-9]+ tests?, with' "$log" | tail -n 1 || true)
  echo "$kind sanitizer: $result in $(( $(date +%s) - start )) s (build and tests);${summary}"
  cp "$log" "/tmp/wb-sanitize-$kind.log"
  rm -f "$log"
done
exit $status
