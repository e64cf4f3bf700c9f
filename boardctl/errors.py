"""The project's error tree, for the packages outside the rules core.

The root lives in :mod:`boardctl.rules.errors` because the rules core may
import nothing of the project; this module is where everyone else finds it.
"""

from .rules.errors import BoardctlError

__all__ = ["BoardctlError"]
