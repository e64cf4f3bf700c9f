"""The spectator page, the live PGN and JSON feeds, and the hall of boards.

The daemon publishes :class:`~boardctl.web.snapshot.Snapshot` values to a
:class:`~boardctl.web.snapshot.Hub`; :mod:`boardctl.web.server` serves them
from its own thread and event loop (aiohttp, the ``web`` extra).  Importing
this package imports no web library.
"""
