"""Any configuration is refused in one line with exit status 2, or plays a
headless game (issue 11): hypothesis writes configuration files of every
kind (right and wrong types, edges of each range, huge numbers, unicode,
paths that are missing, directories or fine) and ``boardctl sim --headless``
plays two seconds of a game with each.  Nothing may escape as an exception,
and nothing may hang: the engine is given at most ``ENGINE_WAIT`` real
seconds a move, here cut to keep the examples quick.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from boardctl.cli import main
from boardctl.config import MAX_CLOCK_MINUTES, MAX_MOVETIME
from boardctl.hw.pins import repo_pinout_path
from boardctl.rules import VARIANTS

SCRIPT = "0 lift e2\n0.4 place e4\n1.2 lift e7\n1.6 place e5\n2 lift g1\n"
EXAMPLES = 25

HUGE = st.sampled_from(
    [2**63, -(2**63), 10**400 // 10**300, math.inf, -math.inf, math.nan, 1e308, -0.0]
)
TEXT = st.text(max_size=12)
ODD = st.one_of(
    HUGE, TEXT, st.booleans(), st.integers(), st.floats(), st.lists(st.integers(), max_size=2)
)


def number_text():
    """Numbers as a user might type them, right and wrong."""
    digits = st.sampled_from(
        [
            "0",
            "1",
            "5",
            "0.5",
            "600",
            "601",
            "²",
            "٣",
            "1_0",
            "inf",
            "nan",
            "1e400",
            "9" * 400,
            "-1",
            "",
            " 3",
        ]
    )
    return st.tuples(digits, digits)


def mostly(good, wild):
    """Values that are usually right, so that many examples get to play."""
    return st.integers(0, 3).flatmap(lambda pick: good if pick else st.one_of(wild, ODD))


def section_strategies(paths):
    any_path = st.sampled_from(list(paths.values()))
    return {
        "board": {
            "sensors": mostly(st.just("sim"), st.sampled_from(["gpio", "serial", "Sim"])),
            "serial_port": mostly(st.just("/dev/ttyACM0"), TEXT),
            "pinout": mostly(st.sampled_from([paths["none"], paths["pinout"]]), any_path),
            "record": mostly(st.sampled_from([paths["none"], paths["new"]]), any_path),
            "settle_ms": mostly(st.integers(0, 5000), st.integers(-10, 6000)),
            "grace_ms": mostly(st.integers(0, 60000), st.integers(-10, 70000)),
        },
        "leds": {
            "enabled": mostly(st.booleans(), TEXT),
            "layout": mostly(st.sampled_from(["squares", "corners"]), st.just("²")),
            "brightness": mostly(st.floats(0.0, 1.0), st.floats(-0.5, 1.5)),
        },
        "display": {
            "enabled": mostly(st.booleans(), TEXT),
            "size": mostly(
                st.sampled_from(["480x320", "800X480", "400x240", "8192x8192"]),
                number_text().map("x".join),
            ),
            "fullscreen": mostly(st.booleans(), TEXT),
        },
        "engine": {
            "skill": mostly(st.integers(0, 20), st.integers(-2, 22)),
            "movetime": mostly(st.floats(0.05, MAX_MOVETIME), st.floats(0.0, MAX_MOVETIME + 1)),
            "external": mostly(
                st.sampled_from(["", "true"]),
                st.sampled_from(['foo "bar', "no-such-engine-boardctl", " ", "a\u0000b"]),
            ),
        },
        "game": {
            "mode": mostly(
                st.sampled_from(["engine", "two-players", "teaching"]), st.just("chess")
            ),
            "human": mostly(st.sampled_from(["white", "black"]), st.just("red")),
            "variant": mostly(st.sampled_from(list(VARIANTS)), st.just("shogi")),
            "takeback": mostly(st.booleans(), TEXT),
            "clock": mostly(
                st.sampled_from(["", "5+3", f"{MAX_CLOCK_MINUTES:g}+0", "0.05+0", "0.5+600"]),
                number_text().map("+".join),
            ),
        },
    }


def toml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return (
            "nan"
            if math.isnan(value)
            else ("inf" if value > 0 else "-inf")
            if math.isinf(value)
            else repr(value)
        )
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string is a TOML basic string
    return str(value)


@st.composite
def config_files(draw, paths):
    """The bytes of a configuration file."""
    if draw(st.integers(0, 19)) == 0:
        return draw(st.binary(max_size=40)) + b"\xff"  # not UTF-8, or not TOML
    lines = []
    for section, keys in section_strategies(paths).items():
        chosen = draw(st.lists(st.sampled_from(sorted(keys)), unique=True, max_size=2))
        if not chosen:
            continue
        lines.append(f"[{section}]")
        lines += [f"{key} = {toml_value(draw(keys[key]))}" for key in chosen]
    if draw(st.integers(0, 9)) == 0:
        lines.append(f"[{draw(st.sampled_from(['sound', 'game']))}]")
        lines.append(f"{json.dumps(draw(TEXT))} = 1")
    return "\n".join(lines).encode("utf-8")


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    root = tmp_path_factory.mktemp("paths")
    (root / "dir").mkdir()
    pinout = root / "pinout.toml"
    pinout.write_text(repo_pinout_path().read_text())
    (root / "bad.toml").write_bytes(b"\xff\xfe[pi")
    (root / "script.log").write_text(SCRIPT)
    return {
        "none": "",
        "missing": str(root / "missing.toml"),
        "dir": str(root / "dir"),
        "pinout": str(pinout),
        "bad": str(root / "bad.toml"),
        "new": str(root / "record.log"),
        "no-dir": str(root / "no" / "file.log"),
        "unicode": str(root / "ünïcødé²"),
        "long": str(root / ("x" * 5000)),
    }


@pytest.fixture
def quick_engine(monkeypatch):
    monkeypatch.setattr("boardctl.daemon.headless.ENGINE_WAIT", 0.3)


def test_the_strategies_reach_both_outcomes(paths, tmp_path, capsys, quick_engine):
    """The premise: a good file plays, a bad one is refused."""
    script = tmp_path.parent / "script.log"
    script.write_text(SCRIPT)
    good, bad = tmp_path / "good.toml", tmp_path / "bad.toml"
    good.write_text('[game]\nclock = "0.05+0"\nmode = "engine"\n[engine]\nskill = 20\n')
    bad.write_text('[game]\nclock = "inf+0"\n')
    assert main(["sim", "--headless", "--script", str(script), "--config", str(good)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("fen ")
    assert main(["sim", "--headless", "--script", str(script), "--config", str(bad)]) == 2


# No shrinking: each example starts an engine process, and shrinking one took
# over five minutes; the example as generated is small enough to read.
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_configuration_is_refused_in_one_line_or_plays(
    paths, tmp_path, capsys, quick_engine, data
):
    config = tmp_path / "config.toml"
    config.write_bytes(data.draw(config_files(paths)))
    script = paths["pinout"].rsplit("/", 1)[0] + "/script.log"
    status = main(["sim", "--headless", "--script", script, "--config", str(config)])
    out, err = capsys.readouterr()
    event(f"exit {status}")
    if status == 2:
        assert out == "" and len(err.splitlines()) == 1 and "Traceback" not in err, err
        assert len(err) < 400
    else:
        assert status == 0, err
        assert out.splitlines()[-1].startswith("fen ")
