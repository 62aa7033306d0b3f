"""A plugin module whose own dependency is not installed: broken, not missing."""

import nil_tui_no_such_dependency  # noqa: F401
