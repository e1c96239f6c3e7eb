"""A compositor that repaints far-apart changes without the widgets between them (issue 15).

Textual paints a frame's changed regions by rendering every widget that overlaps the
*bounding box* of all of them.  A cursor key on a board changes a few board lines on the
left and the turn line in the side panel on the right: their bounding box spans the whole
width, so every panel widget between them (the players, the log and its scroll bar...)
was rendered again for nothing, about a third of a key's CPU.

``SplitCompositor`` renders, for the same update, only what the update writes: a widget
is rendered only when it fills a piece of a changed line that no widget in front of it
fills, and only over those lines (see ``_needed_update``).  So a widget wholly behind
the ones in front of it there (the containers behind a board, the screen) is not
rendered at all, nor are the widgets between far-apart changes, across (a board and a
side panel) or down (a turn line above a board and the board's cursor lines).  The same
bytes go out, in one frame.  Where Textual's internals are not as expected, it does what
Textual does.
"""

from __future__ import annotations

from typing import Any, Iterable

from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip


def column_groups(regions: list[Region]) -> list[list[Region]]:
    """``regions`` in groups whose x ranges overlap (transitively); left to right."""
    groups: list[tuple[int, int, list[Region]]] = []
    for region in sorted(regions, key=lambda r: (r.x, r.y)):
        if groups and region.x < groups[-1][1]:
            x0, x1, members = groups[-1]
            members.append(region)
            groups[-1] = (x0, max(x1, region.right), members)
        else:
            groups.append((region.x, region.right, [region]))
    return [members for _, _, members in groups]


class SplitCompositor(Compositor):
    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        # Textual renders every widget whose *clip* (its container's region) overlaps the
        # crop, and all its lines: every panel widget, whole, for one changed line.  Only
        # a widget whose visible part overlaps the crop can paint in it, and only the
        # crop's lines are sent: the clip is cut to those lines (across its full width, so
        # every piece of a line starts where Textual expects it).
        if crop is None:
            yield from super()._get_renders(crop)
            return
        overlaps = crop.overlaps
        top, height = crop.y, crop.height
        for widget, (region, clip) in self.visible_widgets.items():
            clip = clip.intersection(Region(clip.x, top, clip.width, height))
            x, y, width, lines = visible = region.intersection(clip)
            if not (width and lines and overlaps(visible)):
                continue
            yield region, clip, widget.render_lines(Region(x - region.x, y - region.y, width, lines))

    def render_partial_update(self) -> ChopsUpdate | None:
        regions = list(self._dirty_regions)
        if not regions:
            return super().render_partial_update()
        try:
            return self._needed_update(regions)
        except Exception:  # (Textual's internals changed: its own way)
            return super().render_partial_update()

    def _needed_update(self, regions: list[Region]) -> ChopsUpdate:
        """Textual's update for ``regions``, rendering only what it sends.

        Of a line's chops (the pieces between its cuts), ``ChopsUpdate`` writes those that
        meet one of the line's spans and, for a chop that starts where a span ends, only a
        cursor move to it (its strip is not drawn, but it must be there).  Front to back, a
        widget is rendered only when it fills a chop written that no widget in front of it
        filled, and only over the lines of those chops: every written chop gets the strip
        Textual gives it (the first widget's), a moved-to chop any strip.  Far-apart
        changes (the board's cursor lines and a side panel's turn line, or a turn line
        above the board and the board's lines) then cost their own widgets' lines, not the
        containers and panels between or behind them."""
        spans = list(self._regions_to_spans(regions))
        cuts = self.cuts
        chop_ends = [cut_set[1:] for cut_set in cuts]
        chops: list[dict[int, Any]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        written: dict[int, set[int]] = {}    # line -> the chops written there
        moved: list[tuple[int, int]] = []    # (line, chop) only moved to
        for y, x1, x2 in spans:
            if not 0 <= y < len(cuts):
                continue
            for cut, end in zip(cuts[y], chop_ends[y]):
                if cut < x2 and end > x1:
                    written.setdefault(y, set()).add(cut)
                elif cut == x2:
                    moved.append((y, cut))
        left = sum(len(line) for line in written.values())
        for widget, (region, clip) in self.visible_widgets.items():
            if not left:
                break
            x, y, width, rows = region.intersection(clip)
            if not (width and rows):
                continue
            right, bottom = x + width, y + rows
            lines = sorted(line for line, wanted in written.items() if y <= line < bottom and any(
                x <= cut < right and chops[line][cut] is None for cut in wanted))
            if not lines:
                continue   # nothing left to write here, or hidden behind what is in front of it
            top = lines[0]
            strips = widget.render_lines(Region(x - region.x, top - region.y, width, lines[-1] + 1 - top))
            for line in lines:
                chops_line, wanted = chops[line], written[line]
                final_cuts = [cut for cut in cuts[line] if right >= cut >= x]
                pieces = strips[line - top].divide([cut - x for cut in final_cuts[1:]])
                for cut, piece in zip(final_cuts, pieces):
                    if chops_line.get(cut, 0) is None:
                        chops_line[cut] = piece
                        if cut in wanted:
                            left -= 1
        for y, cut in moved:
            if chops[y][cut] is None:
                chops[y][cut] = _MOVED_TO
        self._dirty_regions.clear()
        return ChopsUpdate(chops, spans, chop_ends)


_MOVED_TO = Strip([], 0)   # the strip of a chop only moved to (never drawn)


def use_split_updates(screen: Any) -> None:
    """Give ``screen`` (before it is mounted) the compositor above."""
    if type(screen._compositor) is Compositor:
        screen._compositor = SplitCompositor()
