"""The Textual app. Import ``nil_tui.tui.launch`` to start it; nothing here loads bot code."""
