#!/usr/bin/env bash
# Installs the dice table on Raspberry Pi OS Bookworm as a kiosk that starts at boot. Safe to run again:
# every step checks what is already there, and settings already written are kept.
#
#   sudo systemd/install.sh [--dry-run] [--skip-apt] [--start] [--keep-desktop]
#                           [--prefix DIR] [--user NAME] [--python PYTHON]
#
# What it does: apt packages (picamera2, what pygame and OpenCV need), a `dicetable` system user in the
# video, render, input and gpio groups, a virtual environment in PREFIX/venv with the system's site
# packages (picamera2 comes from apt), the appliance installed into it from this checkout, the settings
# file /etc/dicetable/settings.toml, the systemd unit enabled, and the console as the boot target.
# --dry-run prints every action (lines starting with "+") and changes nothing.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$HERE/common.sh"
SOURCE=$(dirname "$HERE")
PREFIX=/opt/dicetable
SERVICE_USER=dicetable
PYTHON=python3
STATE_DIR=/var/lib/dicetable           # the unit's StateDirectory: event log and calibration profile
CONF_DIR=/etc/dicetable
UNIT_DIR=/etc/systemd/system
BIN_LINK=/usr/local/bin/dicetable
UNIT=dicetable.service
POLKIT_RULE=/etc/polkit-1/rules.d/50-dicetable.rules   # the table's menu may shut the Pi down
DRY_RUN=0
SKIP_APT=0
START=0
KEEP_DESKTOP=0

APT_PACKAGES=(
    python3-venv python3-pip
    python3-picamera2 python3-libcamera rpicam-apps-lite   # the camera, and rpicam-hello to test it
    python3-pygame                                          # on the system's SDL, which has KMSDRM (pip's has not)
    libsdl2-2.0-0 libsdl2-ttf-2.0-0 libsdl2-image-2.0-0 libsdl2-mixer-2.0-0 libdrm2 libgbm1 libegl1 libgles2
    libfreetype6 libportmidi0                               # pygame's other runtime libraries
    libopenblas0 libopenjp2-7 libjpeg62-turbo libpng16-16 libtiff6   # OpenCV and numpy wheels (piwheels)
    python3-lgpio                                           # gpiozero's pin library on Bookworm
    polkitd                                                 # lets the kiosk's user shut the Pi down (its menu)
)
SERVICE_GROUPS=(video render input gpio)

usage() { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; }



parse_args() {
    while [[ $# -gt 0 ]]; do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --skip-apt) SKIP_APT=1 ;;
            --start) START=1 ;;
            --keep-desktop) KEEP_DESKTOP=1 ;;
            --prefix) PREFIX=${2:?--prefix needs a folder}; shift ;;
            --user) SERVICE_USER=${2:?--user needs a name}; shift ;;
            --python) PYTHON=${2:?--python needs a program}; shift ;;
            -h|--help) usage; exit 0 ;;
            *) usage >&2; die "unknown option $1" ;;
        esac
        shift
    done
}

check_system() {
    if [[ $DRY_RUN == 0 && $EUID -ne 0 ]]; then
        die "run as root: sudo $0 $*  (or --dry-run to see what it would do)"
    fi
    [[ -f $SOURCE/pyproject.toml ]] || die "$SOURCE is not the dice table's checkout (no pyproject.toml)"
    local codename=""
    if [[ -r /etc/os-release ]]; then
        # shellcheck source=/dev/null
        codename=$(. /etc/os-release && printf '%s' "${VERSION_CODENAME:-}")
    fi
    if [[ $codename != bookworm ]]; then
        warn "this is made for Raspberry Pi OS Bookworm; found '${codename:-unknown}', going on anyway"
    fi
}

install_packages() {
    if [[ $SKIP_APT == 1 ]]; then
        say "apt packages: skipped (--skip-apt)"
        return
    fi
    say "apt packages"
    run apt-get update
    run apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"
}

create_user() {
    if id -u "$SERVICE_USER" >/dev/null 2>&1; then
        say "user $SERVICE_USER exists"
    else
        say "user $SERVICE_USER"
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "The dice table" "$SERVICE_USER"
    fi
    local group
    for group in "${SERVICE_GROUPS[@]}"; do
        # the unit names all four (SupplementaryGroups): a missing one would stop it from starting
        if ! getent group "$group" >/dev/null; then
            warn "group $group does not exist here (not a Raspberry Pi?); creating it so the unit can start"
            run groupadd --system "$group"
        fi
    done
    run usermod --append --groups "$(IFS=,; printf '%s' "${SERVICE_GROUPS[*]}")" "$SERVICE_USER"
    run install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$STATE_DIR"
}

