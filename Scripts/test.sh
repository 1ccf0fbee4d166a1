#!/usr/bin/env bash
# Builds wb with warnings as errors and runs every test (unit, shell and end-to-end).
# Tests that read the real samples in ../shared/samples/ skip, saying why, without them.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/setup.sh
# The third-party checkers of the exports (renderers, USD, IfcOpenShell): the tests that use
# them skip, saying why, when one could not be installed (no package registry reachable).
Scripts/setup-svg-check.sh || echo "test: the SVG checkers could not be installed; their tests skip" >&2
Scripts/setup-ifc-check.sh || echo "test: IfcOpenShell could not be installed; its tests skip" >&2
Scripts/setup-usd-check.sh || echo "test: usd-core could not be installed; its tests skip" >&2
swift build --build-tests -Xswiftc -warnings-as-errors
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
swift test --skip-build --disable-swift-testing -Xswiftc -warnings-as-errors 2>&1 | tee "$log" || status=$?
# One plain closing line with the totals of the whole run (XCTest's last summary).
summary=$(grep -E 'Executed [0-9]+ tests?, with' "$log" | tail -n 1 || true)
executed=$(sed -E 's/.*Executed ([0-9]+) tests?.*/\1/' <<<"$summary")
failed=$(sed -E 's/.* ([0-9]+) failures?.*/\1/' <<<"$summary")
skipped=$(grep -oE '[0-9]+ tests? skipped' <<<"$summary" | grep -oE '^[0-9]+' || echo 0)
if [ -n "$executed" ]; then
  echo "tests: $((executed - failed - skipped)) passed, $failed failed, $skipped skipped"
fi
exit $status
