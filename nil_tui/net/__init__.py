"""The shared table: ``nil-tui host`` (the server) and ``nil-tui join`` (a seat at it).

JSON messages over a WebSocket (docs/PROTOCOL.md). The table decides everything and sends
each seat only what that seat may see. Nothing here imports Textual.
"""
