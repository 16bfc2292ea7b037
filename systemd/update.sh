#!/usr/bin/env bash
# Updates the dice table from its git checkout: pulls the newest code, installs it into the virtual
# environment (install.sh without apt) and restarts the service.
#
#   sudo systemd/update.sh [--dry-run] [other install.sh options]
#
# The other options are passed on to install.sh (`systemd/install.sh --help` lists them); it is always run
# with --skip-apt --start. --dry-run prints every action (lines starting with "+") and changes nothing.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$HERE/common.sh"
SOURCE=$(dirname "$HERE")
DRY_RUN=0   # read by run() (common.sh)
export DRY_RUN

# the comment block at the top of this script, without its "#"
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

for arg in "$@"; do
    case $arg in
        --dry-run) DRY_RUN=1 ;;
        -h|--help) usage; exit 0 ;;   # before anything is pulled
    esac
done
# refused before the pull: install.sh would refuse after it, leaving the checkout updated but not installed
if [[ $DRY_RUN == 0 && $EUID -ne 0 ]]; then
    die "run as root: sudo $0 $*  (or --dry-run to see what it would do)"
fi

if [[ -d $SOURCE/.git ]]; then
    # pull as the checkout's owner, so that root does not end up owning files in it
    owner=$(stat -c %U "$SOURCE")
    if [[ $owner != "$(id -un)" ]]; then
        run sudo -u "$owner" git -C "$SOURCE" pull --ff-only
    else
        run git -C "$SOURCE" pull --ff-only
    fi
else
    warn "$SOURCE is not a git checkout; installing it as it is"
fi
# the pulled install.sh, which may differ from the one that was there before (it does --dry-run itself)
exec "$HERE/install.sh" --skip-apt --start "$@"
