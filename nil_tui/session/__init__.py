"""A game from its start to its record, without a screen: what every front end shows.

``protocol`` holds the values that go in (what a player does) and come out (what happened,
what a seat may see); ``game_session`` the session that runs a game on them. Nothing here
imports Textual or Rich.
"""
