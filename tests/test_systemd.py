"""The service files in systemd/: the unit, install.sh and the example config."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD_DIR = Path(__file__).resolve().parent.parent / "systemd"
UNIT = SYSTEMD_DIR / "boardctl.service"
INSTALL = SYSTEMD_DIR / "install.sh"
EXAMPLE_CONFIG = SYSTEMD_DIR / "config.example.toml"

EXEC_START = "/opt/boardctl/venv/bin/boardctl run --config /etc/boardctl/config.toml"
GROUPS = ("gpio", "spi", "dialout", "video", "input")  # the list; the unit may add more
TRUE_VALUES = {"1", "yes", "y", "true", "t", "on"}  # systemd's spellings of "true"


def parse_unit(text: str) -> dict[str, list[tuple[str, str]]]:
    """Section name -> (key, value) in file order; repeated keys kept."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        assert not line.endswith("\\"), f"continuation lines are not expected: {raw!r}"
        if line.startswith("["):
            current = line.strip("[]")
            sections.setdefault(current, [])
            continue
        assert current is not None, f"key outside a section: {raw!r}"
        key, _, value = line.partition("=")
        sections[current].append((key.strip(), value.strip()))
    return sections


def values(section: str, key: str) -> list[str]:
    return [v for k, v in parse_unit(UNIT.read_text())[section] if k == key]


def value(section: str, key: str) -> str:
    found = values(section, key)
    assert len(found) == 1, f"[{section}] {key}: expected once, found {found}"
    return found[0]


def is_true(section: str, key: str) -> bool:
    return any(v.lower() in TRUE_VALUES for v in values(section, key))


def install_constant(name: str) -> str:
    match = re.search(rf"^readonly {name}=(\S+)$", INSTALL.read_text(), re.MULTILINE)
    assert match, f"install.sh has no readonly {name}="
    return match.group(1)


# --------------------------------------------------------------- systemd-analyze verify


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["systemd-analyze", "verify", str(unit)],
        capture_output=True,
        text=True,
        check=False,
        cwd=unit.parent,
        timeout=120,
    )


needs_systemd_analyze = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None,
    reason="systemd-analyze is not installed (Debian package: systemd)",
)


@pytest.fixture
def verifiable_unit(tmp_path: Path) -> Path:
    """A copy of the unit whose ExecStart runs an executable that exists here.

    verify checks that ExecStart's binary exists, and the venv only exists on
    an installed Pi; everything else about the copy is the real file.
    """
    text = UNIT.read_text()
    true = shutil.which("true") or "/bin/true"
    copy = text.replace(f"ExecStart={EXEC_START}\n", f"ExecStart={true} run\n")
    changed = [(a, b) for a, b in zip(text.splitlines(), copy.splitlines(), strict=True) if a != b]
    assert changed == [(f"ExecStart={EXEC_START}", f"ExecStart={true} run")]
    path = tmp_path / UNIT.name
    path.write_text(copy)
    return path


@needs_systemd_analyze
def test_the_unit_passes_systemd_analyze_verify_without_a_word(verifiable_unit):
    # An unknown or misspelt key only warns (exit 0): any output at all fails.
    result = verify(verifiable_unit)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == ""


@needs_systemd_analyze
def test_verify_here_does_report_a_bad_key(verifiable_unit):
    # Proves the test above can fail on this machine's systemd-analyze.
    text = verifiable_unit.read_text().replace("[Service]\n", "[Service]\nWatchdogSecs=30\n")
    verifiable_unit.write_text(text)
    result = verify(verifiable_unit)
    assert "WatchdogSecs" in result.stderr


# --------------------------------------------------------------- what the unit says


def test_the_daemon_notifies_and_is_watched():
    assert value("Service", "Type") == "notify"
    assert value("Service", "NotifyAccess") == "main"
    assert int(value("Service", "WatchdogSec")) > 0
    assert value("Service", "Restart") == "on-failure"
    assert int(value("Service", "RestartSec")) > 0
    assert value("Service", "ExecStart") == EXEC_START
    assert value("Install", "WantedBy") == "multi-user.target"


def test_a_dedicated_user_with_the_hardware_groups():
    assert value("Service", "User") == "boardctl"
    assert value("Service", "Group") == "boardctl"
    groups = value("Service", "SupplementaryGroups").split()
    assert set(GROUPS) <= set(groups)
    assert "root" not in groups and "sudo" not in groups
    assert value("Service", "StateDirectory") == "boardctl"


