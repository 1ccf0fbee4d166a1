#!/usr/bin/env bash
# Installs the third-party SVG checkers the tests run wb's plans through: librsvg's
# rsvg-convert (Debian librsvg2-bin), a headless Chromium (Debian chromium-headless-shell,
# Blink, a browser's own renderer), DejaVu fonts for both, and Pillow (PyPI) for comparing
# the pictures pixel by pixel. Quiet, and does nothing, when everything is there already.
set -euo pipefail
missing=()
command -v rsvg-convert >/dev/null 2>&1 || missing+=(librsvg2-bin)
command -v chromium-headless-shell >/dev/null 2>&1 || [ -x /usr/lib/chromium/chromium-headless-shell ] \
  || missing+=(chromium-headless-shell)
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup-svg-check: installing ${missing[*]} (apt-get)" >&2
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
      echo "setup-svg-check: need root (or sudo) to install ${missing[*]}" >&2; exit 1
    fi
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if ! python3 -c 'import PIL' >/dev/null 2>&1; then
  echo "setup-svg-check: installing Pillow (pip)" >&2
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore Pillow
fi
