"""The shared table over the network: ``nil-tui host`` (the server, the carrier of a
:mod:`nil_tui.session.table` table) and ``nil-tui join`` (a seat at it).

JSON messages over a WebSocket (docs/PROTOCOL.md). The table decides everything and sends
each seat only what that seat may see. Nothing here imports Textual.
"""
