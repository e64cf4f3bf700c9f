"""A club's tournament, live: each board broadcasts its game through an MQTT
broker, and the hall serves a whole round to many spectators (docs/hall.md).

The board's side is :mod:`.broadcast` (the game as the page's snapshot shows
it, signed with the board's own key, :mod:`.boardkey`); the hall's is
:mod:`.watch` (what it has checked of each board of the :mod:`.round`),
:mod:`.roundpgn` (the round as one PGN) and :mod:`.service` (the page, its
Server-Sent Events and the PGN feed).  :mod:`.wire` is the messages between
them and :mod:`.state` the game each carries.  Importing this package
imports no network library.
"""
