import sys
from pathlib import Path

from hypothesis import settings

# The naive reference generator lives beside the tests, not in the package.
sys.path.insert(0, str(Path(__file__).parent))

# No time limit on one example: a loaded machine (a CI runner sharing its two
# cores) must not turn a slow example into a failure.  Speed is measured in
# bench/, never asserted by a test.
settings.register_profile("boardctl", deadline=None)
settings.load_profile("boardctl")
