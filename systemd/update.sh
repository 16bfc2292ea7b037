#!/usr/bin/env bash
# Updates the dice table from its git checkout: pulls the newest code, installs it into the virtual
# environment (install.sh without apt) and restarts the service.
#
#   sudo systemd/update.sh [--dry-run] [other install.sh options]
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=common.sh
. "$HERE/common.sh"
SOURCE=$(dirname "$HERE")
DRY_RUN=0   # read by run() (common.sh)
export DRY_RUN
for arg in "$@"; do
    if [[ $arg == --dry-run ]]; then
        DRY_RUN=1
    fi
done

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
