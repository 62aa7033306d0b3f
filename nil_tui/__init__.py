"""nil-tui: Zero (Nil), the French trick-taking game, in the terminal."""

__version__ = "1.0.0"
