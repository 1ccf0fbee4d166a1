#!/usr/bin/env bash
# Installs IfcOpenShell (PyPI: ifcopenshell), the reader the IFC export tests check wb's
# files with. Quiet, and does nothing, when python3 can already import it.
set -euo pipefail
python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
  echo "setup-ifc-check: no $python; the IFC checks will skip" >&2
  exit 0
fi
if "$python" -c 'import ifcopenshell, ifcopenshell.validate' >/dev/null 2>&1; then exit 0; fi
export PIP_ROOT_USER_ACTION=ignore PIP_DISABLE_PIP_VERSION_CHECK=1
echo "setup-ifc-check: installing ifcopenshell (pip)" >&2
if [ "$(id -u)" -eq 0 ] || [ -n "${VIRTUAL_ENV:-}" ]; then
  "$python" -m pip install --quiet ifcopenshell ||
    "$python" -m pip install --quiet --break-system-packages ifcopenshell
else
  "$python" -m pip install --quiet --user ifcopenshell ||
    "$python" -m pip install --quiet --user --break-system-packages ifcopenshell
fi
