"""The terminal app.  Its package is imported before Textual (``atlantis`` starts in
``tui.cli``), so the compiled-code cache is in place before Textual's dataclasses are made
(tui/code_cache.py, start time: issue 15)."""

from . import code_cache as _code_cache

_code_cache.install()
