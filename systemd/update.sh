#!/usr/bin/env bash
# Installs a new version of boardctl beside the one in use, switches to it, and goes
# back to the old one by itself if the new one does not become ready.  install.sh
# puts this script (with dryrun.sh) in /usr/local/lib/boardctl, linked from
# /usr/local/sbin/boardctl-update; run it as root.
#
#   boardctl-update install [--offline] [--no-restart] SOURCE
#                              SOURCE: a boardctl checkout, or a wheel or sdist file;
#                              built into a version of its own, then switched to
#   boardctl-update switch [--no-restart] VERSION   switch to an installed version
#   boardctl-update rollback   back to the previous version
#   boardctl-update list       the installed versions, the one in use marked
#   boardctl-update --dry-run COMMAND ...   show what it would do, change nothing
#
# Each version is a virtual environment of its own; the service runs whichever one
# the link /opt/boardctl/venv names (systemd/boardctl.service's ExecStart), so a
# switch is one rename of a link.  A switch restarts the service and waits for it:
# under Type=notify "systemctl restart" returns once boardctl says READY=1 (or fails),
# and the new version must then keep running for 20 seconds (BOARDCTL_SETTLE_MS).  If it
# does not, the link goes back and the old version is started again.  Until the new
# version has passed, /opt/boardctl/trial names the version to go back to, so that a
# failure this script does not see (it was stopped, the Pi lost power and the new
# version fails at boot) is caught too: the unit's OnFailure= starts
# boardctl-rollback.service, which runs "boardctl-update rollback --if-trial" when
# the service fails (systemd 257: at each failed start; while an updater runs, it
# leaves the going back to that updater).
#
#   --offline      install from /opt/boardctl/wheels only (the card image keeps the
#                  wheels it was built from there), not from the package index
#   --no-restart   switch the link only (building a card image; no service runs)
#
# Layout:
#   /opt/boardctl/versions/VERSION   one virtual environment per version
#                                    (VERSION: boardctl's version, then the UTC time)
#   /opt/boardctl/venv -> versions/… the version in use
#   /opt/boardctl/previous -> …      the version used before it (what rollback takes)
#   /opt/boardctl/trial              while a new version is on trial: what to go back to
# An older install's /opt/boardctl/venv (a folder, not a link) becomes a version of
# its own the first time, so that it can be gone back to.
#
# Environment (the tests use these): BOARDCTL_PREFIX (/opt/boardctl), BOARDCTL_UNIT
# (boardctl.service), BOARDCTL_PYTHON (/usr/bin/python3), BOARDCTL_SETTLE_MS (20000),
# BOARDCTL_CHECK_MS (1000), SYSTEMCTL (systemctl), BOARDCTL_LOCK (/run/boardctl-update.lock).
set -euo pipefail

readonly PREFIX=${BOARDCTL_PREFIX:-/opt/boardctl}
readonly VERSIONS=$PREFIX/versions
readonly CURRENT=$PREFIX/venv
readonly PREVIOUS=$PREFIX/previous
readonly TRIAL=$PREFIX/trial
readonly WHEELHOUSE=$PREFIX/wheels
readonly UNIT=${BOARDCTL_UNIT:-boardctl.service}
readonly PYTHON=${BOARDCTL_PYTHON:-/usr/bin/python3}
# Milliseconds the new version must keep running after it said ready: one that starts
# and falls over at its first game (a missing library, a crash in the loop) is caught.
# It is looked at every CHECK_MS meanwhile (the tests shorten both, to the same
# number of checks).
readonly SETTLE_MS=${BOARDCTL_SETTLE_MS:-20000}
readonly CHECK_MS=${BOARDCTL_CHECK_MS:-1000}
readonly SYSTEMCTL=${SYSTEMCTL:-systemctl}
readonly LOCK=${BOARDCTL_LOCK:-/run/boardctl-update.lock}
readonly EXTRAS=pi,display,web,remote

DRY_RUN=0
OFFLINE=0
RESTART=1

