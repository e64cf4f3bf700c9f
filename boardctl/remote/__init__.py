"""Remote play: a game against a person in a browser or another board.

The pure parts live here (the log and its digests, the clocks, the peer's
state machine, the desk where the daemon and the web server meet) and the
journal on disk; the transport lives with the web server (boardctl.web.remote*).
docs/remote.md is the protocol's specification.
"""
