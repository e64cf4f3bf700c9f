"""Games kept on disk: the SQLite store, the games it hands out, and the
writes that wait while the disk cannot take them."""
