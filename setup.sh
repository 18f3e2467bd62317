#!/usr/bin/env bash
# Sets tapis up on Debian or Raspberry Pi OS: Mosquitto from apt, a virtual environment in .venv,
# the package (with the test tools when called with --test). Safe to run again.
# --compiled: also the rules engine's hot modules compiled with mypyc into .venv/tapis-compiled/
# (docs/rules-engine.md; needs a C compiler and python3-dev); if that fails, the pure engine stays.
set -euo pipefail
cd "$(dirname "$0")"
test_tools=0
compiled=0
for arg in "$@"; do
  case "$arg" in
    --test) test_tools=1 ;;
    --compiled) compiled=1 ;;
    *) echo "setup: option inconnue / unknown option $arg (--test, --compiled)" >&2; exit 2 ;;
  esac
done
extras=""
[ "$test_tools" = 1 ] && extras="[test]"

sudo_=""
[ "$(id -u)" -ne 0 ] && sudo_="sudo"
need=()
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
if [ "$test_tools" = 1 ]; then
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
if [ "$compiled" = 1 ]; then
  # mypyc comes with mypy: installed for this build only (a dev tool); any failure leaves the pure engine
  if .venv/bin/python -m pip install -q "mypy>=1.10" "setuptools>=64" >/dev/null 2>&1; then
    .venv/bin/python tools/build_engine.py || true
  else
    echo "setup: moteur compilé non construit, le moteur pur reste / compiled engine not built, the pure engine" \
         "stays: pip n'a pas pu installer mypy / pip could not install mypy" >&2
  fi
fi
echo "setup: ready (.venv/bin/tapis)" >&2
