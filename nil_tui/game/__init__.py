"""The game above the rules and the bots, without a screen: the driver that runs one game
(:mod:`.driver`: whose turn, asking the bots), a game's choices (:mod:`.options`), the daily
challenge (:mod:`.daily_challenge`) and bots-only games (:mod:`.sim`, ``nil-tui simulate``).
The analysis and the store sit beside them in the same layer."""
