"""The board's voice: words from the screen's state (:mod:`.words`), said by
a speech engine beside the daemon's loop (:mod:`.speaker`, :mod:`.engines`).

It imports the screen's plain state value (:mod:`boardctl.ui.state`), never
the daemon, the hardware or the web page.
"""
