"""Hardware-free physical-board logic: readings in, moves, scenes and prompts out."""

from .events import (
    ErrorShown,
    Event,
    GameOver,
    MoveAmended,
    MoveMade,
    MoveTakenBack,
    NewGame,
    Prompt,
)
from .reconciler import Reconciler, ReconcilerConfig, State
from .scene import EMPTY_SCENE, LedScene, Role

__all__ = [
    "EMPTY_SCENE",
    "ErrorShown",
    "Event",
    "GameOver",
    "LedScene",
    "MoveAmended",
    "MoveMade",
    "MoveTakenBack",
    "NewGame",
    "Prompt",
    "Reconciler",
    "ReconcilerConfig",
    "Role",
    "State",
]
