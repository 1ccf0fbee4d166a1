# Sourced by the benchmarks: run from the package root, build the release products the
# benchmark names, and give it a scratch folder ($work) that is removed on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
Scripts/setup.sh
for product in "$@"; do swift build -c release --product "$product" >/dev/null; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
