"""systemd/update.sh (boardctl-update): a new version beside the old one, the
switch, and going back when the new one does not become ready; run here on
a folder of versions, with a fake systemctl that plays the service (a
version whose boardctl says "broken" never starts, "flaky" starts and falls
over).  The boot test (make test-image) runs it under real systemd."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

UPDATE = Path(__file__).resolve().parent.parent / "systemd" / "update.sh"
DRYRUN = UPDATE.with_name("dryrun.sh")  # what update.sh sources from beside itself

# A systemctl that records its calls and plays boardctl.service: restart
# starts whatever version the venv link names.
FAKE_SYSTEMCTL = r"""#!/bin/bash
echo "$*" >> "$FAKE/calls"
state=$FAKE/state
case $1 in
    restart)
        script=$(cat "$PREFIX/venv/bin/boardctl")
        if [[ $script == *broken* ]]; then echo "failed -" > "$state"; exit 1; fi
        if [[ $script == *flaky* ]]; then echo "flaky $RANDOM" > "$state"; exit 0; fi
        echo "active $RANDOM" > "$state" ;;
    show)
        read -r active pid < "$state" || { active=inactive; pid=0; }
        case $3 in
            ActiveState)
                # A flaky version is active once, when asked first, then fails.
                if [[ $active == flaky ]]; then echo "failed $pid" > "$state"; echo active
                else echo "$active"; fi ;;
            MainPID) echo "$pid" ;;
        esac ;;
esac
exit 0
"""

# A python3 that makes a "venv" whose pip "installs" boardctl: pip fails for
# a source named *bad*.
FAKE_PYTHON = r"""#!/bin/bash
echo "python $*" >> "$FAKE/calls"
[[ $1 == -m && $2 == venv ]] || exit 0
mkdir -p "$3/bin"
cat > "$3/bin/pip" <<EOF
#!/bin/bash
echo "pip \$*" >> "$FAKE/calls"
for arg; do [[ \$arg == *bad* ]] && exit 1; done
printf '#!/bin/sh\necho good\n' > "$3/bin/boardctl"
chmod +x "$3/bin/boardctl"
EOF
chmod +x "$3/bin/pip"
"""


@pytest.fixture
def box(tmp_path: Path) -> Box:
    return Box(tmp_path)


class Box:
    """A prefix with versions, the fake systemctl and python3, and a runner."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.prefix = root / "opt"
        (self.prefix / "versions").mkdir(parents=True)
        fake = root / "fake"
        fake.mkdir()
        self.fake = fake
        for name, text in (("systemctl", FAKE_SYSTEMCTL), ("python3", FAKE_PYTHON)):
            path = fake / name
            path.write_text(text)
            path.chmod(0o755)
        self.env = {
            **os.environ,
            "BOARDCTL_PREFIX": str(self.prefix),
            "PREFIX": str(self.prefix),
            "FAKE": str(fake),
            "SYSTEMCTL": str(fake / "systemctl"),
            "BOARDCTL_PYTHON": str(fake / "python3"),
            # Two checks of the new version after it said ready, as the service's
            # twenty, a twentieth of a second apart: the flaky one is caught at
            # its second.
            "BOARDCTL_SETTLE_MS": "100",
            "BOARDCTL_CHECK_MS": "50",
            "BOARDCTL_LOCK": str(root / "lock"),
        }

    def version(self, name: str, says: str = "good") -> str:
        bin_dir = self.prefix / "versions" / name / "bin"
        bin_dir.mkdir(parents=True)
        script = bin_dir / "boardctl"
        script.write_text(f"#!/bin/sh\necho {says}\n")
        script.chmod(0o755)
        return name

    def use(self, name: str, previous: str | None = None) -> None:
        (self.prefix / "venv").symlink_to(f"versions/{name}")
        if previous:
            (self.prefix / "previous").symlink_to(f"versions/{previous}")
        (self.fake / "state").write_text("active 100\n")

    def link(self, name: str) -> str | None:
        path = self.prefix / name
        return os.readlink(path).split("/")[-1] if path.is_symlink() else None

    def run(self, *args: str, script: Path = UPDATE) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", str(script), *args],
            capture_output=True,
            text=True,
            env=self.env,
            check=False,
            timeout=120,
        )

    @property
    def calls(self) -> list[str]:
        path = self.fake / "calls"
        return path.read_text().splitlines() if path.exists() else []

    @property
    def versions(self) -> set[str]:
        return {p.name for p in (self.prefix / "versions").iterdir()}


def test_a_ready_version_is_switched_to_and_the_old_one_kept(box):
    box.use(box.version("1-old"), previous=box.version("0-older"))
    box.version("2-new")
    result = box.run("switch", "2-new")
    assert result.returncode == 0, result.stderr
    assert (box.link("venv"), box.link("previous")) == ("2-new", "1-old")
    assert "restart boardctl.service" in box.calls
    assert not (box.prefix / "trial").exists()
    assert box.versions == {"1-old", "2-new"}  # the one before the previous is gone


