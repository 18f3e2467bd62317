#!/usr/bin/env bash
# Installs tapis as a service on Raspberry Pi OS (bookworm, aarch64) or Debian 12.
#
#   sudo deploy/install.sh agent          a table's Pi: tapis-agent.service (reader, panel)
#   sudo deploy/install.sh hub --table t1 --table t2 ...   the hub's Pi: a closed Mosquitto + tapis-hub.service
#        [--host NAME_OR_IP ...] [--hub-workers K]          (users, ACL, TLS: python -m hub.edge.security)
#   sudo deploy/install.sh hub --open-broker                an OPEN broker (anyone on the LAN is the TD)
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
open_broker=0
workers=0
tables=()
hosts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --pcsc) pcsc=1 ;;
    --no-start) start=0 ;;
    --open-broker) open_broker=1 ;;
    --table|--host|--hub-workers)
      [ $# -ge 2 ] || { echo "install: $1 needs a value" >&2; exit 2; }
      case "$1" in
        --table) tables+=("$2") ;;
        --host) hosts+=("$2") ;;
        --hub-workers) workers="$2" ;;
      esac
      shift ;;
    *) echo "install: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
case "$role" in
  agent|hub) ;;
  *) sed -n '2,11p' "$0" >&2; exit 2 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
  echo "install: run as root (sudo $0 $role ...)" >&2
  exit 2
fi

src="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/tapis
conf=/etc/tapis
room="$conf/room"
say() { echo "install: $*" >&2; }

# A closed broker needs the room's tables (one user each): known before anything is installed.
if [ "$role" = hub ] && [ "$open_broker" = 0 ]; then
  if [ "${#tables[@]}" -eq 0 ] && [ -d "$room/credentials" ]; then  # an update: the room as it was
    for file in "$room"/credentials/table-*.json; do
      [ -e "$file" ] && tables+=("$(basename "$file" .json | sed 's/^table-//')")
    done
  fi
  if [ "${#tables[@]}" -eq 0 ]; then
    echo "install: hub: name the room's tables (--table t1 --table t2 ...): each gets its own broker user" >&2
    echo "install: (--open-broker installs a broker anyone on the LAN can use as the TD: a bench only)" >&2
    exit 2
  fi
fi

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
  if [ "$open_broker" = 1 ]; then
    say "!!! --open-broker: ANYONE ON THE LAN CAN READ EVERY HOLE CARD AND ACT AS THE TD !!!"
    say "!!! (a bench or a demo only; run again without --open-broker to close it)           !!!"
    install -m 0644 "$src/deploy/mosquitto-tapis-open.conf" /etc/mosquitto/conf.d/tapis.conf
    hub_room=""
  else
    # the names and addresses the tables dial, in the broker's TLS certificate
    [ "${#hosts[@]}" -eq 0 ] && read -r -a hosts <<< "$(hostname).local $(hostname -I 2>/dev/null || true) localhost 127.0.0.1"
    args=()
    for t in "${tables[@]}"; do args+=(--table "$t"); done
    for h in "${hosts[@]}"; do args+=(--host "$h"); done
    # existing passwords and the CA are kept: tables already configured keep working
    "$prefix/.venv/bin/python" -m hub.edge.security "$room" "${args[@]}" --hub-workers "$workers" >/dev/null
    # Mosquitto reads its files as `mosquitto` (it drops root first); the hub reads its own credentials as `tapis`
    chgrp mosquitto "$room/broker/passwd" "$room/broker/acl" "$room/broker/tls/server.key"
    chmod 0640 "$room/broker/passwd" "$room/broker/acl" "$room/broker/tls/server.key"
    chgrp tapis "$room/credentials" "$room"/credentials/hub*.json
    chmod 0750 "$room/credentials"
    chmod 0640 "$room"/credentials/hub*.json
    install -m 0644 "$src/deploy/mosquitto-tapis.conf" /etc/mosquitto/conf.d/tapis.conf
    hub_room="--password-file $room/credentials/hub.json --tables $(IFS=,; echo "${tables[*]}")"
    say "closed broker: tables ${tables[*]}; give each table's Pi $room/credentials/table-<id>.json and"
    say "  $room/broker/tls/ca.crt (see docs/security.md); the TD's and screens' users are in $room/credentials"
  fi
  printf '# written by install.sh on every run: the hub'"'"'s broker user and the room'"'"'s tables\nTAPIS_HUB_ROOM=%s\n' \
    "$hub_room" > "$conf/hub-room.env"
  chmod 0644 "$conf/hub-room.env"
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
  say "  sudo -u tapis $prefix/.venv/bin/python -m table_agent.tools doctor --broker mqtt://<hub>:8883"
  say "  sudo systemctl start tapis-agent"
fi
