"""Small helpers every layer may use: where the player's files go (:mod:`.paths`), text made
safe for a terminal (:mod:`.textsafe`), processes started alike everywhere
(:mod:`.processes`), and the command line's value types (:mod:`.argtypes`)."""