create_venv() {
    local venv=$PREFIX/venv
    if [[ -x $venv/bin/python ]] && grep -q '^include-system-site-packages = true' "$venv/pyvenv.cfg" 2>/dev/null; then
        say "virtual environment $venv exists"
    else
        if [[ -e $venv ]]; then
            say "virtual environment $venv cannot see the system's packages (picamera2): making it again"
            run rm -rf "$venv"
        fi
        say "virtual environment $venv"
        run install -d -m 0755 "$PREFIX"
        run "$PYTHON" -m venv --system-site-packages "$venv"
    fi
}

install_appliance() {
    local pip=$PREFIX/venv/bin/pip
    say "the appliance from $SOURCE"
    # picamera2's compiled helpers from apt are built against Bookworm's numpy 1.x: keep numpy (and
    # the OpenCV that would pull numpy 2) at versions that work with them.
    # pip's pygame wheels bring an SDL without KMSDRM, so no kiosk screen: the venv uses apt's python3-pygame,
    # and a pygame of its own (left by an earlier install) would hide it
    if compgen -G "$PREFIX/venv/lib/python3*/site-packages/pygame.libs" > /dev/null; then
        run "$pip" uninstall -y pygame
    fi
    run "$pip" install --constraint "$HERE/constraints-bookworm.txt" "$SOURCE"
    # the same version number again is not reinstalled by pip: force the checkout's code in
    run "$pip" install --no-deps --force-reinstall "$SOURCE"
    run ln -sfn "$PREFIX/venv/bin/dicetable" "$BIN_LINK"
    if [[ -f $SOURCE/docs/SETUP.md ]]; then
        run install -m 0644 "$SOURCE/docs/SETUP.md" "$PREFIX/SETUP.md"
    fi
}

write_settings() {
    local settings=$CONF_DIR/settings.toml
    if [[ -f $settings ]]; then
        say "settings $settings exist: kept as they are"
        return
    fi
    say "settings $settings (the defaults, with the profile in $STATE_DIR)"
    run install -d -m 0755 "$CONF_DIR"
    run install -m 0644 "$SOURCE/appliance/default_settings.toml" "$settings"
    run sed -i "s|^profile = .*|profile = \"$STATE_DIR/calibration.toml\"|" "$settings"
}

install_unit() {
    local unit=$UNIT_DIR/$UNIT
    say "systemd unit $unit"
    run install -m 0644 "$HERE/$UNIT" "$unit"
    if [[ $PREFIX != /opt/dicetable || $SERVICE_USER != dicetable ]]; then
        run sed -i -e "s|/opt/dicetable|$PREFIX|g" -e "s|^User=.*|User=$SERVICE_USER|" \
            -e "s|^Group=.*|Group=$SERVICE_USER|" "$unit"
    fi
    run systemctl daemon-reload
    run systemctl enable "$UNIT"
}

allow_power_off() {
    say "polkit rule $POLKIT_RULE: $SERVICE_USER may shut the Pi down (the table's menu)"
    run install -d -m 0755 "$(dirname "$POLKIT_RULE")"
    run install -m 0644 "$HERE/50-dicetable.rules" "$POLKIT_RULE"
    if [[ $SERVICE_USER != dicetable ]]; then
        run sed -i "s|\"dicetable\"|\"$SERVICE_USER\"|" "$POLKIT_RULE"
    fi
}

boot_to_console() {
    if [[ $KEEP_DESKTOP == 1 ]]; then
        say "boot target left as it is (--keep-desktop): the kiosk cannot take the screen from a desktop"
        return
    fi
    local target
    target=$(systemctl get-default 2>/dev/null || true)
    if [[ $target == multi-user.target ]]; then
        say "boots to the console already"
    else
        say "boot to the console, not the desktop (was: ${target:-unknown})"
        run systemctl set-default multi-user.target
    fi
}

start_service() {
    if [[ $START == 1 ]]; then
        run systemctl restart "$UNIT"
    fi
}

next_steps() {
    cat <<STEPS

Installed$([[ $DRY_RUN == 1 ]] && printf ' (dry run: nothing was changed)').
Next:
  dicetable doctor                                   what camera, buttons and display were found
  sudo systemctl stop dicetable
  sudo -u $SERVICE_USER sh -c 'cd $STATE_DIR && dicetable calibrate'
                                                     the calibration wizard on the screen
  sudo reboot                                        the table starts by itself from now on
  journalctl -u dicetable -f                         its log
STEPS
}

main() {
    parse_args "$@"
    check_system "$@"
    install_packages
    create_user
    create_venv
    install_appliance
    write_settings
    install_unit
    allow_power_off
    boot_to_console
    start_service
    next_steps
}

main "$@"
