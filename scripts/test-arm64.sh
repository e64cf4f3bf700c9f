#!/usr/bin/env bash
# Runs the rules and engine tests on arm64 (aarch64, the Pi's architecture) on any
# Debian x86-64 machine: in an arm64 Debian root under qemu-user emulation, with the
# engine's compiled core built there by the arm64 gcc.  A plain `char` is unsigned on
# aarch64 and the C ABI differs, so this is where a core that only works on x86-64
# shows up.  Run as root (debootstrap, chroot and mounts need it); `make test-arm64`.
#
#   sudo scripts/test-arm64.sh                     tests/rules tests/engine (but one
#                                                  test, which emulation cannot judge)
#   sudo scripts/test-arm64.sh tests/engine/test_core.py -x    any pytest arguments
#
# Environment:
#   ARM64_ROOT     the arm64 root (default /var/tmp/boardctl-arm64); made once with
#                  debootstrap, reused while complete; the working tree is copied in
#                  afresh on every run
#   ARM64_RELEASE  Debian release of the root (default bookworm, Python 3.11 as on
#                  Raspberry Pi OS bookworm)
#   ARM64_MIRROR   Debian mirror for debootstrap; by default the host's own, read from
#                  its apt sources (no mirror is written in the repository)
#   ARM64_TIMEOUT  seconds one test may take (default 1800): emulation is several times
#                  slower than the host, and the ini's 300 s is for native runs
#   ARM64_HOST_PYTHON  the host's Python whose pip fetches the test tools (default: the
#                  checkout's .venv, else python3)
# The root needs no network after debootstrap: the host's pip, with the host's own
# settings (index, proxy, certificates), downloads aarch64 wheels of the test tools and
# pip in the root installs them from that directory alone.
#
# Each stage prints its wall time; the exit status is pytest's.
set -euo pipefail

readonly ROOT_DIR=${ARM64_ROOT:-/var/tmp/boardctl-arm64}
readonly RELEASE=${ARM64_RELEASE:-bookworm}
readonly TIMEOUT=${ARM64_TIMEOUT:-1800}
# Debian packages of the root: gcc, libc6-dev and python3-dev build the compiled core
# (setup.py makes it optional, so without them the install would quietly fall back to
# the Python search: the check after the install refuses that).
readonly PACKAGES=python3,python3-venv,python3-dev,gcc,libc6-dev
# What the rules and engine tests import besides boardctl (the [dev] extra's versions);
# setuptools because the package is installed without build isolation, with the venv's
# own setuptools, so that no run needs an index.  Nothing heavy: no pygame, no selenium.
readonly PIP_PACKAGES=("setuptools>=77" "pytest>=8" "hypothesis>=6" "pytest-timeout>=2.2")
readonly VENV=/opt/boardctl-venv
readonly WHEELS=/var/cache/boardctl-wheels
readonly SRC=/src/boardctl
readonly MARK=$ROOT_DIR/.boardctl-arm64
readonly DEBOOTSTRAP_LOG=$ROOT_DIR.debootstrap.log
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO

say() { printf 'test-arm64: %s\n' "$*"; }
die() { printf 'test-arm64: %s\n' "$*" >&2; exit 1; }

if [[ $(id -u) -ne 0 ]]; then
    echo "test-arm64: must run as root (debootstrap, chroot and mounts): sudo make test-arm64" >&2
    exit 2
fi
case $ROOT_DIR in
    /?*) ;;
    *) die "ARM64_ROOT must be an absolute path other than /, not '$ROOT_DIR'" ;;
esac

# shellcheck source=scripts/lib/stage-times.sh disable=SC1091
source "$REPO/scripts/lib/stage-times.sh"
# shellcheck source=scripts/lib/worktree.sh disable=SC1091
source "$REPO/scripts/lib/worktree.sh"
stages_begin 14