def test_a_version_that_never_becomes_ready_is_gone_back_from(box):
    box.use(box.version("1-old"), previous=box.version("0-older"))
    box.version("2-broken", says="broken")
    result = box.run("switch", "2-broken")
    assert result.returncode == 1
    assert "stayed with version 1-old: 2-broken did not become ready" in result.stderr
    assert (box.link("venv"), box.link("previous")) == ("1-old", "0-older")
    assert box.calls.count("restart boardctl.service") == 2  # the new one, then the old
    assert "reset-failed boardctl.service" in box.calls
    assert not (box.prefix / "trial").exists()
    assert "2-broken" in box.versions  # kept, to look at


def test_a_version_that_falls_over_after_ready_is_gone_back_from(box):
    box.use(box.version("1-old"))
    box.version("2-flaky", says="flaky")
    result = box.run("switch", "2-flaky")
    assert result.returncode == 1
    assert box.link("venv") == "1-old"
    assert box.link("previous") is None


def test_the_first_install_is_used_at_once(box):
    box.version("1-first")
    result = box.run("switch", "1-first")
    assert result.returncode == 0, result.stderr
    assert (box.link("venv"), box.link("previous")) == ("1-first", None)
    assert box.calls == ["restart boardctl.service"]


def test_no_restart_switches_the_link_only(box):
    box.use(box.version("1-old"))
    box.version("2-new")
    result = box.run("--no-restart", "switch", "2-new")
    assert result.returncode == 0, result.stderr
    assert (box.link("venv"), box.link("previous")) == ("2-new", "1-old")
    assert box.calls == []


def test_rollback_if_trial_does_nothing_without_an_update_on_trial(box):
    box.use(box.version("1-old"), previous=box.version("0-older"))
    result = box.run("rollback", "--if-trial")
    assert result.returncode == 0
    assert "no update is on trial" in result.stdout
    assert box.link("venv") == "1-old"
    assert box.calls == []


def test_rollback_if_trial_undoes_an_interrupted_update(box):
    # As a switch leaves things when it is killed while the new version starts.
    box.use(box.version("2-new"), previous=box.version("1-old"))
    (box.prefix / "trial").write_text("from=1-old\nprevious=0-older\nto=2-new\n")
    box.version("0-older")
    result = box.run("rollback", "--if-trial")
    assert result.returncode == 0, result.stderr
    assert (box.link("venv"), box.link("previous")) == ("1-old", "0-older")
    assert not (box.prefix / "trial").exists()
    assert box.calls == ["reset-failed boardctl.service", "start --no-block boardctl.service"]


@contextmanager
def lock_held(box: Box) -> Iterator[None]:
    """Another boardctl-update holding the lock (flock(1), as the script takes it)."""
    lock = box.env["BOARDCTL_LOCK"]
    with subprocess.Popen(["flock", lock, "sleep", "60"]) as holder:
        try:
            deadline = time.monotonic() + 10
            while subprocess.run(["flock", "-n", lock, "true"], check=False).returncode == 0:
                assert time.monotonic() < deadline, "flock never took the lock"
                time.sleep(0.05)
            yield
        finally:
            holder.kill()


def test_rollback_if_trial_leaves_an_update_under_way_to_its_updater(box):
    # OnFailure= starts the rollback unit at a failed start of the version on trial
    # while boardctl-update still waits for it: that updater goes back itself, and
    # the rollback unit must neither wait for its lock nor fail.
    box.use(box.version("2-new"), previous=box.version("1-old"))
    (box.prefix / "trial").write_text("from=1-old\nprevious=0-older\nto=2-new\n")
    with lock_held(box):
        result = box.run("rollback", "--if-trial")
    assert result.returncode == 0, result.stderr
    assert "another boardctl-update is running" in result.stdout
    assert box.link("venv") == "2-new"
    assert (box.prefix / "trial").exists()
    assert box.calls == []


def test_a_second_update_while_one_runs_is_refused(box):
    box.use(box.version("1-old"))
    box.version("2-new")
    with lock_held(box):
        result = box.run("switch", "2-new")
    assert result.returncode == 1
    assert "another boardctl-update is running" in result.stderr
    assert box.link("venv") == "1-old"


def test_rollback_by_hand_goes_to_the_previous_version(box):
    box.use(box.version("2-new"), previous=box.version("1-old"))
    result = box.run("rollback")
    assert result.returncode == 0, result.stderr
    assert (box.link("venv"), box.link("previous")) == ("1-old", "2-new")


def test_rollback_without_a_previous_version_says_so(box):
    box.use(box.version("1-only"))
    result = box.run("rollback")
    assert result.returncode == 1
    assert "there is no previous version" in result.stderr


