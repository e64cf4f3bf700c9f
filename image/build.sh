#!/usr/bin/env bash
# Builds a card image for a Raspberry Pi 4 or 5 (arm64) from Debian packages, with
# boardctl installed and its service enabled: `sudo make image` (image/README.md and
# docs/card-image.md say what it holds and how to flash it).
#
#   sudo image/build.sh              build /var/tmp/boardctl-image/boardctl-pi-arm64.img
#
# Stages, each printing its wall time:
#   base      an arm64 Debian root made by mmdebstrap under qemu-user: systemd, the
#             kernel (linux-image-arm64), Debian's raspi-firmware (the Pi's boot
#             files), Python, the compilers boardctl's compiled parts need, Mesa for
#             the screen.  Kept in base/ while the package list is the
#             same; the .debs are kept in debs/ beside it for the next build.
#   wheels    the Python packages of boardctl[pi,display,web,remote] for that root's Python,
#             fetched by the host's pip (its own index settings) into wheels/;
#             the root itself never reaches a package index.
#   boardctl  a copy of the base root; in it, boardctl and lgpio/spidev are built into
#             wheels by the arm64 gcc and installed by systemd/install.sh, as on a Pi
#             (user, versioned venv, unit, rollback unit, boardctl-update); then the
#             card's own settings from image/overlay (network, fstab, the screen
#             kept for boardctl, growing the root to the card)
#   image     a FAT partition with the Pi's boot files and an ext4 root, in an MBR
#             image made without loop devices (mkfs.ext4 -d, mtools)
#
# Environment:
#   IMAGE_RELEASE   Debian release (default trixie: its kernel has the Pi 5's device tree)
#   IMAGE_DIR       where everything goes (default /var/tmp/boardctl-image)
#   IMAGE_MIRROR    Debian mirror; by default the host's own, read from its apt sources
#                   (no mirror is written in the repository)
#   IMAGE_SECURITY  Debian security mirror (default: the host's, if it lists one)
#   IMAGE_HOST_PYTHON  the host's Python whose pip fetches the wheels (default: the
#                   checkout's .venv, else python3)
#   IMAGE_UNTIL     "base": stop once the base root is made
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
readonly REPO
readonly RELEASE=${IMAGE_RELEASE:-trixie}
# Outside the checkout: setuptools' file walk (an editable install) follows links, and
# would wander through the card's root and its mounts.
readonly OUT=${IMAGE_DIR:-/var/tmp/boardctl-image}
readonly BASE=$OUT/base
readonly ROOT=$OUT/root
readonly DEBS=$OUT/debs
readonly WHEELS=$OUT/wheels
readonly IMAGE=$OUT/boardctl-pi-arm64.img
readonly BOOT_COPY=$OUT/boot  # the kernel and initrd, for the boot test (image/boot-test.py)
# The card's partitions go by label: the kernel command line and fstab name them, so
# the same image boots from an SD card, a USB disk or qemu's virtio disk.
readonly ROOT_LABEL=RASPIROOT
readonly FIRMWARE_LABEL=RASPIFIRM
readonly FIRMWARE_MIB=512   # the FAT partition: boot files, two kernels and initrds
readonly ALIGN_MIB=4        # where the first partition starts (erase-block aligned)
readonly ROOT_SLACK_MIB=768 # free room in the root as built; it grows to the card at first boot
# Where the root keeps the wheels it was built from: an update or a reinstall of
# this version needs no network (boardctl-update install --offline).
readonly ROOT_WHEELS=/opt/boardctl/wheels
readonly EXTRAS=pi,display,web,remote

# Debian packages of the card, by what needs them.
readonly PACKAGES=(
    # booting and running: systemd as init, the network by systemd-networkd (DHCP on
    # the Ethernet port), the clock by NTP (games are stored with their date)
    systemd systemd-sysv systemd-resolved systemd-timesyncd udev dbus kmod iproute2
    procps netbase ca-certificates tzdata nano less
    # the kernel and its initramfs; the Pi's boot firmware is RASPI_FIRMWARE below
    linux-image-arm64 initramfs-tools
    # checking the file systems at boot, and growing the root to fill the card
    e2fsprogs dosfstools cloud-guest-utils fdisk
    # boardctl: Python; gcc and the headers build its compiled search core and lgpio
    # (with swig) on the card, as systemd/install.sh does on Raspberry Pi OS
    python3 python3-venv python3-dev gcc libc6-dev swig
    # the board's voice ([speech])
    espeak-ng
    # the broker a board runs itself for a remote game on its own network ([remote])
    mosquitto
    # the screen: pygame-ce's SDL draws full screen through KMSDRM, which needs GBM
    # and EGL from Mesa (the Pi's V3D and VC4 drivers are in libgl1-mesa-dri)
    libgbm1 libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri
)
# Debian keeps the Pi's boot firmware (start4.elf and friends) in non-free-firmware.
readonly RASPI_FIRMWARE=raspi-firmware
readonly COMPONENTS="main non-free-firmware"

