#!/usr/bin/env bash
# Installs boardctl as a service on Raspberry Pi OS (bookworm), from the checkout
# this script sits in.  Run as root; running it again upgrades boardctl in place
# and changes nothing else that is already set up.
#
#   sudo systemd/install.sh             install, enable and (re)start the service
#   systemd/install.sh --dry-run        print what it would do, change nothing
#
# What goes where (systemd/boardctl.service expects exactly these paths):
#   system user and group  boardctl, in the groups gpio spi dialout video render input
#   /opt/boardctl/venv     virtual environment with boardctl[pi,display,web,remote]
#   /opt/boardctl/README.md  the README, for the unit's Documentation=
#   /etc/boardctl/config.example.toml  every key, with its default and what it does
#   /etc/boardctl/config.toml  written by boardctl at its first start (the web
#                          page on, and a new PIN the board's screen shows)
#   /etc/systemd/system/boardctl.service
#   /var/lib/boardctl      state (games); systemd creates it (StateDirectory=)
# The unit file is overwritten on every run: keep local changes in a drop-in
# (systemctl edit boardctl).
set -euo pipefail

readonly USER_NAME=boardctl
readonly GROUPS_NEEDED=(gpio spi dialout video render input audio)
readonly PREFIX=/opt/boardctl
readonly VENV=$PREFIX/venv
readonly CONFIG_DIR=/etc/boardctl
readonly CONFIG=$CONFIG_DIR/config.toml
readonly UNIT=boardctl.service
readonly UNIT_DIR=/etc/systemd/system
readonly STATE_DIR=/var/lib/boardctl
# Debian's Python, not whatever python3 comes first on root's PATH: a venv made
# from a Python under /root (pyenv) would not run as the service user.
readonly PYTHON=/usr/bin/python3
# Debian packages needed to build the extras: lgpio has no wheel for 64-bit Pi
# OS, so pip compiles it with swig against Raspberry Pi OS's liblgpio; spidev is
# source-only; gcc and python3-dev also build the engine's compiled search core
# (without it the engine would search in Python, some 30 times slower);
# mosquitto is the broker a board runs itself for a remote game on its own network.
readonly APT_PACKAGES=(python3-venv python3-dev gcc swig liblgpio-dev espeak-ng mosquitto)

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly SRC
DRY_RUN=0

