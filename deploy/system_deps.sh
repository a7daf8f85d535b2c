#!/usr/bin/env bash
# What the machine must have for `make test` (and, for the compiler, `make run`): Debian's
# Chromium for the browser tests, gcc and Python's headers for mypyc (`make native`), Node.js
# and npm for the web client. Installs what is missing when it can (root, or sudo without a
# password); otherwise stops at once with the one command to run.
#
#   deploy/system_deps.sh [PYTHON] [--no-browser]
set -euo pipefail

python=${1:-python3}
browser=1
[ "${2:-}" = "--no-browser" ] && browser=0

missing=()
if [ "$browser" = 1 ] && [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null && [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium)
fi
command -v gcc >/dev/null || missing+=(gcc)
# the headers of the Python the venv is made from (a pyenv or distribution Python alike)
"$python" -c 'import os, sysconfig; os.stat(sysconfig.get_paths()["include"] + "/Python.h")' 2>/dev/null ||
  missing+=(python3-dev)
command -v npm >/dev/null || missing+=(nodejs npm)

[ ${#missing[@]} -eq 0 ] && exit 0

cmd="apt-get install -y ${missing[*]}"
if ! command -v apt-get >/dev/null; then
  echo "error: this machine lacks ${missing[*]} and has no apt-get: install them, then run make again" >&2
  exit 1
fi
if [ "$(id -u)" = 0 ]; then
  sudo=()
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
  sudo=(sudo -n)
else
  echo "error: this machine lacks ${missing[*]}; run: sudo apt-get update && sudo $cmd" >&2
  exit 1
fi
echo "installing what the machine lacks: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# another install running (a second `make test`, unattended upgrades) holds dpkg's lock: wait for it
wait_lock=(-o DPkg::Lock::Timeout=600)
"${sudo[@]}" apt-get "${wait_lock[@]}" update -q
"${sudo[@]}" apt-get "${wait_lock[@]}" install -y -q "${missing[@]}"
