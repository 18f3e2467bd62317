#!/usr/bin/env bash
# Sets tapis up on Debian or Raspberry Pi OS: Mosquitto from apt, a virtual environment in .venv,
# the package (with the test tools when called with --test). Safe to run again.
set -euo pipefail
cd "$(dirname "$0")"
extras=""
[ "${1:-}" = "--test" ] && extras="[test]"

sudo_=""
[ "$(id -u)" -ne 0 ] && sudo_="sudo"
need=()
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
if [ "${1:-}" = "--test" ]; then
  # the PC/SC tests run a real pcscd with vsmartcard's virtual reader; pyscard builds against libpcsclite
  [ -x /usr/sbin/pcscd ] || need+=(pcscd)
  dpkg -s vsmartcard-vpcd >/dev/null 2>&1 || need+=(vsmartcard-vpcd)
  dpkg -s libpcsclite-dev >/dev/null 2>&1 || need+=(libpcsclite-dev swig)
  # the dashboard's browser tests drive Debian's Chromium through Playwright (no browser download)
  [ -x /usr/bin/chromium ] || need+=(chromium)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]} from apt" >&2
  $sudo_ apt-get update -qq
  $sudo_ env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/python -m pip install -q -e ".${extras}"
echo "setup: ready (.venv/bin/tapis)" >&2
