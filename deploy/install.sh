#!/usr/bin/env bash
# Installs tapis as a service on Raspberry Pi OS Bookworm (64-bit); says what is missing elsewhere.
#
#   sudo deploy/install.sh agent          a table's Pi: tapis-agent.service (reader, panels)
#   sudo deploy/install.sh hub --table t1 --table t2 ...   the hub's Pi: a closed Mosquitto + tapis-hub.service
#        [--host NAME_OR_IP ...] [--hub-workers K]          (users, ACL, TLS: python -m hub.edge.security)
#   sudo deploy/install.sh hub --open-broker                an OPEN broker (anyone on the LAN is the TD)
#   sudo deploy/install.sh agent --pcsc   also pcscd and pyscard, for PC/SC readers (ACR122U...)
#   sudo deploy/install.sh agent --no-panel   a table without GPIO panels (no lgpio: any Debian 12)
#   sudo deploy/install.sh ... --no-start install and enable, start later
#   sudo deploy/install.sh ... --compiled the rules engine compiled with mypyc (needs gcc, python3-dev)
#   deploy/install.sh ... --dry-run       check this system and print what would be done; changes nothing
#
# Safe to run again (an update): code to /opt/tapis, virtualenv /opt/tapis/.venv, the service user
# `tapis`, example configuration to /etc/tapis/ only where no file exists, units to /etc/systemd/system.
set -euo pipefail

role="${1:-}"
shift || true
pcsc=0
start=1
panel=1
dry=0
compiled=0
open_broker=0
workers=0
tables=()
hosts=()
while [ $# -gt 0 ]; do
  case "$1" in
    --pcsc) pcsc=1 ;;
    --no-start) start=0 ;;
    --no-panel) panel=0 ;;
    --dry-run) dry=1 ;;
    --compiled) compiled=1 ;;
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
  *) sed -n '2,14p' "$0" >&2; exit 2 ;;
esac
[ "$role" = hub ] && panel=0

say() { echo "install: $*" >&2; }
fail() { echo "install: $*" >&2; exit 2; }
# every change goes through run/put: --dry-run prints them instead
run() {
  if [ "$dry" = 1 ]; then echo "would run: $*"; else "$@"; fi
}
put() {  # put FILE MODE: stdin to FILE
  if [ "$dry" = 1 ]; then echo "would write $1 (mode $2):"; sed 's/^/    /'; else
    cat >"$1"; chmod "$2" "$1"; fi
}

src="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/opt/tapis
conf=/etc/tapis
room="$conf/room"

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

# --- what this system must have, checked before anything changes ----------------------------
os_release="${TAPIS_OS_RELEASE:-/etc/os-release}"
os_id=unknown; os_codename=unknown; os_name="an unknown system"
if [ -r "$os_release" ]; then
  os_id="$(sed -n 's/^ID=//p' "$os_release" | tr -d '"')"
  os_codename="$(sed -n 's/^VERSION_CODENAME=//p' "$os_release" | tr -d '"')"
  os_name="$(sed -n 's/^PRETTY_NAME=//p' "$os_release" | tr -d '"')"
fi
needs="tapis installs on Raspberry Pi OS Bookworm (or Debian 12 for a hub or a table without panels): apt, systemd and Python 3.11+"
command -v apt-get >/dev/null 2>&1 && command -v apt-cache >/dev/null 2>&1 \
  || fail "no apt on $os_name. $needs; elsewhere install by hand: a venv, pip install ., the units in deploy/"
command -v systemctl >/dev/null 2>&1 \
  || fail "no systemd on $os_name. $needs; elsewhere run 'tapis $role' under your own supervisor"
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
  || fail "Python 3.11 or later is needed (python3 here: $(python3 -V 2>&1 || echo none)). $needs"
case "$os_codename" in
  bookworm|trixie) ;;
  *) say "warning: tested on bookworm; this is $os_name ($os_codename)" ;;
esac
if [ "$dry" = 0 ] && [ "$(id -u)" -ne 0 ]; then
  fail "run as root (sudo $0 $role ...), or add --dry-run to see what it would do"
fi
[ "$dry" = 0 ] && apt-get update -qq

packages=(python3-venv python3-dev)
if [ "$panel" = 1 ]; then
  # gpiozero's backend on Bookworm kernels is lgpio: Raspberry Pi OS packages it, Debian 12 does not,
  # and pip cannot build it without liblgpio. apt's copy reaches the venv by --system-site-packages.
  if ! apt-cache show python3-lgpio >/dev/null 2>&1; then
    fail "python3-lgpio is not in this system's apt sources ($os_name): it comes from Raspberry Pi OS's archive, and the panels need it. On a Raspberry Pi, install Raspberry Pi OS Bookworm (64-bit). For a table without GPIO panels (reader board on USB, or PC/SC readers), run again with --no-panel."
  fi
  packages+=(python3-lgpio)