# Mounts under the root, deepest first (the root's own /proc, /dev and its submounts).
mounts_under_root() {
    awk -v r="$ROOT_DIR/" 'index($2, r) == 1 { print $2 }' /proc/self/mounts | sort -r
}
unmount_root() {
    local m
    while IFS= read -r m; do
        umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null \
            || say "could not unmount $m"
    done < <(mounts_under_root)
}
PYTEST_LOG=""
# shellcheck disable=SC2317  # run by the EXIT trap, which shellcheck does not follow
cleanup() {
    unmount_root
    [[ -z $PYTEST_LOG ]] || rm -f "$PYTEST_LOG"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the host's tools -------------------------------------------------------------
missing=()
command -v debootstrap >/dev/null 2>&1 || missing+=(debootstrap)
[[ -x /usr/bin/qemu-aarch64-static ]] || missing+=(qemu-user-static)
command -v update-binfmts >/dev/null 2>&1 || missing+=(binfmt-support)
if ((${#missing[@]})); then
    say "installing ${missing[*]} on the host"
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; } \
        || die "could not install ${missing[*]} with apt-get"
fi

# aarch64 binaries run through qemu-aarch64-static, registered with binfmt_misc.  A
# container may not have binfmt_misc mounted; the 'F' flag makes the kernel open the
# interpreter at registration, so it need not exist inside the root.
readonly BINFMT=/proc/sys/fs/binfmt_misc
[[ -e $BINFMT/register ]] || mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null || true
if ! grep -qx enabled "$BINFMT/qemu-aarch64" 2>/dev/null; then
    update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
fi
grep -qx enabled "$BINFMT/qemu-aarch64" 2>/dev/null \
    || die "no aarch64 binfmt handler: $BINFMT/qemu-aarch64 is not enabled and update-binfmts --enable qemu-aarch64 failed (a container needs binfmt_misc from its host, or --privileged)"
# Without the 'F' flag the kernel looks the interpreter up inside the root at every
# exec: then a copy goes into the root (before debootstrap, which runs arm64 binaries).
interpreter=""
if ! grep -q '^flags:.*F' "$BINFMT/qemu-aarch64"; then
    interpreter=$(sed -n 's/^interpreter //p' "$BINFMT/qemu-aarch64")
    [[ -n $interpreter && -x $interpreter ]] \
        || die "cannot find the aarch64 handler's interpreter on the host"
fi
stage_done "host tools"

# --- the mirror: the host's own, never one written here ---------------------------
# deb822 sources (a stanza whose Suites include the release) first, then one-line ones.
host_mirror() {
    local f
    for f in /etc/apt/sources.list.d/*.sources; do
        [[ -r $f ]] || continue
        awk -v rel="$RELEASE" '
            function flush() {
                if (uri != "" && suite && deb && enabled) { print uri; found = 1; exit }
                uri = ""; suite = 0; deb = 0; enabled = 1
            }
            BEGIN { enabled = 1 }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            tolower($1) == "uris:" { uri = $2 }
            tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == rel) suite = 1 }
            tolower($1) == "types:" { for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1 }
            tolower($1) == "enabled:" { enabled = tolower($2) != "no" }
            END { if (!found) flush() }' "$f"
    done
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [[ -r $f ]] || continue
        awk -v rel="$RELEASE" '
            $1 == "deb" {
                i = 2
                if ($2 ~ /^\[/) { while (i <= NF && $i !~ /\]$/) i++; i++ }
                if ($(i + 1) == rel) { print $i; exit }
            }' "$f"
    done
}

# --- stage 1: the arm64 root --------------------------------------------------------
# The mark holds "partial" while debootstrap runs and "complete <release> <packages>"
# after: a root left half-made (interrupted, failed) is made again, and a directory
# without the mark is never removed.
unmount_root
want="complete $RELEASE $PACKAGES"
if [[ -f $MARK && $(<"$MARK") == "$want" ]]; then
    stage_done "root" "reused $ROOT_DIR"
else
    if [[ -e $ROOT_DIR ]]; then
        if [[ -f $MARK ]]; then
            say "removing the incomplete or outdated root $ROOT_DIR"
            [[ -z $(mounts_under_root) ]] || die "$ROOT_DIR still has mounts: unmount them first"
            rm -rf --one-file-system "$ROOT_DIR"
        elif [[ -n $(ls -A "$ROOT_DIR") ]]; then
            die "ARM64_ROOT=$ROOT_DIR is not empty and was not made by this script"
        fi
    fi
    mirror=${ARM64_MIRROR:-$(host_mirror)}
    mirror=${mirror%%$'\n'*}
    [[ -n $mirror ]] \
        || die "no Debian mirror for $RELEASE in the host's apt sources: set ARM64_MIRROR"
    mkdir -p "$ROOT_DIR"
    echo partial >"$MARK"
    [[ -z $interpreter ]] || install -D "$interpreter" "$ROOT_DIR$interpreter"
    say "debootstrap --arch=arm64 $RELEASE from $mirror into $ROOT_DIR (log: $DEBOOTSTRAP_LOG)"
    if ! debootstrap --arch=arm64 --variant=minbase --include="$PACKAGES" \
            "$RELEASE" "$ROOT_DIR" "$mirror" >"$DEBOOTSTRAP_LOG" 2>&1; then
        tail -n 20 "$DEBOOTSTRAP_LOG" >&2
        die "debootstrap failed (log: $DEBOOTSTRAP_LOG)"
    fi
    echo "$want" >"$MARK"
    stage_done "root" "debootstrap"
fi
[[ -z $interpreter || -x $ROOT_DIR$interpreter ]] || install -D "$interpreter" "$ROOT_DIR$interpreter"

# --- stage 2: the venv and the package -----------------------------------------------
mount -t proc proc "$ROOT_DIR/proc"
# /dev with its submounts (/dev/shm for multiprocessing, /dev/pts); rslave so that
# unmounting them here never unmounts the host's.
mount --rbind /dev "$ROOT_DIR/dev"
mount --make-rslave "$ROOT_DIR/dev"
in_root() {  # $1: directory in the root, then the command
    local dir=$1
    shift
    chroot "$ROOT_DIR" /usr/bin/env -i -C "$dir" HOME=/root LANG=C.UTF-8 PYTHONUNBUFFERED=1 \
        PATH="$VENV/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" "$@"
}

pip_want="${PIP_PACKAGES[*]}"
if [[ ! -x $ROOT_DIR$VENV/bin/python || ! -f $ROOT_DIR$VENV/.boardctl-deps \
        || $(<"$ROOT_DIR$VENV/.boardctl-deps") != "$pip_want" ]]; then
    host_python=${ARM64_HOST_PYTHON:-}
    if [[ -z $host_python ]]; then
        host_python=python3
        [[ ! -x $REPO/.venv/bin/python ]] || host_python=$REPO/.venv/bin/python
    fi
    "$host_python" -m pip --version >/dev/null 2>&1 \
        || die "no pip for $host_python on the host: set ARM64_HOST_PYTHON"
    py_version=$(in_root / /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    say "downloading aarch64 wheels for Python $py_version on the host: ${PIP_PACKAGES[*]}"
    rm -rf "${ROOT_DIR:?}$WHEELS"
    # Pure-Python wheels, or manylinux ones for the root's glibc (2.36 in bookworm); -qq
    # keeps the host's own pip warnings out, errors still show.
    "$host_python" -m pip download -qq --disable-pip-version-check --dest "$ROOT_DIR$WHEELS" \
        --only-binary=:all: --implementation cp --python-version "$py_version" \
        --abi "cp${py_version/./}" --platform manylinux2014_aarch64 \
        --platform manylinux_2_28_aarch64 "${PIP_PACKAGES[@]}" \
        || die "the host's pip could not download ${PIP_PACKAGES[*]} for aarch64"
    rm -rf "${ROOT_DIR:?}$VENV"
    say "making $VENV in the root and installing the wheels there"
    in_root / /usr/bin/python3 -m venv "$VENV"
    in_root / python -m pip install --quiet --disable-pip-version-check --no-index \
        --find-links "$WHEELS" "${PIP_PACKAGES[@]}" \
        || die "pip could not install ${PIP_PACKAGES[*]} in the root"
    echo "$pip_want" >"$ROOT_DIR$VENV/.boardctl-deps"
fi

# The working tree as it is (tracked and new files, not ignored ones: no host build of
# the core, no caches), so that uncommitted changes are what gets tested.
rm -rf "${ROOT_DIR:?}$SRC"
mkdir -p "$ROOT_DIR$SRC"
copy_worktree "$REPO" "$ROOT_DIR$SRC"
revision=$(worktree_revision "$REPO")
say "copied the working tree ($revision) to $SRC"
# Editable, as on the host: the core is built in place by the root's gcc, next to the
# sources pytest imports from the working directory.
in_root "$SRC" python -m pip install --quiet --disable-pip-version-check --no-deps \
    --no-build-isolation -e . || die "pip install -e . failed in the root"

# The core must really be an aarch64 build: the interpreter's machine, the core loaded,
# and its ELF header's e_machine (183, EM_AARCH64).
in_root "$SRC" python - <<'EOF' || die "the compiled core is not an aarch64 build (see above)"
import platform, struct, sys
from boardctl.engine import core
machine = platform.machine()
print(f"python {platform.python_version()} on {machine}; compiled core available: {core.available()}")
if machine != "aarch64" or not core.available():
    sys.exit(1)
path = core._core.__file__
with open(path, "rb") as so:
    header = so.read(20)
e_machine = struct.unpack_from("<H", header, 18)[0]
print(f"{path}: ELF e_machine {e_machine} ({'aarch64' if e_machine == 183 else 'NOT aarch64'})")
sys.exit(0 if header[:4] == b"\x7fELF" and e_machine == 183 else 1)
EOF
if command -v file >/dev/null 2>&1; then
    file -b "$ROOT_DIR$SRC"/boardctl/engine/_core*.so | sed 's/^/test-arm64: file: /'
fi
stage_done "install"

# --- stage 3: the tests ------------------------------------------------------------------
machine=$(in_root / uname -m)
say "uname -m in the root: $machine"
[[ $machine == aarch64 ]] || die "the root runs as $machine, not aarch64"
if (($# == 0)); then
    set -- tests/rules tests/engine
fi
# Left out: the pool-signal test reads SigCgt in /proc/self/status, and under qemu-user
# that is qemu's own mask, which catches SIGTERM in every process (and the test needs
# pygame, not installed here).  It cannot tell right from wrong under emulation.
readonly DESELECT=tests/engine/test_pool_signals.py::test_pool_workers_do_not_inherit_sdls_sigterm_handler
PYTEST_LOG=$(mktemp)
say "python -m pytest --timeout=$TIMEOUT $* (without ${DESELECT##*::})"
set +e
in_root "$SRC" python -m pytest -p no:cacheprovider --timeout="$TIMEOUT" \
    --deselect "$DESELECT" "$@" | tee "$PYTEST_LOG"
status=${PIPESTATUS[0]}
set -e
stage_done "tests"

summary=$(grep -E '(passed|failed|error|skipped|no tests ran).* in [0-9.]+s' "$PYTEST_LOG" \
    | tail -n 1 | sed -E 's/^=+ //; s/ =+$//')
echo
echo "test-arm64: wall times on $(uname -m) emulating aarch64:"
stage_summary
echo "test-arm64: pytest on aarch64: ${summary:-no summary line} (exit status $status)"
exit "$status"