usage() {
    sed -n '2,8s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

say() { printf '==> %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

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

parse_args() {
    while (($#)); do
        case $1 in
            --dry-run|-n) DRY_RUN=1 ;;
            --help|-h) usage; exit 0 ;;
            *) die "unknown argument: $1 (try --help)" ;;
        esac
        shift
    done
}

check_system() {
    say "checking the system"
    if ((!DRY_RUN)) && ((EUID != 0)); then
        die "run as root: sudo $0"
    fi
    [[ -f $SRC/pyproject.toml && -f $SRC/systemd/$UNIT ]] \
        || die "$SRC does not look like a boardctl checkout"
    if ! grep -qs "Raspberry Pi" /proc/device-tree/model; then
        warn "this does not look like a Raspberry Pi: the service will not find its hardware"
    fi
    [[ -x $PYTHON ]] || die "$PYTHON is missing: apt-get install python3"
    "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "boardctl needs Python 3.11 or newer (Raspberry Pi OS bookworm has it)"
}

install_packages() {
    say "Debian packages: ${APT_PACKAGES[*]}"
    local missing=() package
    for package in "${APT_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed"; then
            missing+=("$package")
        fi
    done
    if ((${#missing[@]} == 0)); then
        echo "    all installed"
        return
    fi
    run apt-get update
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${missing[@]}"
}

create_user() {
    say "system user $USER_NAME with groups ${GROUPS_NEEDED[*]}"
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        # All exist on Raspberry Pi OS; elsewhere create them so the unit's
        # SupplementaryGroups= resolves (udev rules decide what they open).
        if ! getent group "$group" >/dev/null; then
            run groupadd --system "$group"
        fi
    done
    if getent passwd "$USER_NAME" >/dev/null; then
        echo "    user $USER_NAME exists"
    else
        # No login, no home of its own: its home is the state directory.
        run useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "boardctl chess board" "$USER_NAME"
    fi
    # For `sudo -u boardctl boardctl diag`; the service gets its groups from the unit.
    local IFS=,
    run usermod --append --groups "${GROUPS_NEEDED[*]}" "$USER_NAME"
}

install_venv() {
    say "virtual environment $VENV with boardctl[pi,display,web,remote] from $SRC"
    if [[ -x $VENV/bin/python ]]; then
        echo "    $VENV exists: upgrading boardctl in it"
    else
        run install -d -m 0755 "$PREFIX"
        run "$PYTHON" -m venv "$VENV"
    fi
    # Build from a copy: pip writes build/ and *.egg-info into the source tree, and
    # root-owned files there would get in the way of the checkout's owner.  Never
    # an editable install: the service cannot see a checkout under /home
    # (ProtectHome=yes), and the venv must not change when the checkout does.
    local build
    if ((DRY_RUN)); then
        build=/tmp/boardctl-build.XXXXXX
    else
        build=$(mktemp -d /tmp/boardctl-build.XXXXXX)
        # shellcheck disable=SC2064  # expand $build now, while it is set
        trap "rm -rf '$build'" EXIT
    fi
    echo "    copying the checkout to $build (without .git, .venv and caches)"
    if ((!DRY_RUN)); then
        tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude='./.*_cache' \
            --exclude=./.hypothesis --exclude=./build --exclude='*.egg-info' \
            --exclude='__pycache__' --exclude='*.so' -cf - . | tar -C "$build" -xf -
    fi
    # An absolute path: a bare name would make pip look for a package of that name.
    run "$VENV/bin/pip" install --disable-pip-version-check --no-cache-dir \
        "${build}[pi,display,web,remote]"
    run install -m 0644 "$SRC/README.md" "$PREFIX/README.md"
}

install_config() {
    say "configuration $CONFIG"
    # The service's group may write here: the first start writes the
    # configuration, and the web page's settings replace it.
    run install -d -m 0775 -g "$USER_NAME" "$CONFIG_DIR"
    run install -m 0644 "$SRC/systemd/config.example.toml" "$CONFIG_DIR/config.example.toml"
    if [[ -e $CONFIG ]]; then
        echo "    $CONFIG exists: kept as it is (compare with $CONFIG_DIR/config.example.toml)"
    else
        echo "    $CONFIG: written at the first start; the board's screen then shows"
        echo "    the settings page's address and its PIN"
    fi
}

install_unit() {
    say "systemd unit $UNIT_DIR/$UNIT"
    run install -m 0644 "$SRC/systemd/$UNIT" "$UNIT_DIR/$UNIT"
    run systemctl daemon-reload
    run systemctl enable "$UNIT"
    # restart, not start: after an upgrade the running daemon must pick up the new code.
    if ! run systemctl restart "$UNIT"; then
        warn "$UNIT did not start; see: journalctl -u $UNIT -b"
    fi
}

next_steps() {
    cat <<EOF

Next steps
  1. Enable SPI (LEDs, 74HC165 sensors) and reboot:
       sudo raspi-config nonint do_spi 0 && sudo reboot
  2. Boot to the console, not the desktop: a desktop holds the display that
     boardctl draws on full screen (KMSDRM):
       sudo raspi-config nonint do_boot_behaviour B1
  3. Wire the board as the README shows, set [board] sensors in $CONFIG,
     and check every sensor, LED and button with the service stopped (LG_WD: lgpio
     needs a directory the user may write to):
       sudo systemctl stop $UNIT
       sudo -u $USER_NAME env LG_WD=/tmp $VENV/bin/boardctl diag
       sudo systemctl start $UNIT
  4. Follow the daemon:
       systemctl status $UNIT
       journalctl -u $UNIT -f
EOF
}

main() {
    parse_args "$@"
    if ((DRY_RUN)); then
        say "dry run: nothing is changed"
    fi
    check_system
    install_packages
    create_user
    install_venv
    install_config
    install_unit
    next_steps
}

main "$@"