fi
[ "$role" = hub ] && packages+=(mosquitto)
# pyscard has no Linux wheel on PyPI: pip builds it, with a C compiler, swig and PC/SC's headers
[ "$pcsc" = 1 ] && packages+=(pcscd libpcsclite-dev swig build-essential)
say "apt packages: ${packages[*]}"
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"

if ! id tapis >/dev/null 2>&1; then
  say "creating the service user tapis"
  run useradd --system --home-dir /var/lib/tapis --shell /usr/sbin/nologin tapis
fi
if [ "$role" = agent ]; then
  # every group the unit names must exist, panels or not: systemd refuses to start a unit whose
  # SupplementaryGroups= names a missing group (status=216/GROUP, restarted every 2 s for ever)
  read -r -a unit_groups <<< "$(sed -n 's/^SupplementaryGroups=//p' "$src/deploy/tapis-agent.service")"
  for group in "${unit_groups[@]}"; do
    getent group "$group" >/dev/null || run groupadd --system -f "$group"
  done
  groups=(dialout)
  [ "$panel" = 1 ] && groups+=(gpio i2c)
  for group in "${groups[@]}"; do
    run usermod -aG "$group" tapis
  done
fi

say "code to $prefix"
run mkdir -p "$prefix"
# copy, not symlink: the service must not depend on a checkout in someone's home
if [ "$dry" = 1 ]; then echo "would run: tar -C $src ... | tar -C $prefix -xf -"; else
  tar -C "$src" --exclude=.git --exclude=.venv --exclude='__pycache__' -cf - . | tar -C "$prefix" -xf -; fi
# system site packages: lgpio comes from apt (it needs liblgpio, which pip would not have)
if [ ! -x "$prefix/.venv/bin/python" ]; then
  run python3 -m venv --system-site-packages "$prefix/.venv"
elif ! grep -q '^include-system-site-packages = true' "$prefix/.venv/pyvenv.cfg" 2>/dev/null; then
  say "$prefix/.venv cannot see apt's packages: making it again with --system-site-packages"
  run python3 -m venv --clear --system-site-packages "$prefix/.venv"
fi
run "$prefix/.venv/bin/python" -m pip install -q --upgrade pip
run "$prefix/.venv/bin/python" -m pip install -q "$prefix"
[ "$pcsc" = 1 ] && run "$prefix/.venv/bin/python" -m pip install -q pyscard
if [ "$compiled" = 1 ]; then
  # the rules engine's hot modules compiled into $prefix/.venv/tapis-compiled (docs/rules-engine.md); used
  # only while they match the installed sources. A failure leaves the pure engine: the install goes on.
  run "$prefix/.venv/bin/python" -m pip install -q "mypy>=1.10" "setuptools>=64" &&
    run "$prefix/.venv/bin/python" "$prefix/tools/build_engine.py" ||
    say "moteur compilé non construit, le moteur pur reste / compiled engine not built, the pure engine stays"
fi

if [ "$pcsc" = 1 ]; then
  # the kernel's NFC stack claims the ACR122U and SCL3711 (PN533 inside) before pcscd can
  put /etc/modprobe.d/tapis-pcsc.conf 0644 <<'EOF'
# tapis (deploy/install.sh --pcsc): pcscd drives the ACR122U / SCL3711 through libccid; the kernel's
# NFC drivers would claim them first and pcscd would see no reader.
blacklist pn533_usb
blacklist pn533
blacklist nfc
EOF
  run modprobe -r pn533_usb pn533 nfc || say "could not unload pn533_usb now: unplug and replug the readers, or reboot"
  say "the ACR122U beeps on every card: silence it with the pseudo-APDU FF 00 52 00 00 (docs/raspberry-pi.md, section 7)"
fi