def test_environment_for_sdl_python_and_lgpio():
    env = dict(
        item.split("=", 1) for line in values("Service", "Environment") for item in line.split()
    )
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["PYTHONUNBUFFERED"] == "1"
    # lgpio makes a FIFO in $LG_WD: it must be a directory systemd makes writable.
    assert env["LG_WD"] == "/run/" + value("Service", "RuntimeDirectory")
    assert env["XDG_CACHE_HOME"] == "/var/cache/" + value("Service", "CacheDirectory")


@pytest.mark.parametrize("key", ["PrivateDevices", "ProtectClock", "PrivateUsers"])
def test_the_hardening_hides_no_device(key):
    assert not is_true("Service", key), f"{key}=yes would hide or cut off the hardware"


def test_no_device_allow_list():
    assert values("Service", "DeviceAllow") == []
    assert values("Service", "DevicePolicy") in ([], ["auto"])


@pytest.mark.parametrize(
    "key",
    [
        "NoNewPrivileges",
        "ProtectHome",
        "PrivateTmp",
        "ProtectKernelTunables",
        "ProtectKernelModules",
        "ProtectKernelLogs",
        "ProtectControlGroups",
        "RestrictNamespaces",
        "RestrictSUIDSGID",
        "LockPersonality",
        "RestrictRealtime",
    ],
)
def test_the_hardening_that_is_on(key):
    assert is_true("Service", key)


def test_no_capabilities_and_a_read_only_system():
    assert value("Service", "CapabilityBoundingSet") == ""
    assert value("Service", "ProtectSystem") == "strict"
    assert value("Service", "SystemCallArchitectures") == "native"


def test_the_settings_can_be_written_and_the_page_served():
    # The first start and the web page's settings write the configuration's
    # folder (and only it, beside the state); the page listens on IP.
    folder = install_constant("CONFIG_DIR")
    assert value("Service", "ReadWritePaths") == f"-{folder}"
    assert value("Service", "ExecStart").endswith(f"--config {folder}/config.toml")
    families = value("Service", "RestrictAddressFamilies").split()
    assert {"AF_INET", "AF_INET6", "AF_UNIX", "AF_NETLINK"} == set(families)


def test_the_unit_says_why_the_device_hiding_keys_are_left_out():
    comments = "\n".join(line for line in UNIT.read_text().splitlines() if line.startswith("#"))
    for key in ("PrivateDevices=yes", "ProtectClock=yes", "DeviceAllow="):
        assert key in comments


# --------------------------------------------------------------- install.sh


def test_install_sh_and_the_unit_agree_on_the_paths():
    venv = install_constant("VENV").replace("$PREFIX", install_constant("PREFIX"))
    config = install_constant("CONFIG").replace("$CONFIG_DIR", install_constant("CONFIG_DIR"))
    assert value("Service", "ExecStart") == f"{venv}/bin/boardctl run --config {config}"
    assert install_constant("USER_NAME") == value("Service", "User")
    assert install_constant("STATE_DIR") == "/var/lib/" + value("Service", "StateDirectory")
    groups = re.search(r"^readonly GROUPS_NEEDED=\(([^)]*)\)$", INSTALL.read_text(), re.M)
    assert groups and groups.group(1).split() == value("Service", "SupplementaryGroups").split()
    assert "file:///opt/boardctl/README.md" in values("Unit", "Documentation")


