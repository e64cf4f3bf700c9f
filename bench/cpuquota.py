"""Run a command on one core with a CPU quota: a slower computer, simulated.

Two ways to hold a process to a fraction of a core:

- ``cgroup``: the kernel's CFS bandwidth control (cgroup v2 ``cpu.max``, or
  v1 ``cpu.cfs_quota_us``), in a cgroup made for the run and removed after.
  It needs a writable cgroup tree with the cpu controller (root, or a
  delegated subtree).  ``systemd-run --scope -p CPUQuota=`` is the same
  control through systemd, which containers often lack.
- ``duty``: a duty cycle run from this process: it reads the child's CPU
  time (``/proc/PID/task/*/schedstat``, in nanoseconds) every
  millisecond and stops the child with SIGSTOP whenever it is ahead of
  ``quota × wall time``, SIGCONT when it is behind.  Because it steers on the
  CPU time actually used, not on a fixed on/off pattern, it delivers the
  quota even when the scheduler gives the child less than its on-time
  (as long as it gets the quota at all).

Either way the quota is a ceiling: on a busy machine the child may get less.
:func:`run_limited` returns the CPU time and the wall time so the caller can
check the share it really had.  ``--validate`` checks both methods here on a
busy loop::

    .venv/bin/python bench/cpuquota.py --validate --quota 0.25
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

TICK = 0.001  # seconds between looks at the child's CPU time (duty cycle)
CFS_PERIOD_US = 10_000  # a short period, so the child runs in small slices like duty's
CGROUP_V1 = Path("/sys/fs/cgroup/cpu")
CGROUP_V2 = Path("/sys/fs/cgroup")


@dataclass(frozen=True)
class Run:
    method: str
    wall: float  # seconds
    cpu: float  # seconds of CPU the child used
    stdout: str
    returncode: int

    @property
    def share(self) -> float:
        return self.cpu / self.wall if self.wall > 0 else 0.0


def _cgroup_dir() -> tuple[Path, str] | None:
    """A new cgroup with the cpu controller, and how to set its quota; None if none
    can be made here."""
    name = f"boardctl-bench-{os.getpid()}"
    v2_controllers = CGROUP_V2 / "cgroup.controllers"
    if v2_controllers.exists() and "cpu" in v2_controllers.read_text().split():
        try:
            (CGROUP_V2 / name).mkdir()
        except OSError:
            return None
        return CGROUP_V2 / name, "v2"
    if (CGROUP_V1 / "cpu.cfs_quota_us").exists():
        try:
            (CGROUP_V1 / name).mkdir()
        except OSError:
            return None
        return CGROUP_V1 / name, "v1"
    return None


def cgroup_usable() -> bool:
    made = _cgroup_dir()
    if made is None:
        return False
    made[0].rmdir()
    return True


def _cpu_ns(pid: int) -> int:
    """CPU time of every thread of ``pid`` so far, in nanoseconds."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        # A thread can end between the listing and the read.
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int((task / "schedstat").read_text().split()[0])
    return total


def _pin(core: int | None) -> None:
    if core is not None:
        os.sched_setaffinity(0, {core})


def run_limited(
    argv: list[str], quota: float, core: int | None = None, method: str = "auto"
) -> Run:
    """Runs ``argv`` pinned to ``core`` with at most ``quota`` of one core's time.

    ``method`` is ``cgroup``, ``duty``, ``auto`` (cgroup when possible) or
    ``none`` (pinned, no quota).

    :raises OSError: ``cgroup`` was asked for and no cgroup can be made here.
    """
    if not 0 < quota <= 1:
        raise ValueError(f"quota {quota} outside (0, 1]")
    group = None
    if method in ("auto", "cgroup"):
        group = _cgroup_dir()
        if group is None and method == "cgroup":
            raise OSError("no writable cgroup with the cpu controller here")
        method = "cgroup" if group else "duty"
    if group is not None:
        path, version = group
        quota_us = max(1000, round(quota * CFS_PERIOD_US))
        if version == "v2":
            (path / "cpu.max").write_text(f"{quota_us} {CFS_PERIOD_US}\n")
        else:
            (path / "cpu.cfs_period_us").write_text(f"{CFS_PERIOD_US}\n")
            (path / "cpu.cfs_quota_us").write_text(f"{quota_us}\n")
    start = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, preexec_fn=lambda: _pin(core))
    try:
        if group is not None:
            (group[0] / "cgroup.procs").write_text(f"{child.pid}\n")
        out, cpu, status = _supervise(child, quota if method == "duty" else None, start)
    finally:
        if child.returncode is None and child.poll() is None:
            child.kill()
            child.wait()
        if group is not None:
            group[0].rmdir()
    return Run(method, time.perf_counter() - start, cpu, out, status)


def _supervise(
    child: subprocess.Popen[bytes], quota: float | None, start: float
) -> tuple[str, float, int]:
    """Collects the child's output until it exits, steering it to ``quota`` of
    wall time if one is given; returns the output, its CPU seconds and its exit
    status."""
    assert child.stdout is not None
    fd = child.stdout.fileno()
    os.set_blocking(fd, False)
    chunks: list[bytes] = []
    stopped = False
    while True:
        try:
            piece = os.read(fd, 65536)
        except BlockingIOError:
            pass
        else:
            if not piece:
                break  # end of output: the child is exiting
            chunks.append(piece)
        if quota is not None:
            try:
                cpu_ns = _cpu_ns(child.pid)
            except OSError:
                break
            allowed_ns = quota * (time.perf_counter() - start) * 1e9
            if not stopped and cpu_ns > allowed_ns:
                child.send_signal(signal.SIGSTOP)
                stopped = True
            elif stopped and cpu_ns <= allowed_ns:
                child.send_signal(signal.SIGCONT)
                stopped = False
        time.sleep(TICK)
    if stopped:
        child.send_signal(signal.SIGCONT)
    # wait4, not Popen.wait: it gives this child's own CPU time.
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    return b"".join(chunks).decode(), usage.ru_utime + usage.ru_stime, child.returncode


SPIN = (
    "import time\n"
    "end = time.perf_counter() + {seconds}\n"
    "while time.perf_counter() < end: pass\n"
    "print(time.process_time())\n"
)


def validate(quota: float, seconds: float, core: int | None) -> None:
    """Busy loops under each method: the share of a core each one really got."""
    print(f"A busy loop of {seconds:.0f} s wall on core {core}, quota {quota:.1%}:")
    methods = ["none", "duty"] + (["cgroup"] if cgroup_usable() else [])
    for method in methods:
        run = run_limited(
            [sys.executable, "-c", SPIN.format(seconds=seconds)],
            quota if method != "none" else 1.0,
            core,
            method,
        )
        own = float(run.stdout.split()[-1])  # what the child measured itself
        print(
            f"  {method:7} CPU {own:6.2f} s / wall {run.wall:6.2f} s = {own / run.wall:6.1%}"
            f"   (target {quota if method != 'none' else 1.0:.1%})"
        )
    if "cgroup" not in methods:
        print("  cgroup: no writable cgroup with the cpu controller here")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--validate", action="store_true", help="check the methods here")
    parser.add_argument("--quota", type=float, default=0.25)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--core", type=int, default=os.cpu_count() - 1 if os.cpu_count() else 0)
    args = parser.parse_args(argv)
    if args.validate:
        validate(args.quota, args.seconds, args.core)
    else:
        parser.print_help()


if __name__ == "__main__":
    main(sys.argv[1:])
