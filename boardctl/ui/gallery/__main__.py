"""``python -m boardctl.ui.gallery docs``: draw the gallery into ``docs/``."""

from . import main

raise SystemExit(main())
