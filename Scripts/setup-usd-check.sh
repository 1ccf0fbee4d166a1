#!/usr/bin/env bash
# Installs what the USD export tests check with: Pixar's USD for Python (usd-core, which
# has pxr.UsdValidation from 24.x on) and numpy; and the USDZ package rules, whose
# UsdUtils.ComplianceChecker (pure Python) usd-core dropped in 26.x: its file is taken from
# usd-core 25.11's wheel into ~/.cache/wb/ and run on the installed library (25.11's own
# wheel lacks the shader definitions that checker needs). Quiet when all is there.
set -euo pipefail
cache="${XDG_CACHE_HOME:-$HOME/.cache}/wb"
checker="$cache/usd_compliance_checker_25_11.py"
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
  echo "setup-usd-check: no $python; the USD export tests will skip" >&2; exit 0
fi
if ! "$python" -c 'import numpy; from pxr import UsdValidation' >/dev/null 2>&1; then
  echo "setup-usd-check: installing usd-core and numpy (pip)" >&2
  "$python" -m pip install -q --disable-pip-version-check "usd-core>=26.11" numpy 2>&1 | grep -v 'as the .root. user' >&2 || true
fi
if [ ! -s "$checker" ]; then
  echo "setup-usd-check: fetching UsdUtils.ComplianceChecker from usd-core 25.11" >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  if ! "$python" -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: -d "$tmp" usd-core==25.11 >&2; then
    echo "setup-usd-check: could not fetch it; the package-rule checks will skip" >&2; exit 0
  fi
  mkdir -p "$cache"
  "$python" - "$tmp" "$checker" <<'PY'
import glob, sys, zipfile
wheel = glob.glob(sys.argv[1] + "/usd_core-25.11-*.whl")[0]
with zipfile.ZipFile(wheel) as z, open(sys.argv[2] + ".part", "wb") as out:
    out.write(z.read("pxr/UsdUtils/complianceChecker.py"))
PY
  mv "$checker.part" "$checker"
fi
