"""The game above the rules and the bots, without a screen: a game's choices
(:mod:`.options`), the daily challenge (:mod:`.daily_challenge`) and bots-only games
(:mod:`.sim`, ``nil-tui simulate``). The driver, the analysis and the store sit beside them
in the same layer."""
