"""The whole app in a browser, one app process per tab: :mod:`nil_tui.serve.server` (its
command line is :mod:`nil_tui.commands.serve`)."""
