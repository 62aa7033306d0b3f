"""nil-tui: Zero (Nil), the French trick-taking game, in the terminal."""

__version__ = "0.1.0"
