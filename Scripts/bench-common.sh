# Sourced by the benchmarks: run from the package root, build the release products the
# benchmark names, and give it a scratch folder ($work) that is removed on exit. With
# WB_BENCH_RESULTS set, each benchmark also appends its measures there as JSON lines
# (Scripts/bench_results.py), for the one table of Scripts/bench.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/setup.sh
# Scripts/bench builds once and sets WB_BENCH_BUILT for the benchmarks it runs.
if [ -z "${WB_BENCH_BUILT:-}" ]; then
  for product in "$@"; do swift build -c release --product "$product" >/dev/null; done
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
