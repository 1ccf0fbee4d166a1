#!/usr/bin/env bash
# Installs what building wb needs and a fresh Debian machine lacks: libedit's headers
# (libedit-dev), zlib's (zlib1g-dev) and pkg-config; and for the tests of the man page, groff
# and mandoc (each lints it). Does nothing when they are already there.
set -euo pipefail
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ! pkg-config --exists libedit 2>/dev/null; then missing+=(libedit-dev); fi
if ! pkg-config --exists zlib 2>/dev/null; then missing+=(zlib1g-dev); fi
command -v groff >/dev/null 2>&1 || missing+=(groff-base)
command -v mandoc >/dev/null 2>&1 || missing+=(mandoc)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "setup: installing ${missing[*]} (apt-get)" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup: need root (or sudo) to install ${missing[*]}" >&2; exit 1
  fi
fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
