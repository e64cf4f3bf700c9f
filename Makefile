# The two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The compiled core's sources: a change to any of them rebuilds it.
CORE_SOURCES := $(wildcard boardctl/engine/csrc/*.c boardctl/engine/csrc/*.h)

.PHONY: run test check lint docs bench clean system-deps emulator-deps test-arm64 firmware \
	image-deps image test-image

# --no-compile: Python compiles a module's bytecode when it is first imported, so
# the thousands of modules of the dependencies that nothing here imports are not
# compiled at install (a fresh clone's install: 25 -> 18 s).
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --no-compile --upgrade pip

$(VENV)/.run-installed: pyproject.toml setup.py $(CORE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e '.[display]'
	touch $@

$(VENV)/.dev-installed: pyproject.toml setup.py $(CORE_SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install --quiet --no-compile -e '.[dev]'
	touch $@

run: $(VENV)/.run-installed
	$(BIN)/boardctl sim

lint: $(VENV)/.dev-installed
	$(BIN)/ruff check boardctl tests bench scripts emulator firmware image
	$(BIN)/ruff format --check boardctl tests bench scripts emulator firmware image hardware setup.py
	$(BIN)/mypy --strict boardctl
	$(BIN)/lint-imports --no-cache --config pyproject.toml

# The documentation site from docs/ (mkdocs.yml), into site/, which git ignores.  Strict:
# a warning (a link to a page or an anchor that is not there, a page left out of the
# navigation) fails the build.  `$(BIN)/mkdocs serve` shows it while you write.
docs: $(VENV)/.dev-installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# Debian packages some tests use: chromium and chromium-driver (the web page's browser
# tests), fairymax (the reference engine the XBoard client is tested against),
# shellcheck (the Pi installer's script), Node.js with npm (the emulated Pico), espeak-ng
# (the board's voice, rendered to audio by its tests), mosquitto (the MQTT broker two
# boards play through), and xboard with xvfb (the GUI that plays a match between
# `boardctl xboard` and Fairy-Max, headless on a virtual X display).  As root (a
# fresh machine, CI) the missing ones are installed; otherwise the tests that need
# them skip and say why.
SYSTEM_TOOLS := chromium:chromium chromedriver:chromium-driver /usr/games/fairymax:fairymax \
	shellcheck:shellcheck node:nodejs npm:npm espeak-ng:espeak-ng \
	/usr/sbin/mosquitto:mosquitto /usr/games/xboard:xboard Xvfb:xvfb
system-deps:
	@missing=""; for pair in $(SYSTEM_TOOLS); do tool=$${pair%%:*}; package=$${pair##*:}; \
	  command -v $$tool >/dev/null 2>&1 || [ -x "$$tool" ] || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	     apt-get install -y -qq $$missing >/dev/null) \
	    || echo "could not install$$missing: the tests that need them will skip"; \
	  else echo "missing (not root):$$missing: the tests that need them will skip"; \
	  fi; fi

# The emulated Pico's runner needs rp2040js at the exact version its lockfile
# names; without Node.js or the registry, its tests skip and say why.
emulator/node_modules/.installed: emulator/package.json emulator/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  (cd emulator && npm ci --no-audit --no-fund --loglevel=error) && touch $@ \
	  || echo "npm ci failed in emulator/: the emulated-Pico tests will skip"; \
	else echo "no npm: the emulated-Pico tests will skip"; fi

emulator-deps: system-deps emulator/node_modules/.installed

# First the linters and the docs, beside one collection of the tests, which
# leaves the test modules' rewritten bytecode for the workers (each one of a
# fresh clone rewrote every module itself: 9 s of CPU where 3 s collect).
# Then every test, on every core: -n auto starts two workers more than the
# machine has cores, for the tests that wait in real time; --dist worksteal
# hands each worker a run of the collection and lets an idle one take the back
# half of another's, so long tests even out; tests/conftest.py says why of
# both, and puts what a module shares (an emulated Pico, a browser) and the
# slow tests at the head of the run, and the tests that wait in real time at the
# heads of the other workers' runs.
test: $(VENV)/.dev-installed system-deps emulator-deps
	@$(MAKE) --no-print-directory lint docs & checks=$$!; \
	$(BIN)/python -m pytest --collect-only -q > /dev/null; \
	wait $$checks
	$(BIN)/python -m pytest -n auto --dist worksteal

# The fast tier, for after every change: the linters and every test not marked slow
# (tests/conftest.py lists what is left out and why: browsers, MicroPython, the emulated
# Pico, compilers, killed processes, long properties).  `make test` runs everything.
check: $(VENV)/.dev-installed
	$(BIN)/ruff check boardctl tests bench scripts emulator firmware image
	$(BIN)/ruff format --check boardctl tests bench scripts emulator firmware image hardware setup.py
	$(BIN)/mypy --strict boardctl
	$(BIN)/lint-imports --no-cache --config pyproject.toml
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	$(BIN)/python -m pytest -m "not slow" -n 2 --durations=10

# The files to copy onto a Pico (firmware/README.md, "Deploy"), into build/firmware/:
# main.py and pins.py as source, the other modules compiled for the RP2040 by mpy-cross
# (scripts/firmware_files.py, which the emulated Pico's tests flash too).
firmware: $(VENV)/.dev-installed
	$(BIN)/python scripts/firmware_files.py build/firmware

# The Pi is aarch64, where a plain `char` is unsigned and the compiled core is built by
# another compiler: this runs the rules and engine tests in an arm64 Debian root under
# qemu-user emulation (scripts/test-arm64.sh says how).  It needs root and takes tens of
# minutes, so it is run on demand and is not part of `test`.
test-arm64:
	bash scripts/test-arm64.sh

# A card image for a Raspberry Pi 4 or 5, from Debian's packages with boardctl installed
# (image/build.sh; docs/card-image.md), into /var/tmp/boardctl-image (IMAGE_DIR).  As root; it
# takes tens of minutes, so like test-arm64 it is never part of `test`.  image-deps
# installs Debian's tools for it with apt-get, as system-deps does for the tests'.
IMAGE_TOOLS := mmdebstrap:mmdebstrap qemu-aarch64-static:qemu-user-static \
	update-binfmts:binfmt-support qemu-system-aarch64:qemu-system-arm qemu-img:qemu-utils \
	mkfs.ext4:e2fsprogs mkfs.vfat:dosfstools mcopy:mtools sfdisk:fdisk xz:xz-utils \
	arch-test:arch-test
image-deps:
	@missing=""; for pair in $(IMAGE_TOOLS); do tool=$${pair%%:*}; package=$${pair##*:}; \
	  command -v $$tool >/dev/null 2>&1 || [ -x "/usr/sbin/$$tool" ] || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "image-deps: run as root to install$$missing"; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	    apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi

image: image-deps
	bash image/build.sh

# Boots the image `make image` built in qemu-system-aarch64 and checks boardctl under its
# systemd (image/boot_test.py says what): on demand, tens of minutes, not part of `test`.
test-image: image-deps $(VENV)/.dev-installed
	$(BIN)/python image/boot_test.py

bench: $(VENV)/.dev-installed
	$(BIN)/python bench/perft.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache emulator/node_modules site
