#!/usr/bin/env bash
# Writes wb.1, the man page, from wb's own declarations (the program's options and the shell's
# command table) with `wb --generate-man`. Run it after changing a flag, a command or its help;
# a test fails while the checked-in wb.1 differs from what wb generates.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product wb >&2
"$(swift build --show-bin-path)/wb" --generate-man > wb.1
echo "wrote wb.1" >&2