run mkdir -p "$conf"
for file in "$src"/deploy/etc-tapis/*; do
  target="$conf/$(basename "$file")"
  if [ -e "$target" ]; then
    say "keeping $target"
  else
    run install -m 0640 -o root -g tapis "$file" "$target"
    say "wrote example $target: edit it"
  fi
done

if [ "$role" = hub ]; then
  if [ "$open_broker" = 1 ]; then
    say "!!! --open-broker: ANYONE ON THE LAN CAN READ EVERY HOLE CARD AND ACT AS THE TD !!!"
    say "!!! (a bench or a demo only; run again without --open-broker to close it)           !!!"
    run install -m 0644 "$src/deploy/mosquitto-tapis-open.conf" /etc/mosquitto/conf.d/tapis.conf
    hub_room=""
  else
    # the names and addresses the tables dial, in the broker's TLS certificate
    [ "${#hosts[@]}" -eq 0 ] && read -r -a hosts <<< "$(hostname).local $(hostname -I 2>/dev/null || true) localhost 127.0.0.1"
    args=()
    for t in "${tables[@]}"; do args+=(--table "$t"); done
    for h in "${hosts[@]}"; do args+=(--host "$h"); done
    # existing passwords and the CA are kept: tables already configured keep working
    if [ "$dry" = 1 ]; then run "$prefix/.venv/bin/python" -m hub.edge.security "$room" "${args[@]}" --hub-workers "$workers"
    else "$prefix/.venv/bin/python" -m hub.edge.security "$room" "${args[@]}" --hub-workers "$workers" >/dev/null; fi
    # Mosquitto reads its files as `mosquitto` (it drops root first); the hub reads its own credentials as `tapis`
    run chgrp mosquitto "$room/broker/passwd" "$room/broker/acl" "$room/broker/tls/server.key"
    run chmod 0640 "$room/broker/passwd" "$room/broker/acl" "$room/broker/tls/server.key"
    run chgrp tapis "$room/credentials" "$room"/credentials/hub*.json
    run chmod 0750 "$room/credentials"
    run chmod 0640 "$room"/credentials/hub*.json
    run install -m 0644 "$src/deploy/mosquitto-tapis.conf" /etc/mosquitto/conf.d/tapis.conf
    hub_room="--password-file $room/credentials/hub.json --tables $(IFS=,; echo "${tables[*]}")"
    say "closed broker: tables ${tables[*]}; give each table's Pi $room/credentials/table-<id>.json and"
    say "  $room/broker/tls/ca.crt (see docs/security.md); the TD's and screens' users are in $room/credentials"
  fi
  # the TD's login for the dashboard: made once (its password printed here, once), kept on later runs
  if [ -e "$conf/td-users" ]; then
    say "keeping $conf/td-users (another TD: $prefix/.venv/bin/tapis td-login NAME --users $conf/td-users)"
  else
    say "the TD's dashboard login (write the password down: it is shown once):"
    run "$prefix/.venv/bin/python" -m tapis td-login td --users "$conf/td-users"
  fi
  run chgrp tapis "$conf/td-users"
  run chmod 0640 "$conf/td-users"
  hub_room="${hub_room:+$hub_room }--td-users $conf/td-users"
  # the club's own rulebook files (docs/rulebooks.md): the desk offers them for a new tournament
  run mkdir -p "$conf/rulebooks"
  run chgrp tapis "$conf/rulebooks"
  run chmod 0750 "$conf/rulebooks"
  hub_room="$hub_room --rulebooks $conf/rulebooks"
  printf '# written by install.sh on every run: the hub'"'"'s broker user and the room'"'"'s tables\nTAPIS_HUB_ROOM=%s\n' \
    "$hub_room" | put "$conf/hub-room.env" 0644
  run systemctl enable mosquitto >/dev/null
  [ "$start" = 1 ] && run systemctl restart mosquitto
fi

# the tournament clock and every event time depend on it; a Pi has no battery-backed clock
run timedatectl set-ntp true || say "could not enable NTP (timedatectl): do it by hand"

unit="tapis-$role.service"
run install -m 0644 "$src/deploy/$unit" "/etc/systemd/system/$unit"
run systemctl daemon-reload
run systemctl enable "$unit"
if [ "$start" = 1 ]; then
  run systemctl restart "$unit"
  say "$unit started; logs: journalctl -u $unit -f"
fi
if [ "$role" = agent ]; then
  say "next: edit $conf/table.toml and $conf/decks.toml, then run"
  # the example profile wires the reference panels: an agent without GPIO refuses to start on them
  [ "$panel" = 0 ] && say "  (--no-panel: delete the [panel] section of $conf/table.toml, and its [panel.*] tables)"
  say "  sudo systemctl stop tapis-agent    (the doctor opens the reader itself)"
  say "  sudo -u tapis $prefix/.venv/bin/python -m table_agent.tools doctor --broker mqtt://<hub>:8883"
  say "  sudo systemctl start tapis-agent"
fi
[ "$dry" = 1 ] && say "dry run: nothing was changed"
exit 0
