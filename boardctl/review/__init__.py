"""``boardctl review``: where a stored game turned.

Every position of a finished game is searched by the built-in engine
(:mod:`.analysis`), each move graded by the winning chances it cost its mover
(:mod:`.grading`, lichess's model), the review kept with the game in the store
and shown as PGN, and the marked moves printed (:mod:`.command`).  This package
sits above both the engine and the store; neither imports it.
"""
