"""A plugin module that fails while it is imported."""

raise RuntimeError("this plugin is broken")
