"""Widgets of the table: hand, trick, seats, scoreboard, game log, and card drawing."""