say() { printf 'image: %s\n' "$*"; }
die() { printf 'image: %s\n' "$*" >&2; exit 1; }

if [[ $(id -u) -ne 0 ]]; then
    echo "image: must run as root (mmdebstrap, chroot and mounts): sudo make image" >&2
    exit 2
fi

# shellcheck source=scripts/lib/stage-times.sh disable=SC1091
source "$REPO/scripts/lib/stage-times.sh"
# shellcheck source=scripts/lib/worktree.sh disable=SC1091
source "$REPO/scripts/lib/worktree.sh"
stages_begin 9

# --- the host's tools ------------------------------------------------------------------
need=(mmdebstrap qemu-aarch64-static update-binfmts mkfs.ext4 mkfs.vfat mcopy sfdisk)
for tool in "${need[@]}"; do
    command -v "$tool" >/dev/null 2>&1 || [[ -x /usr/bin/$tool ]] \
        || die "$tool is missing: run 'sudo make image-deps' first"
done
# aarch64 binaries run through qemu-user, registered with binfmt_misc (as in
# scripts/test-arm64.sh: a container may need binfmt_misc mounted first).
readonly BINFMT=/proc/sys/fs/binfmt_misc
[[ -e $BINFMT/register ]] || mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null || true
grep -qx enabled "$BINFMT/qemu-aarch64" 2>/dev/null \
    || update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
grep -qx enabled "$BINFMT/qemu-aarch64" 2>/dev/null \
    || die "no aarch64 binfmt handler ($BINFMT/qemu-aarch64): a container needs binfmt_misc from its host"

# --- the mirror: the host's own, never one written here ---------------------------------
mirror=${IMAGE_MIRROR:-$("$REPO/image/apt-mirror.sh" main)}
security=${IMAGE_SECURITY-$("$REPO/image/apt-mirror.sh" security)}
[[ -n $mirror ]] || die "no Debian mirror in the host's apt sources: set IMAGE_MIRROR"
mirror=${mirror%/}
security=${security%/}

# Whether the mirror serves non-free-firmware for arm64: if it does not, the card is
# built without the Pi's boot firmware (and says so): it then boots only where a
# boot loader is given from outside, as qemu's virt machine does in the boot test.
packages=("${PACKAGES[@]}")
firmware_note=""
if python3 - "$mirror/dists/$RELEASE/non-free-firmware/binary-arm64/Packages.xz" <<'EOF'
import sys, urllib.request
try:
    with urllib.request.urlopen(urllib.request.Request(sys.argv[1], method="HEAD"), timeout=30):
        pass
except Exception as exc:
    print(f"image: {sys.argv[1]}: {exc}", file=sys.stderr)
    sys.exit(1)
EOF
then
    packages+=("$RASPI_FIRMWARE")
else
    firmware_note="WITHOUT $RASPI_FIRMWARE (non-free-firmware could not be fetched): not bootable on a Pi"
    say "warning: $firmware_note"
fi
stage_done "mirror" "$mirror${security:+, $security}"

