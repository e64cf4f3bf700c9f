"""The LED colour language: every role has a light, and the hues stay apart
for players with the common colour-vision deficiencies."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from colorspacious import cspace_convert

from boardctl.board import LedScene, Role
from boardctl.board.lights import HUES, LIGHTS, MIN_HUE_DISTANCE, frame, legend

DEFICIENCIES = [None, "deuteranomaly", "protanomaly", "tritanomaly"]


def seen(rgb: tuple[int, int, int], deficiency: str | None) -> np.ndarray:
    """``rgb`` in CAM02-UCS as a person with ``deficiency`` (full severity) sees it."""
    colour = np.array(rgb) / 255
    if deficiency is not None:
        space = {"name": "sRGB1+CVD", "cvd_type": deficiency, "severity": 100}
        colour = np.clip(cspace_convert(colour, space, "sRGB1"), 0, 1)
    return cspace_convert(colour, "sRGB1", "CAM02-UCS")


def test_every_role_has_a_light():
    assert set(LIGHTS) == set(Role)


@pytest.mark.parametrize("deficiency", DEFICIENCIES, ids=lambda d: d or "normal")
def test_every_two_hues_stay_apart(deficiency):
    for a, b in itertools.combinations(HUES, 2):
        distance = float(np.linalg.norm(seen(a.rgb, deficiency) - seen(b.rgb, deficiency)))
        assert distance >= MIN_HUE_DISTANCE, (a.name, b.name, round(distance, 1))


def test_the_old_confusions_are_gone():
    # Red meant both a fix and check; the fix's target was the legal squares'
    # green; a hint borrowed the engine's colours.
    assert LIGHTS[Role.FIX_FROM].hue != LIGHTS[Role.CHECK].hue
    assert LIGHTS[Role.FIX_TO].hue != LIGHTS[Role.LEGAL].hue
    assert LIGHTS[Role.HINT_FROM].hue != LIGHTS[Role.ENGINE_FROM].hue
    assert LIGHTS[Role.HINT_TO].hue != LIGHTS[Role.ENGINE_TO].hue


def test_a_falcons_destinations_share_one_hue_brighter_by_paths_and_paths_dim():
    roles = (Role.LEGAL_ONE_PATH, Role.LEGAL_TWO_PATHS, Role.LEGAL_THREE_PATHS)
    assert {LIGHTS[r].hue for r in (*roles, Role.FALCON_PATH, Role.LEGAL)} == {
        LIGHTS[Role.LEGAL].hue
    }
    levels = [LIGHTS[r].level for r in roles]
    assert levels == sorted(levels) and len(set(levels)) == 3
    assert LIGHTS[Role.FALCON_PATH].level < min(levels)
    # Far enough apart that no destination is taken for a path: at 0.45
    # against 0.2 a one-path destination was, in the simulator and on a strip.
    assert min(levels) >= 2.5 * LIGHTS[Role.FALCON_PATH].level


def test_each_hue_has_one_meaning_in_the_legend():
    words = legend()
    assert [hue for hue, _ in words] == list(HUES)
    assert len({text for _, text in words}) == len(HUES)
    assert {LIGHTS[role].hue for role in Role} == set(HUES)


def test_squares_to_act_on_blink_and_the_rest_stay_lit():
    scene = LedScene({0: Role.ENGINE_FROM, 1: Role.ENGINE_TO, 2: Role.FIX_FROM, 3: Role.FIX_TO})
    frames = [frame(scene, t / 20) for t in range(20)]
    assert all(0 in f and 3 in f for f in frames)
    assert any(1 not in f for f in frames) and any(1 in f for f in frames)
    assert any(2 not in f for f in frames) and any(2 in f for f in frames)
