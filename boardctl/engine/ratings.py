"""The levels' approximate ratings: written by bench/levels.py, not by hand.

Made 2026-11-26 by the command below, from 1294 games in 52 min
(every match is in docs/levels.md).  The scale is ours, anchored on
Fairy-Max 5.0b searching 5 plies a move = 1500: it is no federation's rating.
"""

MADE = "2026-11-26"
COMMAND = (
    "bench/levels.py",
    "--concurrency",
    "2",
    "--write",
)
ANCHOR = "Fairy-Max 5.0b searching 5 plies a move"
ANCHOR_RATING = 1500
# By level, 0 first: (rating, half-width of its 95 % interval).
RATINGS = (
    (225, 317),
    (264, 308),
    (365, 297),
    (500, 286),
    (579, 275),
    (724, 262),
    (879, 249),
    (935, 237),
    (970, 224),
    (1048, 210),
    (1118, 196),
    (1174, 180),
    (1280, 162),
    (1441, 138),
    (1528, 111),
    (1609, 106),
    (1777, 137),
    (2102, 292),
    (2275, 362),
    (2416, 416),
    (2712, 491),
)
# Every pairing: (level, its opponent: a level or Fairy-Max,
# the level's wins, draws and losses).
MATCHES = (
    (1, "0", 44, 1, 35),
    (2, "1", 51, 1, 28),
    (3, "2", 55, 0, 25),
    (4, "3", 47, 4, 29),
    (5, "4", 54, 4, 22),
    (6, "5", 57, 0, 23),
    (7, "6", 43, 7, 30),
    (8, "7", 38, 12, 30),
    (9, "8", 47, 4, 29),
    (10, "9", 46, 4, 30),
    (11, "10", 43, 7, 30),
    (12, "11", 48, 8, 24),
    (13, "12", 54, 7, 19),
    (14, "13", 40, 10, 22),
    (14, "Fairy-Max", 13, 0, 7),
    (15, "14", 28, 5, 13),
    (15, "Fairy-Max", 10, 4, 6),
    (16, "15", 17, 6, 3),
    (16, "Fairy-Max", 15, 2, 3),
    (17, "16", 11, 3, 0),
    (18, "17", 8, 2, 2),
    (19, "18", 7, 3, 2),
    (20, "19", 10, 1, 1),
)
