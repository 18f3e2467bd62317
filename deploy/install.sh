#!/usr/bin/env bash
# Installs tapis as a service on Raspberry Pi OS (bookworm, aarch64) or Debian 12.
#
#   sudo deploy/install.sh agent          a table's Pi: tapis-agent.service (reader, panel)
#   sudo deploy/install.sh hub            the hub's Pi: Mosquitto on the LAN + tapis-hub.service
#   sudo deploy/install.sh agent --pcsc   also pcscd and pyscard, for PC/SC readers (ACR122U...)
#   sudo deploy/install.sh ... --no-start install and enable, start later
#
# Safe to run again (an update): code to /opt/tapis, virtualenv /opt/tapis/.venv, the service user
# `tapis`, example configuration to /etc/tapis/ only where no file exists, units to /etc/systemd/system.
set -euo pipefail

role="${1:-}"
shift || true
pcsc=0
start=1
for arg in "$@"; do
  case "$arg" in
    --pcsc) pcsc=1 ;;
    --no-start) start=0 ;;
    *) echo "install: unknown option $arg" >&2; exit 2 ;;
  esac
done
case "$role" in
  agent|hub) ;;
  *) sed -n '2,8p' "$0" >&2; exit 2 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
  echo "install: run as root (sudo $0 $role ...)" >&2
  exit 2
fi

src="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/tapis
conf=/etc/tapis
say() { echo "install: $*" >&2; }

packages=(python3-venv python3-dev)
# gpiozero on a Pi 5 (and the kernel's gpiochip interface) goes through lgpio
[ "$role" = agent ] && packages+=(python3-lgpio)
[ "$role" = hub ] && packages+=(mosquitto)
[ "$pcsc" = 1 ] && packages+=(pcscd libpcsclite-dev swig)
say "apt packages: ${packages[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null

if ! id tapis >/dev/null 2>&1; then
  say "creating the service user tapis"
  useradd --system --home-dir /var/lib/tapis --shell /usr/sbin/nologin tapis
fi
if [ "$role" = agent ]; then
  for group in dialout gpio i2c; do
    getent group "$group" >/dev/null || groupadd --system "$group"
    usermod -aG "$group" tapis
  done
fi

say "code to $prefix"
mkdir -p "$prefix"
# copy, not symlink: the service must not depend on a checkout in someone's home
tar -C "$src" --exclude=.git --exclude=.venv --exclude='__pycache__' -cf - . | tar -C "$prefix" -xf -
# system site packages: lgpio comes from apt (it needs the kernel headers pip would not have)
[ -x "$prefix/.venv/bin/python" ] || python3 -m venv --system-site-packages "$prefix/.venv"
"$prefix/.venv/bin/python" -m pip install -q --upgrade pip >/dev/null 2>&1 || true
"$prefix/.venv/bin/python" -m pip install -q "$prefix"
[ "$pcsc" = 1 ] && "$prefix/.venv/bin/python" -m pip install -q pyscard

mkdir -p "$conf"
for file in "$src"/deploy/etc-tapis/*; do
  target="$conf/$(basename "$file")"
  if [ -e "$target" ]; then
    say "keeping $target"
  else
    install -m 0640 -o root -g tapis "$file" "$target"
    say "wrote example $target: edit it"
  fi
done

if [ "$role" = hub ]; then
  install -m 0644 "$src/deploy/mosquitto-tapis.conf" /etc/mosquitto/conf.d/tapis.conf
  systemctl enable mosquitto >/dev/null
  [ "$start" = 1 ] && systemctl restart mosquitto
fi

# the tournament clock and every event time depend on it; a Pi has no battery-backed clock
timedatectl set-ntp true || say "could not enable NTP (timedatectl): do it by hand"

unit="tapis-$role.service"
install -m 0644 "$src/deploy/$unit" "/etc/systemd/system/$unit"
systemctl daemon-reload
systemctl enable "$unit" >/dev/null
if [ "$start" = 1 ]; then
  systemctl restart "$unit"
  say "$unit started; logs: journalctl -u $unit -f"
fi
if [ "$role" = agent ]; then
  say "next: edit $conf/table.toml and $conf/decks.toml, then run"
  say "  sudo systemctl stop tapis-agent    (the doctor opens the reader itself)"
  say "  sudo -u tapis $prefix/.venv/bin/python -m table_agent.tools doctor --broker mqtt://<hub>:1883"
  say "  sudo systemctl start tapis-agent"
fi