usage() { sed -n '2,14s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"; }
say() { printf 'boardctl-update: %s\n' "$*"; }
die() { printf 'boardctl-update: %s\n' "$*" >&2; exit 1; }

# run: a command, or only what it would be under --dry-run.  Beside this script,
# whether it is run from a checkout or as the link install.sh makes to it.
# shellcheck source=systemd/dryrun.sh disable=SC1091
source "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/dryrun.sh"

# The version a link names ("" for none), as a name under versions/.
version_of() {
    local target
    [[ -L $1 ]] || return 0
    target=$(readlink "$1")
    printf '%s\n' "${target##*/}"
}

# Points link $1 at versions/$2 in one step (a new link renamed over the old one).
point() {
    run ln -sfn "versions/$2" "$1.new"
    run mv -Tf "$1.new" "$1"
}

unit_state() { "$SYSTEMCTL" show -p "$1" --value "$UNIT" 2>/dev/null || true; }

# Milliseconds as seconds with a decimal point, for sleep(1) and for people.
seconds() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

# The service restarted and ready, and still running the same process SETTLE_MS
# later.  Under Type=notify, restart returns once READY=1 came (or fails).
healthy() {
    if ((DRY_RUN)); then
        run "$SYSTEMCTL" restart "$UNIT"
        return 0
    fi
    say "restarting $UNIT and waiting for it to be ready"
    "$SYSTEMCTL" restart "$UNIT" || return 1
    local pid waited=0
    pid=$(unit_state MainPID)
    while ((waited < SETTLE_MS)); do
        sleep "$(seconds "$CHECK_MS")"
        waited=$((waited + CHECK_MS))
        [[ $(unit_state ActiveState) == active && $(unit_state MainPID) == "$pid" ]] || return 1
    done
    say "$UNIT is ready and kept running for $(seconds "$SETTLE_MS") s"
}

# An older install's venv folder becomes versions/legacy-…: moved, and its scripts'
# first lines (#!/opt/boardctl/venv/bin/python) follow it.
adopt_legacy() {
    [[ -d $CURRENT && ! -L $CURRENT ]] || return 0
    local id
    id=legacy-$(date -u -r "$CURRENT" +%Y%m%dT%H%M%SZ)
    say "the venv in use, $CURRENT, becomes version $id"
    run mkdir -p "$VERSIONS"
    run mv -T "$CURRENT" "$VERSIONS/$id"
    local script
    for script in "$VERSIONS/$id"/bin/*; do
        [[ -f $script && ! -L $script ]] || continue
        if head -n 1 "$script" 2>/dev/null | grep -q "^#!$CURRENT/bin/"; then
            run sed -i "1s|^#!$CURRENT/bin/|#!$VERSIONS/$id/bin/|" "$script"
        fi
    done
    point "$CURRENT" "$id"
}

# The version a source will be: boardctl's version (from the wheel's or sdist's name,
# or the checkout's pyproject.toml) and the time, e.g. 0.1.0-20250101T120000Z.
new_version_id() {
    local source=$1 version name
    if [[ -d $source ]]; then
        version=$("$PYTHON" -c 'import sys, tomllib
with open(sys.argv[1], "rb") as f:
    print(tomllib.load(f)["project"]["version"])' "$source/pyproject.toml") \
            || die "$source/pyproject.toml has no version"
    else
        name=${source##*/}
        version=${name#boardctl-}
        version=${version%%-*}
        version=${version%.tar.gz}
        version=${version%.zip}
    fi
    [[ $version =~ ^[A-Za-z0-9.+_]+$ ]] || die "cannot tell the version of $source"
    printf '%s-%s\n' "$version" "$(date -u +%Y%m%dT%H%M%SZ)"
}

cmd_install() {
    local source=${1:-}
    [[ -n $source ]] || die "install: name a checkout, a wheel or an sdist (try --help)"
    [[ -e $source ]] || die "install: $source is not there"
    source=$(realpath "$source")
    if [[ -d $source && ! -f $source/pyproject.toml ]]; then
        die "install: $source is not a boardctl checkout (no pyproject.toml)"
    fi
    local id target
    id=$(new_version_id "$source")
    target=$VERSIONS/$id
    say "installing $source as version $id"
    run mkdir -p "$VERSIONS"
    run "$PYTHON" -m venv "$target"
    local pip=("$target/bin/pip" install --disable-pip-version-check --no-cache-dir)
    ((!OFFLINE)) || pip+=(--no-index --find-links "$WHEELHOUSE")
    # lgpio has no wheel for arm64: it is compiled, against the system's liblgpio
    # where there is one (Raspberry Pi OS), else with that library built in (PYPI=1,
    # lgpio's own switch for it; Debian has no liblgpio).
    local environment=()
    ldconfig -p 2>/dev/null | grep -q 'liblgpio\.so' || environment=(env PYPI=1)
    local what=$source build=""
    if [[ -d $source ]]; then
        # Build from a copy: pip writes build/ and *.egg-info into the source tree,
        # and root-owned files there would get in the way of the checkout's owner.
        if ((DRY_RUN)); then
            build=/tmp/boardctl-build.XXXXXX
        else
            build=$(mktemp -d /tmp/boardctl-build.XXXXXX)
            # shellcheck disable=SC2064  # expand $build now, while it is set
            trap "rm -rf '$build'" EXIT
            tar -C "$source" --exclude=./.git --exclude=./.venv --exclude='./.*_cache' \
                --exclude=./.hypothesis --exclude=./build --exclude='*.egg-info' \
                --exclude='__pycache__' --exclude='*.so' -cf - . | tar -C "$build" -xf -
        fi
        echo "    copied the checkout to $build (without .git, .venv and caches)"
        what=$build
    fi
    # An absolute path with the extras: a bare name would be looked up in the index.
    if ! run "${environment[@]}" "${pip[@]}" "${what}[$EXTRAS]"; then
        run rm -rf "$target"
        die "install: pip could not install $source; nothing was switched"
    fi
    if ((!DRY_RUN)); then
        # The command the service runs must at least start and read its arguments.
        if ! "$target/bin/boardctl" --help >/dev/null; then
            rm -rf "$target"
            die "install: the new $target/bin/boardctl does not run; nothing was switched"
        fi
        printf 'installed %s from %s\n' "$(date -u +%FT%TZ)" "$source" >"$target/.boardctl-version"
    fi
    cmd_switch "$id"
}

cmd_switch() {
    local id=${1:-}
    [[ -n $id ]] || die "switch: name a version (boardctl-update list)"
    id=${id##*/}
    [[ -x $VERSIONS/$id/bin/boardctl ]] || ((DRY_RUN)) \
        || die "switch: no version $id in $VERSIONS"
    adopt_legacy
    local from before
    from=$(version_of "$CURRENT")
    before=$(version_of "$PREVIOUS")
    if [[ $from == "$id" ]]; then
        say "version $id is already in use"
        return 0
    fi
    if [[ -z $from ]] || ((!RESTART)); then
        # The first install (nothing to go back to), or a card being built.
        [[ -z $from ]] || point "$PREVIOUS" "$from"
        point "$CURRENT" "$id"
        say "version $id is in use${from:+ (previous: $from)}"
        if ((RESTART)); then
            run "$SYSTEMCTL" restart "$UNIT" || die "$UNIT did not start; see: journalctl -u $UNIT -b"
        fi
        return 0
    fi
    say "switching from $from to $id"
    if ((!DRY_RUN)); then
        printf 'from=%s\nprevious=%s\nto=%s\n' "$from" "$before" "$id" >"$TRIAL"
    fi
    point "$PREVIOUS" "$from"
    point "$CURRENT" "$id"
    if healthy; then
        run rm -f "$TRIAL"
        say "version $id is in use (previous: $from)"
        prune
        return 0
    fi
    say "version $id did not become ready: going back to $from"
    go_back
    die "stayed with version $from: $id did not become ready (journalctl -u $UNIT -b)"
}

# Back to the version the trial file names, and start it.
go_back() {
    local from before to
    from=$(sed -n 's/^from=//p' "$TRIAL")
    before=$(sed -n 's/^previous=//p' "$TRIAL")
    to=$(sed -n 's/^to=//p' "$TRIAL")
    [[ -n $from && -d $VERSIONS/$from ]] || die "the trial file names no version to go back to"
    point "$CURRENT" "$from"
    if [[ -n $before && -d $VERSIONS/$before ]]; then
        point "$PREVIOUS" "$before"
    else
        run rm -f "$PREVIOUS"
    fi
    run rm -f "$TRIAL"
    say "version $from is in use again (the failed $to is kept in $VERSIONS)"
    "$SYSTEMCTL" reset-failed "$UNIT" 2>/dev/null || true
    if ((RESTART)); then
        "$SYSTEMCTL" restart "$UNIT" || say "$UNIT did not start again either"
    fi
}

cmd_rollback() {
    if [[ ${1:-} == --if-trial ]]; then
        # boardctl-rollback.service: the service failed; undo an update on trial.
        if [[ ! -f $TRIAL ]]; then
            say "$UNIT failed, but no update is on trial: nothing to go back to"
            return 0
        fi
        say "$UNIT failed while version $(version_of "$CURRENT") was on trial"
        RESTART=0
        go_back
        # From OnFailure=: queue the start rather than wait on it from inside a job.
        "$SYSTEMCTL" start --no-block "$UNIT"
        return 0
    fi
    local previous
    previous=$(version_of "$PREVIOUS")
    [[ -n $previous ]] || die "rollback: there is no previous version"
    cmd_switch "$previous"
}

# Keeps the version in use and the previous one; removes the others.
prune() {
    local keep_current keep_previous dir
    keep_current=$(version_of "$CURRENT")
    keep_previous=$(version_of "$PREVIOUS")
    [[ -d $VERSIONS ]] || return 0
    for dir in "$VERSIONS"/*/; do
        dir=${dir%/}
        [[ -d $dir ]] || continue
        case ${dir##*/} in
            "$keep_current" | "$keep_previous") ;;
            *) say "removing the old version ${dir##*/}"; run rm -rf "$dir" ;;
        esac
    done
}

