"""boardctl's Falcon Chess engine: search and evaluation on the rules core,
a worker process for the daemon, and UCI on both sides."""

from . import core
from .limits import Info, Limits
from .search import MAX_SKILL, Engine

__all__ = ["MAX_SKILL", "Engine", "Info", "Limits", "core"]