# --- stage 1: the base root -------------------------------------------------------------
mounts_under() {  # $1: a directory; its mounts, deepest first
    awk -v r="$1/" 'index($2, r) == 1 { print $2 }' /proc/self/mounts | sort -r
}
unmount_all() {
    local m dir
    for dir in "$BASE" "$ROOT"; do
        while IFS= read -r m; do
            umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || say "could not unmount $m"
        done < <(mounts_under "$dir")
    done
}
# shellcheck disable=SC2317  # run by the EXIT trap
cleanup() { unmount_all; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

mkdir -p "$OUT" "$DEBS"
unmount_all
sources=("deb $mirror $RELEASE $COMPONENTS" "deb $mirror $RELEASE-updates $COMPONENTS")
[[ -z $security ]] || sources+=("deb $security $RELEASE-security $COMPONENTS")
# The base is made again when what goes into it changes: the release, the packages,
# the sources, or BASE_RECIPE (raise it when the mmdebstrap call below changes).
readonly BASE_RECIPE=1
base_key="$RELEASE|${packages[*]}|${sources[*]}|$BASE_RECIPE"
if [[ -f $BASE/.boardctl-base && $(<"$BASE/.boardctl-base") == "$base_key" ]]; then
    stage_done "base" "reused $BASE"
else
    rm -rf --one-file-system "$BASE"
    say "mmdebstrap --arch=arm64 $RELEASE (${#packages[@]} packages) into $BASE (log: $OUT/base.log)"
    # /boot/firmware must be there before raspi-firmware's postinst fills it.  Docs
    # and man pages stay out (copyright files stay in); eatmydata skips the fsyncs
    # that make dpkg crawl under emulation.
    # shellcheck disable=SC2016  # "$1" is the hooks' own argument, the root
    if ! mmdebstrap --arch=arm64 --variant=minbase --mode=root \
            --include="$(IFS=,; echo "${packages[*]}")" \
            --aptopt='Acquire::Languages "none"' \
            --dpkgopt='path-exclude=/usr/share/man/*' \
            --dpkgopt='path-exclude=/usr/share/doc/*' \
            --dpkgopt='path-include=/usr/share/doc/*/copyright' \
            --dpkgopt='path-exclude=/usr/share/locale/*' \
            --hook-dir=/usr/share/mmdebstrap/hooks/eatmydata \
            --skip=download/empty --skip=essential/unlink \
            --setup-hook='mkdir -p "$1"/var/cache/apt/archives/ "$1"/boot/firmware' \
            --setup-hook="sync-in $DEBS /var/cache/apt/archives/" \
            --customize-hook="sync-out /var/cache/apt/archives $DEBS" \
            --customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb' \
            "$RELEASE" "$BASE" "${sources[@]}" >"$OUT/base.log" 2>&1; then
        tail -n 30 "$OUT/base.log" >&2
        die "mmdebstrap failed (log: $OUT/base.log)"
    fi
    echo "$base_key" >"$BASE/.boardctl-base"
    stage_done "base" "mmdebstrap, $(du -sh --one-file-system "$BASE" | cut -f1)"
fi

if [[ ${IMAGE_UNTIL:-} == base ]]; then
    exit 0
fi

in_root() {  # the command, run in the root as root with a clean environment
    chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# --- stage 2: the wheels ----------------------------------------------------------------
# What boardctl[pi,display,web,remote] needs, read from pyproject.toml; lgpio and spidev
# publish no arm64 wheel, so their sources are fetched and the root's gcc builds them.
readonly SOURCE_ONLY="lgpio spidev"
py_version=$(chroot "$BASE" /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
mapfile -t requirements < <(python3 - "$REPO/pyproject.toml" "$EXTRAS" <<'EOF'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    data = tomllib.load(f)
for extra in sys.argv[2].split(","):
    for requirement in data["project"]["optional-dependencies"][extra]:
        print(requirement)
for requirement in data["build-system"]["requires"]:
    print(requirement)
EOF
)
binary=() sources=()
for requirement in "${requirements[@]}" "wheel"; do
    name=${requirement%%[<>=!;~ ]*}
    if [[ " $SOURCE_ONLY " == *" $name "* ]]; then
        sources+=("${requirement%%;*}")
    else
        binary+=("$requirement")
    fi
done
wheels_key="$py_version|${binary[*]}|${sources[*]}"
if [[ -f $WHEELS/.key && $(<"$WHEELS/.key") == "$wheels_key" ]]; then
    stage_done "wheels" "reused $WHEELS"
else
    host_python=${IMAGE_HOST_PYTHON:-}
    if [[ -z $host_python ]]; then
        host_python=python3
        [[ ! -x $REPO/.venv/bin/python ]] || host_python=$REPO/.venv/bin/python
    fi
    rm -rf "$WHEELS"
    mkdir -p "$WHEELS"
    say "downloading wheels for Python $py_version on aarch64: ${binary[*]}; sources: ${sources[*]}"
    "$host_python" -m pip download -qq --disable-pip-version-check --dest "$WHEELS" \
        --only-binary=:all: --implementation cp --python-version "$py_version" \
        --abi "cp${py_version/./}" --abi abi3 --abi none \
        --platform manylinux2014_aarch64 --platform manylinux_2_17_aarch64 \
        --platform manylinux_2_28_aarch64 --platform linux_aarch64 "${binary[@]}" \
        || die "the host's pip could not download ${binary[*]} for aarch64"
    "$host_python" -m pip download -qq --disable-pip-version-check --dest "$WHEELS" \
        --no-deps --no-binary=:all: "${sources[@]}" \
        || die "the host's pip could not download the sources of ${sources[*]}"
    echo "$wheels_key" >"$WHEELS/.key"
    stage_done "wheels" "$(find "$WHEELS" -name '*.whl' | wc -l) wheels, $(find "$WHEELS" -name '*.tar.gz' | wc -l) sources"
fi

# --- stage 3: boardctl in a copy of the base --------------------------------------------
rm -rf --one-file-system "$ROOT"
cp -a --reflink=auto "$BASE" "$ROOT"
rm -f "$ROOT/.boardctl-base"
mount -t proc proc "$ROOT/proc"
mount -t sysfs sysfs "$ROOT/sys"
mount --rbind /dev "$ROOT/dev"
mount --make-rslave "$ROOT/dev"

# The working tree as it is (tracked and new files, not ignored ones), as
# scripts/test-arm64.sh copies it: uncommitted changes are what gets built.
readonly SRC_IN_ROOT=/tmp/boardctl-src
mkdir -p "$ROOT$SRC_IN_ROOT" "$ROOT$ROOT_WHEELS"
copy_worktree "$REPO" "$ROOT$SRC_IN_ROOT"
revision=$(worktree_revision "$REPO")
cp "$WHEELS"/*.whl "$WHEELS"/*.tar.gz "$ROOT$ROOT_WHEELS/"

# Wheels of what has none (lgpio with its library built in: PYPI=1, lgpio's own
# switch; Debian has no liblgpio), and of boardctl itself with its compiled core, all
# built by the arm64 gcc (some 25 minutes under emulation); the wheelhouse stays on
# the card for offline reinstalls.  They are kept in arm64-wheels/: lgpio's and
# spidev's for their sources, boardctl's while its package's files are the same.
readonly ARM64_WHEELS=$OUT/arm64-wheels
package_key=$(cd "$REPO" && git -c safe.directory="$REPO" ls-files -z --cached --others \
    --exclude-standard -- boardctl setup.py pyproject.toml README.md \
    | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
mkdir -p "$ARM64_WHEELS"
to_build=()
for name in $SOURCE_ONLY; do
    sdist=$(cd "$WHEELS" && ls "$name"-*.tar.gz)
    version=${sdist%.tar.gz}
    if compgen -G "$ARM64_WHEELS/${version}-*.whl" >/dev/null; then
        cp "$ARM64_WHEELS/${version}"-*.whl "$ROOT$ROOT_WHEELS/"
    else
        to_build+=("$name")
    fi
done
if [[ -f $ARM64_WHEELS/boardctl.key && $(<"$ARM64_WHEELS/boardctl.key") == "$package_key" ]] \
        && compgen -G "$ARM64_WHEELS/boardctl-*.whl" >/dev/null; then
    cp "$ARM64_WHEELS"/boardctl-*.whl "$ROOT$ROOT_WHEELS/"
else
    rm -f "$ARM64_WHEELS"/boardctl-*.whl "$ARM64_WHEELS/boardctl.key"
    to_build+=("$SRC_IN_ROOT")
fi
if ((${#to_build[@]})); then
    say "building wheels of ${to_build[*]} ($revision) with the arm64 gcc"
    in_root /usr/bin/python3 -m venv /tmp/wheel-venv
    in_root env PYPI=1 /tmp/wheel-venv/bin/pip wheel -q --disable-pip-version-check --no-deps \
        --no-index --find-links "$ROOT_WHEELS" --wheel-dir "$ROOT_WHEELS" \
        "${to_build[@]}" >"$OUT/wheels-build.log" 2>&1 \
        || { tail -n 30 "$OUT/wheels-build.log" >&2; die "building the wheels failed (log: $OUT/wheels-build.log)"; }
    rm -rf "$ROOT/tmp/wheel-venv"
    cp "$ROOT$ROOT_WHEELS"/*-linux_aarch64.whl "$ARM64_WHEELS/"
    echo "$package_key" >"$ARM64_WHEELS/boardctl.key"
fi
rm -f "$ROOT$ROOT_WHEELS"/*.tar.gz
boardctl_wheel=$(cd "$ROOT$ROOT_WHEELS" && ls boardctl-*.whl)
[[ $boardctl_wheel == *aarch64.whl ]] || die "boardctl's wheel is not an arm64 build: $boardctl_wheel"
stage_done "arm64-wheels" "${to_build[*]:-none built: all kept from before}"

# As on a Pi: systemd/install.sh, from the wheel just built and the wheelhouse only.
say "systemd/install.sh --package $ROOT_WHEELS/$boardctl_wheel --no-start"
in_root env PIP_NO_INDEX=1 PIP_FIND_LINKS="$ROOT_WHEELS" \
    "$SRC_IN_ROOT/systemd/install.sh" --package "$ROOT_WHEELS/$boardctl_wheel" --no-start \
    >"$OUT/install.log" 2>&1 \
    || { tail -n 30 "$OUT/install.log" >&2; die "install.sh failed (log: $OUT/install.log)"; }
in_root /opt/boardctl/venv/bin/python -c 'from boardctl.engine import core; assert core.available()' \
    || die "the compiled search core did not build on arm64"
stage_done "boardctl" "installed by systemd/install.sh (log: $OUT/install.log)"

# The card's own settings: everything under image/overlay, then what is done with
# commands.  Every card makes its own machine id at its first boot.
cp -a "$REPO/image/overlay/." "$ROOT/"
chown -R root:root "$ROOT/etc/systemd" "$ROOT/etc/udev" "$ROOT/usr/local/sbin"
echo boardctl >"$ROOT/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\tboardctl\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    >"$ROOT/etc/hosts"
# The boot files' partition is nofail: a late or missing one must not stop the
# board in emergency mode, where nobody can log in (root has no password) and the
# screen stays blank; under emulation its device came after systemd's 90 s.
cat >"$ROOT/etc/fstab" <<EOF
# The card's two partitions, by label (image/build.sh).
LABEL=$ROOT_LABEL      /               ext4  rw,noatime,errors=remount-ro        0 1
LABEL=$FIRMWARE_LABEL  /boot/firmware  vfat  rw,noatime,umask=0022,nofail        0 2
EOF
in_root systemctl enable systemd-networkd.service systemd-resolved.service \
    systemd-timesyncd.service grow-root.service root-password.service >/dev/null 2>&1 \
    || die "could not enable the network, the clock and the card's first-boot units"
# The screen is boardctl's (the frame buffer, image/first-start.toml): no login prompt
# on tty1 under it, and no cursor blinking there (raspi-extra-cmdline in the overlay).
in_root systemctl mask getty@tty1.service autovt@tty1.service >/dev/null 2>&1
install -m 0644 "$REPO/image/first-start.toml" "$ROOT/etc/boardctl/first-start.toml"
ln -sfn ../run/systemd/resolve/stub-resolv.conf "$ROOT/etc/resolv.conf"
if [[ -f $ROOT/etc/default/raspi-firmware ]]; then
    # Debian's raspi-firmware writes cmdline.txt from these: the root by its label (not
    # the build machine's disk), boot messages on the header's UART and the screen, and
    # no cma= (it adds 64M off a Pi, which its notes say can stop a Pi 4 booting; on a
    # Pi 4 it leaves it out itself).
    sed -i -e "s|^#\?ROOTPART=.*|ROOTPART=LABEL=$ROOT_LABEL|" \
        -e 's|^#\?CONSOLES=.*|CONSOLES="ttyS1,115200 tty0"|' \
        -e 's|^#\?CMA=.*|CMA=0|' "$ROOT/etc/default/raspi-firmware"
fi
# The initramfs again, now that fstab names the root: its fsck hook takes e2fsck only
# for the file systems fstab lists (the root is checked at every boot: a Pi loses
# power).  raspi-firmware's hook then copies it to /boot/firmware with cmdline.txt
# and config.txt written from the settings above.
in_root update-initramfs -u -k all >"$OUT/initramfs.log" 2>&1 \
    || { tail -n 20 "$OUT/initramfs.log" >&2; die "update-initramfs failed (log: $OUT/initramfs.log)"; }
: >"$ROOT/etc/machine-id"
rm -f "$ROOT/var/lib/dbus/machine-id"
rm -rf "${ROOT:?}$SRC_IN_ROOT" "$ROOT"/var/lib/apt/lists/* "$ROOT"/var/cache/apt/*.bin \
    "$ROOT"/root/.cache
find "$ROOT/var/log" -type f -name '*.log' -delete
printf 'boardctl %s (%s), Debian %s, built %s\n' "$boardctl_wheel" "$revision" "$RELEASE" \
    "$(date -u +%FT%TZ)" >"$ROOT/etc/boardctl-image"
unmount_all
stage_done "settings" "image/overlay and the card's own settings"

# --- stage 4: the image -----------------------------------------------------------------
# The FAT partition holds /boot/firmware's files; the ext4 root keeps the folder
# empty as its mount point.
readonly FIRMWARE_STAGE=$OUT/firmware
rm -rf "$FIRMWARE_STAGE" "$BOOT_COPY"
mkdir -p "$FIRMWARE_STAGE" "$BOOT_COPY"
kernel=$(cd "$ROOT/boot" && find . -maxdepth 1 -name 'vmlinuz-*' -printf '%f\n' | sort -V | tail -n 1)
initrd=initrd.img-${kernel#vmlinuz-}
[[ -n $kernel && -f $ROOT/boot/$initrd ]] || die "no kernel and initrd in the root's /boot"
cp "$ROOT/boot/$kernel" "$BOOT_COPY/vmlinuz"
cp "$ROOT/boot/$initrd" "$BOOT_COPY/initrd.img"
if [[ -n $(ls -A "$ROOT/boot/firmware") ]]; then
    mv "$ROOT"/boot/firmware/* "$FIRMWARE_STAGE/"
    [[ ! -f $FIRMWARE_STAGE/cmdline.txt ]] || cp "$FIRMWARE_STAGE/cmdline.txt" "$BOOT_COPY/"
else
    # No raspi-firmware: the kernel and initrd at least, for a boot loader to find.
    cp "$BOOT_COPY/vmlinuz" "$FIRMWARE_STAGE/$kernel"
    cp "$BOOT_COPY/initrd.img" "$FIRMWARE_STAGE/$initrd"
fi

root_mib=$(($(du -sm --apparent-size "$ROOT" | cut -f1) * 11 / 10 + ROOT_SLACK_MIB))
rm -f "$OUT/root.ext4" "$OUT/firmware.vfat" "$IMAGE"
truncate -s "${root_mib}M" "$OUT/root.ext4"
mkfs.ext4 -q -L "$ROOT_LABEL" -d "$ROOT" "$OUT/root.ext4" || die "mkfs.ext4 -d failed"
truncate -s "${FIRMWARE_MIB}M" "$OUT/firmware.vfat"
mkfs.vfat -F 32 -n "$FIRMWARE_LABEL" "$OUT/firmware.vfat" >/dev/null
mcopy -s -i "$OUT/firmware.vfat" "$FIRMWARE_STAGE"/* ::/
mv "$FIRMWARE_STAGE"/* "$ROOT/boot/firmware/"
rmdir "$FIRMWARE_STAGE"

total_mib=$((ALIGN_MIB + FIRMWARE_MIB + root_mib))
truncate -s "${total_mib}M" "$IMAGE"
sfdisk --quiet "$IMAGE" <<EOF
label: dos
start=$((ALIGN_MIB * 2048)), size=$((FIRMWARE_MIB * 2048)), type=c
start=$(((ALIGN_MIB + FIRMWARE_MIB) * 2048)), type=83
EOF
dd if="$OUT/firmware.vfat" of="$IMAGE" bs=1M seek="$ALIGN_MIB" conv=notrunc,sparse status=none
dd if="$OUT/root.ext4" of="$IMAGE" bs=1M seek=$((ALIGN_MIB + FIRMWARE_MIB)) \
    conv=notrunc,sparse status=none
rm -f "$OUT/root.ext4" "$OUT/firmware.vfat"
stage_done "image" "$IMAGE, ${total_mib} MiB"

echo
echo "image: wall times:"
stage_summary
echo "image: $IMAGE (${total_mib} MiB): boardctl $boardctl_wheel, Debian $RELEASE, ${firmware_note:-with $RASPI_FIRMWARE}"
echo "image: flash it with: sudo dd if=$IMAGE of=/dev/sdX bs=4M conv=fsync status=progress"