cmd_list() {
    local current previous dir name mark
    current=$(version_of "$CURRENT")
    previous=$(version_of "$PREVIOUS")
    [[ -d $VERSIONS ]] || { say "no versions in $VERSIONS"; return 0; }
    for dir in "$VERSIONS"/*/; do
        dir=${dir%/}
        [[ -d $dir ]] || continue
        name=${dir##*/}
        mark="  "
        [[ $name != "$previous" ]] || mark="p "
        [[ $name != "$current" ]] || mark="* "
        printf '%s%s\n' "$mark" "$name"
    done
    [[ ! -f $TRIAL ]] || say "on trial: $(sed -n 's/^to=//p' "$TRIAL")"
}

main() {
    local args=() command=""
    while (($#)); do
        case $1 in
            --dry-run | -n) DRY_RUN=1 ;;
            --offline) OFFLINE=1 ;;
            --no-restart) RESTART=0 ;;
            --help | -h) usage; exit 0 ;;
            --if-trial) args+=("$1") ;;
            -*) die "unknown option: $1 (try --help)" ;;
            *) if [[ -z $command ]]; then command=$1; else args+=("$1"); fi ;;
        esac
        shift
    done
    if ((!DRY_RUN)) && [[ $command != list && $command != "" ]]; then
        ((EUID == 0)) || [[ -n ${BOARDCTL_PREFIX:-} ]] || die "run as root: sudo $0 $command"
        exec 9>"$LOCK"
        if ! flock -n 9; then
            # boardctl-rollback.service (the unit's OnFailure=) while an updater runs:
            # that updater watches its new version and goes back itself.
            if [[ $command == rollback && ${args[0]:-} == --if-trial ]]; then
                say "another boardctl-update is running: it goes back itself if its version fails"
                exit 0
            fi
            die "another boardctl-update is running"
        fi
    fi
    case $command in
        install) cmd_install "${args[@]}" ;;
        switch) cmd_switch "${args[@]}" ;;
        rollback) cmd_rollback "${args[@]}" ;;
        list) cmd_list ;;
        "") usage; exit 1 ;;
        *) die "unknown command: $command (try --help)" ;;
    esac
}

main "$@"
