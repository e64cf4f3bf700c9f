"""The wire protocol's numbers and names have one source: the firmware's copy
(firmware/protocol_constants.py) is what boardctl/hw/protocol/constants.py
writes, and no other firmware file spells one of them again."""

from __future__ import annotations

import ast
import contextlib
from pathlib import Path

import pytest

from boardctl.hw.protocol import constants
from boardctl.hw.protocol.constants import (
    FIRMWARE_COPY,
    HEARTBEAT,
    LINK_TIMEOUT,
    DropReason,
    NakReason,
    firmware_module,
    main,
)

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def _literals(source: str) -> dict[str, object]:
    """The names a module assigns a literal to at its top level."""
    found: dict[str, object] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            with contextlib.suppress(ValueError):
                found[node.targets[0].id] = ast.literal_eval(node.value)
    return found


GENERATED = _literals(firmware_module())


def test_the_firmware_copy_is_what_the_host_module_writes() -> None:
    assert FIRMWARE_COPY == FIRMWARE / "protocol_constants.py"
    assert FIRMWARE_COPY.read_text(encoding="utf-8") == firmware_module(), (
        "run: python -m boardctl.hw.protocol.constants sync"
    )


def test_the_check_command_says_whether_the_copy_is_in_sync(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert main(["check"]) == 0
    stale = tmp_path / "protocol_constants.py"
    stale.write_text(firmware_module().replace("MAX_RETRIES = 3", "MAX_RETRIES = 4"))
    monkeypatch.setattr(constants, "FIRMWARE_COPY", stale)
    assert main(["check"]) == 1
    assert "differs" in capsys.readouterr().out
    assert main(["sync"]) == 0
    assert stale.read_text(encoding="utf-8") == firmware_module()
    assert main(["twice"]) == 2


def test_the_copy_says_what_the_host_says_in_the_firmwares_units() -> None:
    assert GENERATED["PROTOCOL_VERSION"] == constants.PROTOCOL_VERSION
    assert GENERATED["SUPPORTED_VERSIONS"] == tuple(sorted(constants.SUPPORTED_VERSIONS))
    assert GENERATED["HEARTBEAT_MS"] == 1000 * HEARTBEAT
    assert GENERATED["LINK_TIMEOUT_MS"] == 1000 * LINK_TIMEOUT
    assert GENERATED["DEFAULT_PALETTE"] == constants.DEFAULT_PALETTE
    assert GENERATED["COUNTER_NAMES"] == constants.COUNTER_NAMES
    assert GENERATED["DROP_REASONS"] == tuple(r.value for r in DropReason)
    assert GENERATED["NAK_REASONS"] == tuple(r.value for r in NakReason)
    assert all(GENERATED[r.name] == r.value for r in DropReason)


def test_a_time_the_firmware_cannot_count_in_milliseconds_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(constants, "ACK_TIMEOUT", 0.2505)
    with pytest.raises(ValueError, match="milliseconds"):
        firmware_module()


@pytest.mark.parametrize(
    "path", sorted(p for p in FIRMWARE.glob("*.py") if p != FIRMWARE_COPY), ids=lambda p: p.name
)
def test_no_other_firmware_file_writes_a_protocol_constant_again(path: Path) -> None:
    again = _literals(path.read_text(encoding="utf-8")).keys() & GENERATED.keys()
    assert again == set(), f"{path.name} spells {sorted(again)}: import them, do not copy them"
