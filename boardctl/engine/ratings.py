"""The levels' approximate ratings: written by bench/levels.py, not by hand.

Made 2000-01-01 by ``bench/levels.py`` (a placeholder until the first calibration).
The scale is ours, anchored on Fairy-Max 5.0b searching 5 plies a move = 1500:
it is no federation's rating.
"""

MADE = "2000-01-01"
COMMAND = ("bench/levels.py",)
ANCHOR = "Fairy-Max 5.0b searching 5 plies a move"
ANCHOR_RATING = 1500
# By level, 0 first: (rating, half-width of its 95 % interval).
RATINGS = (
    (500, 0),
    (600, 0),
    (700, 0),
    (800, 0),
    (900, 0),
    (1000, 0),
    (1100, 0),
    (1200, 0),
    (1300, 0),
    (1400, 0),
    (1500, 0),
    (1600, 0),
    (1700, 0),
    (1800, 0),
    (1900, 0),
    (2000, 0),
    (2100, 0),
    (2200, 0),
    (2300, 0),
    (2400, 0),
    (2500, 0),
)
# Every pairing: (level, its opponent: a level or Fairy-Max,
# the level's wins, draws and losses).
MATCHES = ()
