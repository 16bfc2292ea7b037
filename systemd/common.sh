# Shared by install.sh, uninstall.sh and update.sh (sourced, not run). DRY_RUN=1: print, do nothing.
# shellcheck shell=bash

say() { printf '==> %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# A command as one would type it: words with spaces or quotes shown in single quotes.
show() {
    local word words=()
    for word in "$@"; do
        if [[ $word =~ ^[][A-Za-z0-9_./:=,@%+-]+$ ]]; then
            words+=("$word")
        else
            words+=("'${word//\'/\'\\\'\'}'")
        fi
    done
    printf '+ %s\n' "${words[*]}"
}

# Every change goes through run: printed, then done unless --dry-run.
run() {
    show "$@"
    if [[ ${DRY_RUN:-0} == 0 ]]; then
        "$@"
    fi
}
