"""The card image's recipe (image/): what can be checked without building it.
Building it (make image) and booting it (make test-image) take tens of
minutes and root, so they run on demand only; docs/card-image.md has the
figures of the last run."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IMAGE_DIR = ROOT / "image"
BUILD = IMAGE_DIR / "build.sh"
MIRROR = IMAGE_DIR / "apt-mirror.sh"
OVERLAY = IMAGE_DIR / "overlay"
SBIN = OVERLAY / "usr" / "local" / "sbin"
SCRIPTS = [BUILD, MIRROR, SBIN / "grow-root", SBIN / "root-password"]


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_the_scripts_are_shellcheck_clean_and_executable(script):
    result = subprocess.run(
        ["shellcheck", str(script)], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert script.stat().st_mode & 0o111


def test_the_recipe_names_the_pis_debian_packages():
    text = BUILD.read_text()
    # Debian keeps the Pi's boot firmware in non-free-firmware; the recipe names
    # it even where it cannot be fetched, and says so then.
    assert re.search(r"^readonly RASPI_FIRMWARE=raspi-firmware$", text, re.M)
    assert re.search(r'^readonly COMPONENTS="main non-free-firmware"$', text, re.M)
    assert "WITHOUT $RASPI_FIRMWARE (non-free-firmware could not be fetched)" in text
    packages = re.search(r"^readonly PACKAGES=\((.*?)^\)", text, re.M | re.S)
    assert packages is not None
    names = re.sub(r"#[^\n]*", "", packages.group(1)).split()
    for package in ("linux-image-arm64", "systemd", "python3-venv", "libgbm1", "libegl1"):
        assert package in names
    assert "mmdebstrap --arch=arm64" in text


def test_no_mirror_is_written_in_the_recipe():
    # The mirror is the build machine's own, read from its apt sources.
    for path in [BUILD, MIRROR, ROOT / "Makefile", *OVERLAY.rglob("*")]:
        if path.is_file():
            assert not re.search(r"https?://[\w.-]*debian", path.read_text()), path


def test_the_image_and_its_boot_test_are_not_part_of_make_test():
    makefile = (ROOT / "Makefile").read_text()
    test_rule = re.search(r"^test: (.*)\n((?:\t.*\n)*)", makefile, re.M)
    assert test_rule is not None
    assert "image" not in test_rule.group(0)
    for target in ("image-deps", "image", "test-image"):
        assert re.search(rf"^{target}:", makefile, re.M), target


def write_sources(folder: Path, deb822: str = "", one_line: str = "") -> Path:
    (folder / "sources.list.d").mkdir(parents=True)
    if deb822:
        (folder / "sources.list.d" / "debian.sources").write_text(deb822)
    if one_line:
        (folder / "sources.list").write_text(one_line)
    return folder


def mirror(kind: str, folder: Path) -> str:
    result = subprocess.run(
        ["bash", str(MIRROR), kind, str(folder)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


DEB822 = """\
Types: deb-src
URIs: http://source.example/debian
Suites: bookworm
Components: main

Types: deb
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
"""


def test_the_mirror_comes_from_deb822_sources(tmp_path):
    folder = write_sources(tmp_path, deb822=DEB822)
    assert mirror("main", folder) == "http://mirror.example/debian"
    assert mirror("security", folder) == "http://mirror.example/debian-security"


def test_the_mirror_comes_from_one_line_sources(tmp_path):
    folder = write_sources(
        tmp_path,
        one_line=(
            "# deb http://old.example/debian bookworm main\n"
            "deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian bookworm main\n"
            "deb http://mirror.example/debian-security bookworm-security main\n"
        ),
    )
    assert mirror("main", folder) == "http://mirror.example/debian"
    assert mirror("security", folder) == "http://mirror.example/debian-security"


def test_a_disabled_stanza_is_not_the_mirror(tmp_path):
    disabled = "Types: deb\nURIs: http://off.example/debian\nSuites: x\nEnabled: no\n\n"
    folder = write_sources(tmp_path, deb822=disabled + DEB822)
    assert mirror("main", folder) == "http://mirror.example/debian"


def test_no_sources_no_mirror(tmp_path):
    assert mirror("main", write_sources(tmp_path)) == ""


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
@pytest.mark.parametrize("name", ["grow-root", "root-password"])
def test_the_cards_units_pass_systemd_analyze_verify(tmp_path, name):
    # Their commands exist only on the card: the copy runs true instead.
    unit = OVERLAY / "etc" / "systemd" / "system" / f"{name}.service"
    copy = tmp_path / unit.name
    true = shutil.which("true") or "/bin/true"
    copy.write_text(unit.read_text().replace(f"/usr/local/sbin/{name}", true))
    assert copy.read_text() != unit.read_text()
    result = subprocess.run(
        ["systemd-analyze", "verify", str(copy)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert (result.returncode, result.stderr) == (0, "")


def test_the_boot_test_says_what_it_does():
    result = subprocess.run(
        [sys.executable, str(IMAGE_DIR / "boot_test.py"), "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "qemu-system-aarch64" in result.stdout


def _boot_test():
    spec = importlib.util.spec_from_file_location("boot_test", IMAGE_DIR / "boot_test.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("span", "seconds"), [("5s", 5.0), ("100ms", 0.1), ("1min 30s", 90.0), ("5min", 300.0)]
)
def test_the_boot_test_reads_systemds_time_spans(span, seconds):
    assert _boot_test().seconds(span) == pytest.approx(seconds)


def test_the_boot_test_breaks_a_copy_of_the_cards_wheel(tmp_path):
    # The update check's version that never becomes ready: its daemon fails at import,
    # everything else in the wheel is the card's own.
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    card = wheels / "boardctl-0.1.0-cp313-cp313-linux_aarch64.whl"
    files = {
        "boardctl/__init__.py": b"",
        "boardctl/daemon/__init__.py": b"",
        "boardctl/daemon/notify.py": b"READY = 1\n",
        "boardctl-0.1.0.dist-info/RECORD": b"boardctl/__init__.py,,\n",
    }
    with zipfile.ZipFile(card, "w") as wheel:
        for name, data in files.items():
            wheel.writestr(name, data)
    result = subprocess.run(
        [sys.executable, "-", str(tmp_path / "broken"), str(wheels)],
        input=_boot_test().BREAK_WHEEL,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    broken = Path(result.stdout.strip())
    assert broken == tmp_path / "broken" / card.name
    with zipfile.ZipFile(broken) as wheel:
        assert sorted(wheel.namelist()) == sorted(files)
        for name, data in files.items():
            if name != "boardctl/daemon/notify.py":
                assert wheel.read(name) == data
        wheel.extractall(tmp_path / "site")
    imported = subprocess.run(
        [sys.executable, "-c", "import boardctl.daemon.notify"],
        cwd=tmp_path / "site",
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert imported.returncode == 1
    assert "broken on purpose" in imported.stderr