def test_install_sh_is_valid_bash():
    result = subprocess.run(
        ["bash", "-n", str(INSTALL)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert INSTALL.read_text().startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in INSTALL.read_text()
    assert os.access(INSTALL, os.X_OK)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_install_sh_is_shellcheck_clean():
    result = subprocess.run(
        ["shellcheck", str(INSTALL)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


MUTATING = ("apt-get", "groupadd", "useradd", "usermod", "install", "systemctl", "pip", "tar")


@pytest.fixture(scope="module")
def dry_run(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """install.sh --dry-run, with every command that changes the system replaced
    by a stub that records being called.  Run once for the module: the tests
    only read what it printed and called (a run is a second of CPU)."""
    tmp_path = tmp_path_factory.mktemp("dry-run")
    stubs = tmp_path / "bin"
    stubs.mkdir()
    called = tmp_path / "called"
    for name in MUTATING:
        stub = stubs / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{called}"\n')
        stub.chmod(0o755)
    env = {**os.environ, "PATH": f"{stubs}:{os.environ.get('PATH', '/usr/bin:/bin')}"}
    result = subprocess.run(
        ["bash", str(INSTALL), "--dry-run"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=60,
    )
    return result, called


def test_dry_run_changes_nothing(dry_run):
    result, called = dry_run
    assert result.returncode == 0, result.stderr
    assert not called.exists(), called.read_text()


@pytest.mark.parametrize(
    "step",
    [
        r"system user boardctl",
        r"useradd --system .*boardctl|user boardctl exists",
        r"usermod --append --groups gpio,spi,dialout,video,render,input,audio boardctl",
        # Each version in a venv of its own; /opt/boardctl/venv links the one in use.
        r"-m venv /opt/boardctl/versions/[\w.+]+-\d{8}T\d{6}Z\n",
        r"mv -Tf /opt/boardctl/venv\.new /opt/boardctl/venv\n",
        r"install -m 0755 \S+/systemd/update\.sh /usr/local/lib/boardctl/update\.sh\n",
        r"install -m 0644 \S+/systemd/dryrun\.sh /usr/local/lib/boardctl/dryrun\.sh\n",
        r"ln -sfn /usr/local/lib/boardctl/update\.sh /usr/local/sbin/boardctl-update\n",
        r"install -m 0644 \S+/systemd/boardctl-rollback\.service "
        r"/etc/systemd/system/boardctl-rollback\.service",
        r"pip install .*\[pi,display,web,remote\]",
        r"install -d -m 0775 -g boardctl /etc/boardctl\n",
        r"install -m 0644 \S+/systemd/config\.example\.toml /etc/boardctl/config\.example\.toml",
        r"/etc/boardctl/config\.toml: written at the first start"
        r"|/etc/boardctl/config\.toml exists: kept",
        r"install -m 0644 \S+/systemd/boardctl\.service /etc/systemd/system/boardctl\.service",
        r"systemctl daemon-reload",
        r"systemctl enable boardctl\.service",
        r"systemctl restart boardctl\.service",
        r"raspi-config nonint do_spi 0",
        r"boardctl diag",
    ],
)
def test_dry_run_mentions_each_step(dry_run, step):
    result, _ = dry_run
    assert re.search(step, result.stdout), result.stdout


def test_dry_run_shows_each_group(dry_run):
    result, _ = dry_run
    for group in GROUPS:
        assert re.search(rf"groupadd --system {group}\n|groups .*\b{group}\b", result.stdout)


@pytest.mark.parametrize(
    ("args", "status", "needle"),
    [
        (["--help"], 0, "--dry-run"),
        (["--frobnicate"], 1, "unknown argument: --frobnicate"),
    ],
)
def test_install_sh_arguments(args, status, needle):
    result = subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == status
    assert needle in result.stdout + result.stderr


# --------------------------------------------------------------- the example config


def test_the_example_config_is_a_valid_config():
    config = pytest.importorskip("boardctl.config")
    loaded = config.load_config(EXAMPLE_CONFIG)
    assert loaded.board.sensors == "sim"  # a first start works without wiring


def test_the_example_config_shows_the_defaults():
    # Its header says "the values shown are the defaults".
    config = pytest.importorskip("boardctl.config")
    loaded = config.load_config(EXAMPLE_CONFIG)
    assert loaded == config.Config(source=loaded.source)


def test_restarts_from_the_page_never_reach_the_start_limit():
    # Every start counts toward StartLimitBurst, a restart by Restart=
    # included (systemd.unit(5)); the page's restart exits with EX_TEMPFAIL,
    # a failure that Restart=on-failure restarts.  With RESTART_GAP of running
    # between restarts, StartLimitBurst + 1 starts span more than the interval.
    from boardctl.daemon.restart import RESTART_GAP, RESTART_STATUS

    assert value("Service", "Restart") == "on-failure"
    assert RESTART_STATUS not in (0, 1, 2) and values("Service", "RestartPreventExitStatus") == []
    burst = int(value("Unit", "StartLimitBurst"))
    interval = int(value("Unit", "StartLimitIntervalSec"))
    between = RESTART_GAP + int(value("Service", "RestartSec"))
    assert burst * between > interval


# --------------------------------------------------------------- the rollback unit
ROLLBACK = SYSTEMD_DIR / "boardctl-rollback.service"


@needs_systemd_analyze
def test_the_rollback_unit_passes_systemd_analyze_verify(tmp_path):
    # As for the main unit: its ExecStart exists only where install.sh has run.
    update = install_constant("UPDATE")
    text = ROLLBACK.read_text()
    true = shutil.which("true") or "/bin/true"
    copy = tmp_path / ROLLBACK.name
    copy.write_text(text.replace(f"ExecStart={update} ", f"ExecStart={true} "))
    assert copy.read_text() != text
    result = verify(copy)
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "")


def test_a_failure_of_the_board_starts_the_rollback_unit():
    # The unit fails for good (after its restarts); the rollback acts only on an
    # update on trial (tests/test_update.py).
    assert value("Unit", "OnFailure") == ROLLBACK.name
    rollback = parse_unit(ROLLBACK.read_text())["Service"]
    assert ("Type", "oneshot") in rollback
    assert ("ExecStart", f"{install_constant('UPDATE')} rollback --if-trial") in rollback
