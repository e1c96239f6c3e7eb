"""TurnLine: the side panel's turn line, a Static that keeps the drawn lines of each of
its paragraphs (issue 15).

A cursor key on a board changes only the turn line's last paragraph (what is under the
cursor), yet Textual lays out and styles the whole text again, and repaints all its
lines: about a third of such a key's CPU.  Here each paragraph (the text between two
newlines) of a rich ``Text`` is drawn on its own and kept; a paragraph that did not
change is not drawn again, nor one of the ``KEEP`` drawn last (the words under a cell
the cursor comes back to).  The lines are the ones Textual draws for the whole text,
segment for segment (a paragraph is drawn after as many empty lines as come before it,
so the offsets Textual puts in the styles for text selection are the same).  And an
``update(..., layout=False)`` repaints only the lines that differ from the ones shown.
Anything else (not a rich ``Text``, one paragraph, a selection, a content alignment,
any other refresh) is drawn by Textual as it is.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.geometry import Region
from textual.visual import Visual, visualize
from textual.widget import _RenderCache
from textual.widgets import Static

#: Paragraphs kept drawn: a cursor moving back and forth over the board comes back to
#: the words under a cell it left (the turn line's other paragraphs are one each).
KEEP = 32


class TurnLine(Static):
    """A Static whose unchanged paragraphs are not drawn again."""

    _kept: dict[Any, list[Any]] = {}   # paragraph key -> its drawn lines (the KEEP last drawn)
    _updating = False                  # in update(..., layout=False)

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        self._updating = not layout
        try:
            super().update(content, layout=layout)
        finally:
            self._updating = False

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> "TurnLine":
        shown = self._render_cache
        if (not self._updating or regions or not repaint or layout or recompose or not self.is_mounted
                or self._dirty_regions or not shown.lines or shown.size != self.size):
            return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        # the new text's lines now, and a repaint of those that changed (if any)
        self._layout_cache.clear()
        self.clear_cached_dimensions()
        self._rich_style_cache.clear()
        self._render_content()
        lines = self._render_cache.lines
        if len(lines) != len(shown.lines):
            return super().refresh()
        width = self.size.width
        changed = [Region(0, y, width, 1) for y, (old, new) in enumerate(zip(shown.lines, lines)) if old != new]
        if changed:
            super().refresh(*changed)
            self._render_cache = _RenderCache(self.size, lines)   # (the refresh marked it stale)
            self._dirty_regions.clear()
        return self

    def _render_content(self) -> None:
        content = self.content
        width, height = self.size
        if (not isinstance(content, Text) or "\n" not in content.plain or content.plain.endswith("\n")
                or self.text_selection is not None or self.styles.content_align != ("left", "top")):
            super()._render_content()
            return
        style = self.visual_style
        kept = self._kept
        if kept is TurnLine._kept:
            kept = self._kept = {}
        lines: list[Any] = []
        start = 0
        for index, paragraph in enumerate(content.plain.split("\n")):
            end = start + len(paragraph)
            part = content[start:end]
            key = (index, width, style, part.plain, tuple(part.spans), content.style, content.justify,
                   content.overflow, content.no_wrap, content.end, self._render_markup)
            strips = kept.pop(key, None)
            if strips is None:
                strips = self._draw_paragraph(content, part, index, width, style)
            kept[key] = strips   # (the newest last)
            lines.extend(strips)
            start = end + 1
        for old in list(kept)[:max(0, len(kept) - KEEP)]:
            del kept[old]   # the paragraphs least recently drawn
        self._render_cache = _RenderCache(self.size, lines[:height])
        self._dirty_regions.clear()

    def _draw_paragraph(self, content: Text, part: Text, index: int, width: int, style: Any) -> list[Any]:
        """Paragraph ``index`` as Textual draws it within ``content``."""
        padded = Text("\n" * index, style=content.style, justify=content.justify,
                      overflow=content.overflow, no_wrap=content.no_wrap, end=content.end)
        part.style = ""
        padded.append_text(part)
        strips = Visual.to_strips(self, visualize(self, padded, markup=self._render_markup), width, None, style)
        return strips[index:]