def test_an_older_installs_venv_folder_becomes_a_version(box):
    venv = box.prefix / "venv"
    (venv / "bin").mkdir(parents=True)
    script = venv / "bin" / "boardctl"
    script.write_text(f"#!{venv}/bin/python\nprint('old')\n")
    script.chmod(0o755)
    box.version("2-new")
    (box.fake / "state").write_text("active 100\n")
    result = box.run("switch", "2-new")
    assert result.returncode == 0, result.stderr
    legacy = box.link("previous")
    assert legacy is not None and legacy.startswith("legacy-")
    moved = box.prefix / "versions" / legacy / "bin" / "boardctl"
    assert moved.read_text().splitlines()[0] == f"#!{box.prefix}/versions/{legacy}/bin/python"
    assert box.link("venv") == "2-new"


def test_install_builds_a_version_from_a_wheel_and_switches(box):
    box.use(box.version("0.0.9-old"))
    wheel = box.root / "boardctl-0.1.0-cp313-cp313-linux_aarch64.whl"
    wheel.write_text("")
    result = box.run("install", "--offline", str(wheel))
    assert result.returncode == 0, result.stderr
    new = box.link("venv")
    assert new is not None and new.startswith("0.1.0-")
    assert box.link("previous") == "0.0.9-old"
    pip = next(call for call in box.calls if call.startswith("pip install"))
    assert f"--no-index --find-links {box.prefix}/wheels" in pip
    assert pip.endswith(f"{wheel}[pi,display,web,remote]")


def test_install_from_a_checkout_reads_its_version(box):
    checkout = box.root / "checkout"
    checkout.mkdir()
    (checkout / "pyproject.toml").write_text('[project]\nname = "boardctl"\nversion = "0.2.0"\n')
    (checkout / "boardctl").mkdir()
    (checkout / ".git").mkdir()  # left behind in the copy pip builds from
    # The version is read with the real Python's tomllib; the venv is the fake's.
    box.env["BOARDCTL_PYTHON"] = str(_python_with_fake_venv(box))
    result = box.run("install", str(checkout))
    assert result.returncode == 0, result.stderr
    assert (box.link("venv") or "").startswith("0.2.0-")
    pip = next(call for call in box.calls if call.startswith("pip install"))
    assert "/tmp/boardctl-build." in pip and "--no-index" not in pip


def _python_with_fake_venv(box: Box) -> Path:
    """A python3 that is the fake for ``-m venv`` and the real one otherwise."""
    path = box.fake / "python3-mixed"
    path.write_text(
        f'#!/bin/bash\nif [[ $1 == -m && $2 == venv ]]; then exec {box.fake}/python3 "$@"; fi\n'
        f'exec {shutil.which("python3")} "$@"\n'
    )
    path.chmod(0o755)
    return path


def test_a_failed_install_switches_nothing(box):
    box.use(box.version("1-old"))
    wheel = box.root / "boardctl-0.3.0-bad.whl"
    wheel.write_text("")
    result = box.run("install", str(wheel))
    assert result.returncode == 1
    assert "nothing was switched" in result.stderr
    assert box.link("venv") == "1-old"
    assert box.versions == {"1-old"}  # the half-made version is removed
    assert "restart boardctl.service" not in box.calls


def test_dry_run_changes_nothing(box):
    box.use(box.version("1-old"))
    box.version("2-new")
    result = box.run("--dry-run", "switch", "2-new")
    assert result.returncode == 0, result.stderr
    assert "would run: ln -sfn versions/2-new" in result.stdout
    assert "restart boardctl.service" in result.stdout
    assert box.link("venv") == "1-old"
    assert not (box.prefix / "trial").exists()
    assert box.calls == []


def test_the_updater_runs_as_install_sh_lays_it_out(box, tmp_path):
    """A link in sbin to the script, and what it sources beside the script."""
    tools = tmp_path / "lib" / "boardctl"
    tools.mkdir(parents=True)
    for source in (UPDATE, DRYRUN):
        shutil.copy(source, tools / source.name)
    (tmp_path / "sbin").mkdir()
    link = tmp_path / "sbin" / "boardctl-update"
    link.symlink_to(tools / UPDATE.name)
    box.use(box.version("1-old"))
    box.version("2-new")
    result = box.run("--dry-run", "switch", "2-new", script=link)
    assert result.returncode == 0, result.stderr
    assert "would run: ln -sfn versions/2-new" in result.stdout


def test_list_marks_the_version_in_use_and_the_previous(box):
    box.use(box.version("2-new"), previous=box.version("1-old"))
    box.version("0-other")
    result = box.run("list")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["  0-other", "p 1-old", "* 2-new"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["switch", "9-none"], "no version 9-none"),
        (["frobnicate"], "unknown command: frobnicate"),
        (["install"], "name a checkout, a wheel or an sdist"),
    ],
)
def test_mistakes_are_one_line(box, args, message):
    result = box.run(*args)
    assert result.returncode == 1
    assert message in result.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
@pytest.mark.parametrize("script", [UPDATE, DRYRUN], ids=lambda path: path.name)
def test_update_sh_is_shellcheck_clean(script):
    result = subprocess.run(
        ["shellcheck", str(script)], capture_output=True, text=True, check=False, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
