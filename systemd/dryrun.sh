# shellcheck shell=bash
# What install.sh and update.sh (boardctl-update) share: sourced by both, and
# installed beside the updater (install.sh).  The sourcing script sets DRY_RUN.

# Runs a command, or only shows it under --dry-run.
run() {
    if ((DRY_RUN)); then
        local arg
        printf '    would run:'
        for arg in "$@"; do
            if [[ $arg =~ ^[][A-Za-z0-9_@%+=:,./-]+$ ]]; then
                printf ' %s' "$arg"
            else
                printf ' %q' "$arg"
            fi
        done
        printf '\n'
    else
        "$@"
    fi
}
