"""The app's screens: setup, table, deal summary, game over, rules, review."""
