#!/usr/bin/env bash
# Removes the dice table's service, program and command. Keeps the settings (/etc/dicetable), the
# calibration profile and the event log (/var/lib/dicetable) and the dicetable user unless --purge.
#
#   sudo systemd/uninstall.sh [--dry-run] [--purge] [--prefix DIR] [--user NAME]
#
# The boot target stays the console; `sudo systemctl set-default graphical.target` brings the desktop back.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$HERE/common.sh"

PREFIX=/opt/dicetable
SERVICE_USER=dicetable
STATE_DIR=/var/lib/dicetable
CONF_DIR=/etc/dicetable
UNIT_FILE=/etc/systemd/system/dicetable.service
BIN_LINK=/usr/local/bin/dicetable
POLKIT_RULE=/etc/polkit-1/rules.d/50-dicetable.rules
DRY_RUN=0
PURGE=0

# the comment block at the top of this script, without its "#"
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

while [[ $# -gt 0 ]]; do
    case $1 in
        --dry-run) DRY_RUN=1 ;;
        --purge) PURGE=1 ;;
        --prefix) PREFIX=${2:?--prefix needs a folder}; shift ;;
        --user) SERVICE_USER=${2:?--user needs a name}; shift ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; die "unknown option $1" ;;
    esac
    shift
done
if [[ $DRY_RUN == 0 && $EUID -ne 0 ]]; then
    die "run as root: sudo $0  (or --dry-run to see what it would do)"
fi

if [[ -f $UNIT_FILE ]]; then
    say "the service"
    run systemctl disable --now dicetable.service
    run rm -f "$UNIT_FILE"
    run systemctl daemon-reload
    # forgets a failed state; a service that stopped cleanly is gone already and systemctl then
    # answers "not loaded" with exit 1, which must not stop the removal here (set -e)
    run systemctl reset-failed dicetable.service 2>/dev/null || true
else
    say "no unit at $UNIT_FILE"
fi
if [[ -L $BIN_LINK ]]; then
    run rm -f "$BIN_LINK"
fi
if [[ -f $POLKIT_RULE ]]; then
    run rm -f "$POLKIT_RULE"
fi
if [[ -d $PREFIX ]]; then
    say "the program in $PREFIX"
    run rm -rf "$PREFIX"
fi
if [[ $PURGE == 1 ]]; then
    say "settings, calibration, event log and the $SERVICE_USER user (--purge)"
    run rm -rf "$CONF_DIR" "$STATE_DIR"
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        run userdel "$SERVICE_USER"
    fi
else
    say "kept: $CONF_DIR, $STATE_DIR and the $SERVICE_USER user (--purge removes them)"
fi
