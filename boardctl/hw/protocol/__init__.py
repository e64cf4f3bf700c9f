"""The wire protocol to the board's microcontroller, host side
(``firmware/PROTOCOL.md``), in small rooms that do no I/O and read no clock:

* :mod:`.constants`: the numbers and names both ends share, and the
  firmware's generated copy of them;
* :mod:`.messages`: the messages and the board shape, as values;
* :mod:`.codec`: lines to messages and back, and the line assembler;
* :mod:`.acceptance`: sequence numbers, and which snapshots are passed on;
* :mod:`.events`: what the link is told and what it asks for;
* :mod:`.link`: :class:`~.link.HostLink`, the state machine,
  ``feed(event, now) -> actions``.

The port that carries the link's bytes is :mod:`boardctl.hw.serial_link`.
"""
