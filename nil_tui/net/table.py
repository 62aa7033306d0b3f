"""The shared table's authority under its former name: it is :mod:`nil_tui.table` now, free
of the wire format (what still imports it from here keeps working)."""

from ..table import Table, TableConfig

__all__ = ["Table", "TableConfig"]
