#!/bin/bash
# Rebuilds the MicroPython firmware that the emulated-Pico tests run
# (BOARDCTL_PICO_EMU/micropython-v1.28.0-rpi-pico.bin) from its pinned
# sources, and checks that the result is the same image.
#
# Usage: scripts/build-firmware.sh [OUT_DIR]      (default: ./firmware-build)
#
# Needs the internet (the sources are cloned from MicroPython's public Git
# repository) and Debian's gcc-arm-none-eabi, libnewlib-arm-none-eabi, cmake
# and build-essential (installed with apt-get when run as root).  About 4
# minutes on 2 cores.  Writes OUT_DIR/micropython-v1.28.0-rpi-pico.bin, a UF2
# of it for a real Pico (drag it onto the Pico's USB drive, then copy the
# firmware/ files with mpremote, firmware/README.md "Deploy"), and prints
# their sha256.
#
# The pins: MicroPython's tag v1.28.0 and the submodule commits it names;
# HEAD pins a newer pico-sdk, whose build differs.  PICO_NO_PICOTOOL=1 stops
# the SDK from downloading picotool at configure time.
set -euo pipefail

TAG=v1.28.0
REPO=${MICROPYTHON_REPO:-https://github.com/micropython/micropython.git}
# Submodule commits that tag pins (checked after the clone, so that a moved
# tag cannot build something else silently).
declare -A PINNED=(
    [lib/pico-sdk]=a1438dff
    [lib/tinyusb]=aa0fc2e
    [lib/micropython-lib]=8380c7b
    [lib/mbedtls]=107ea89
)
EXPECTED_SHA256=ee6c2cae417b25d3a8450d6bad6d02cc13611f18a027172e1f74fa1580ff9ebf
OUT=$(realpath -m "${1:-firmware-build}")
SRC=$OUT/micropython

say() { printf 'build-firmware: %s\n' "$*" >&2; }

tools=(arm-none-eabi-gcc cmake make git python3)
missing=()
for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null || missing+=("$tool")
done
if ((${#missing[@]})); then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        say "installing the toolchain (missing: ${missing[*]})"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc-arm-none-eabi \
            libnewlib-arm-none-eabi cmake build-essential git python3 >/dev/null
    else
        say "missing ${missing[*]}: install gcc-arm-none-eabi libnewlib-arm-none-eabi cmake build-essential git"
        exit 2
    fi
fi

mkdir -p "$OUT"
if [[ ! -d $SRC/.git ]]; then
    say "cloning MicroPython $TAG"
    git clone --quiet --depth 1 --branch "$TAG" "$REPO" "$SRC"
fi
cd "$SRC"
say "fetching the rp2 port's submodules"
# The port's own list (it asks cmake which ones RPI_PICO needs).
make -s -C ports/rp2 BOARD=RPI_PICO submodules >/dev/null
for path in "${!PINNED[@]}"; do
    commit=$(git -C "$path" rev-parse HEAD)
    if [[ $commit != "${PINNED[$path]}"* ]]; then
        say "$path is at ${commit:0:8}, not the pinned ${PINNED[$path]}: refusing to build"
        exit 1
    fi
done

started=$SECONDS
say "building mpy-cross"
make -s -C mpy-cross -j"$(nproc)" >/dev/null
say "building the rp2 port for RPI_PICO"
cmake -S ports/rp2 -B ports/rp2/build-RPI_PICO -DMICROPY_BOARD=RPI_PICO \
    -DPICO_NO_PICOTOOL=1 >/dev/null
make -s -C ports/rp2/build-RPI_PICO -j"$(nproc)" >/dev/null
say "built in $((SECONDS - started)) s"

BIN=$OUT/micropython-$TAG-rpi-pico.bin
cp ports/rp2/build-RPI_PICO/firmware.bin "$BIN"
python3 tools/uf2conv.py -c -b 0x10000000 -f 0xe48bff56 -o "${BIN%.bin}.uf2" "$BIN" >/dev/null
sha256sum "$BIN" "${BIN%.bin}.uf2"
actual=$(sha256sum "$BIN" | cut -d' ' -f1)
if [[ $actual == "$EXPECTED_SHA256" ]]; then
    say "the image is byte for byte the one the emulated-Pico tests run"
else
    # A different compiler release lays the code out differently: the
    # image still works, but is not the tested one.
    say "the image differs from the tested one ($EXPECTED_SHA256); another gcc-arm-none-eabi release?"
fi
