#!/usr/bin/env bash
# Installs boardctl as a service on Raspberry Pi OS (bookworm), from the checkout
# this script sits in.  Run as root; running it again upgrades boardctl in place
# and changes nothing else that is already set up.
#
#   sudo systemd/install.sh             install, enable and (re)start the service
#   systemd/install.sh --dry-run        print what it would do, change nothing
#   sudo systemd/install.sh --package FILE --no-start
#                                       install FILE (a wheel or sdist of boardctl)
#                                       rather than this checkout, and start nothing
#                                       (image/build.sh, making a card image)
#
# What goes where (systemd/boardctl.service expects exactly these paths):
#   system user and group  boardctl, in the groups gpio spi dialout video render input
#   /opt/boardctl/versions/*  one virtual environment with boardctl[pi,display,web,remote]
#                          per installed version (systemd/update.sh)
#   /opt/boardctl/venv     a link to the version in use; running this script again
#                          installs a new version beside it, switches, and goes back
#                          by itself if the new one does not become ready
#   /usr/local/sbin/boardctl-update  that switch (systemd/update.sh): later updates,
#                          and going back by hand; a link to /usr/local/lib/boardctl/
#                          update.sh, beside dryrun.sh, which it sources
#   /opt/boardctl/README.md  the README, for the unit's Documentation=
#   /etc/boardctl/config.example.toml  every key, with its default and what it does
#   /etc/boardctl/config.toml  written by boardctl at its first start (the web
#                          page on, and a new PIN the board's screen shows)
#   /etc/systemd/system/boardctl.service, boardctl-rollback.service (OnFailure=)
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
readonly ROLLBACK_UNIT=boardctl-rollback.service
readonly UPDATE=/usr/local/sbin/boardctl-update
readonly TOOLS=/usr/local/lib/boardctl  # the updater and what it sources; UPDATE links to it
readonly UNIT_DIR=/etc/systemd/system
readonly STATE_DIR=/var/lib/boardctl
# Debian's Python, not whatever python3 comes first on root's PATH: a venv made
# from a Python under /root (pyenv) would not run as the service user.
readonly PYTHON=/usr/bin/python3
# Debian packages needed to build the extras: lgpio has no wheel for 64-bit Pi
# OS, so pip compiles it with swig against Raspberry Pi OS's liblgpio (Debian has
# none: there update.sh builds lgpio with the library inside); spidev is
# source-only; gcc and python3-dev also build the engine's compiled search core
# (without it the engine would search in Python, some 30 times slower);
# mosquitto is the broker a board runs itself for a remote game on its own network.
readonly APT_PACKAGES=(python3-venv python3-dev gcc swig espeak-ng mosquitto)
readonly APT_IF_KNOWN=(liblgpio-dev)

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly SRC
DRY_RUN=0
PACKAGE=""
START=1

usage() {
    sed -n '2,8s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

say() { printf '==> %s\n' "$*"; }
warn() { printf 'warning: %s\n' "$*" >&2; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

# run: a command, or only what it would be under --dry-run.
# shellcheck source=systemd/dryrun.sh disable=SC1091
source "$SRC/systemd/dryrun.sh"

parse_args() {
    while (($#)); do
        case $1 in
            --dry-run|-n) DRY_RUN=1 ;;
            --no-start) START=0 ;;
            --package)
                (($# > 1)) || die "--package: name a wheel or sdist of boardctl"
                PACKAGE=$2
                shift
                ;;
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
    local missing=() package wanted=("${APT_PACKAGES[@]}")
    for package in "${APT_IF_KNOWN[@]}"; do
        if apt-cache show "$package" >/dev/null 2>&1; then
            wanted+=("$package")
        fi
    done
    for package in "${wanted[@]}"; do
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

install_tools() {
    say "the updater $UPDATE and $ROLLBACK_UNIT"
    run install -d -m 0755 "$PREFIX" "$TOOLS"
    run install -m 0755 "$SRC/systemd/update.sh" "$TOOLS/update.sh"
    run install -m 0644 "$SRC/systemd/dryrun.sh" "$TOOLS/dryrun.sh"
    run ln -sfn "$TOOLS/update.sh" "$UPDATE"
    run install -m 0644 "$SRC/README.md" "$PREFIX/README.md"
}

# A new version beside the one in use (none at the first install), then the switch:
# the updater restarts the service, waits until it is ready, and goes back to the
# version before if it is not.  Never an editable install: the service cannot see a
# checkout under /home (ProtectHome=yes), and the venv must not change when the
# checkout does.
install_version() {
    local source=${PACKAGE:-$SRC} options=()
    say "a new version of boardctl[pi,display,web,remote] from $source in $PREFIX/versions, linked from $VENV"
    if ((DRY_RUN)); then
        options+=(--dry-run)
    fi
    if ((!START)); then
        options+=(--no-restart)
    fi
    if ((DRY_RUN)); then
        # Shows its own steps, changing nothing.
        "$SRC/systemd/update.sh" "${options[@]}" install "$source"
    else
        run "$UPDATE" "${options[@]}" install "$source"
    fi
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
    say "systemd units $UNIT_DIR/$UNIT and $UNIT_DIR/$ROLLBACK_UNIT"
    run install -m 0644 "$SRC/systemd/$UNIT" "$UNIT_DIR/$UNIT"
    run install -m 0644 "$SRC/systemd/$ROLLBACK_UNIT" "$UNIT_DIR/$ROLLBACK_UNIT"
    # Only where systemd runs: building a card image, the root is a chroot, where
    # systemd 257 refuses a reload (enable works offline, on the files alone).
    if [[ -d /run/systemd/system ]] || ((DRY_RUN)); then
        run systemctl daemon-reload
    fi
    run systemctl enable "$UNIT"
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
    install_tools
    install_config
    install_unit
    install_version
    ((!START)) || next_steps
}

main "$@"
