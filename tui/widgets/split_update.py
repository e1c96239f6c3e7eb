"""A compositor that repaints far-apart changes without the widgets between them (issue 15).

Textual paints a frame's changed regions by rendering every widget that overlaps the
*bounding box* of all of them.  A cursor key on a board changes a few board lines on the
left and the turn line in the side panel on the right: their bounding box spans the whole
width, so every panel widget between them (the players, the log and its scroll bar...)
was rendered again for nothing, about a third of a key's CPU.

``SplitCompositor`` groups the changed regions into columns that do not overlap across
(regions whose x ranges overlap share a group), renders each group's own bounding box,
and sends the one update of all of them: the same cells are written, to the same
places, in one frame.  A widget wholly behind the ones in front of it there (the
containers behind a board, the screen) is not rendered at all.  Where Textual's
internals are not as expected, it does what Textual does.
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
        if len(regions) < 2:
            return super().render_partial_update()
        groups = column_groups(regions)
        if len(groups) < 2:
            return super().render_partial_update()
        try:
            return self._split_update(regions, groups)
        except Exception:  # (Textual's internals changed: its own way)
            return super().render_partial_update()

    def _split_update(self, regions: list[Region], groups: list[list[Region]]) -> ChopsUpdate | None:
        screen_region = self.size.region
        spans = list(self._regions_to_spans(regions))
        chop_ends = [cut_set[1:] for cut_set in self.cuts]
        merged: list[dict[int, Any]] | None = None
        for members in groups:
            crop = Region.from_union(members).intersection(screen_region)
            if not crop:
                continue
            lines = {y for y, _, _ in self._regions_to_spans(members)}
            chops = self._group_chops(crop, lines, chop_ends)
            if merged is None:
                merged = [dict.fromkeys(line) for line in chops]
            x0, x1 = crop.x, crop.right
            for y in lines:
                if not 0 <= y < len(chops):
                    continue
                ends = chop_ends[y]
                target = merged[y]
                # a chop that reaches into this group's columns was rendered with every
                # widget over it (they all overlap the crop): it is right here.  (One that
                # starts just after them too: Textual sends a cursor move for it, and so
                # do we, byte for byte; nothing of it is drawn.)
                for end, (x, strip) in zip(ends, chops[y].items()):
                    if strip is not None and x <= x1 and end > x0:
                        target[x] = strip
        self._dirty_regions.clear()
        if merged is None:
            return None
        return ChopsUpdate(merged, spans, chop_ends)

    def _group_chops(self, crop: Region, lines: set[int], chop_ends: list[list[int]]) -> list[dict[int, Any]]:
        """Textual's ``_render_chops`` for one group, front to back, but a widget is not
        rendered when every chop the group sends that it would fill is filled already by
        the widgets in front of it (a container behind its children, the screen behind
        them all): the first strip of a chop wins, so the chops sent are the same."""
        cuts = self.cuts
        chops: list[dict[int, Any]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
        x0, x1 = crop.x, crop.right
        top, height = crop.y, crop.height
        overlaps = crop.overlaps
        for widget, (region, clip) in self.visible_widgets.items():
            clip = clip.intersection(Region(clip.x, top, clip.width, height))
            x, y, width, rows = visible = region.intersection(clip)
            if not (width and rows and overlaps(visible)):
                continue
            right = x + width
            wanted = [line for line in range(y, y + rows) if line in lines]
            if not any(chops[line].get(cut, 0) is None and cut <= x1 and end > x0
                       for line in wanted
                       for cut, end in zip(cuts[line], chop_ends[line]) if x <= cut < right):
                continue   # hidden here behind what is in front of it
            strips = widget.render_lines(Region(x - region.x, y - region.y, width, rows))
            for line, strip in zip(range(y, y + rows), strips):
                if line not in lines:
                    continue
                chops_line = chops[line]
                final_cuts = [cut for cut in cuts[line] if right >= cut >= x]
                for cut, piece in zip(final_cuts, strip.divide([cut - x for cut in final_cuts[1:]])):
                    if chops_line.get(cut) is None:
                        chops_line[cut] = piece
        return chops


def use_split_updates(screen: Any) -> None:
    """Give ``screen`` (before it is mounted) the compositor above."""
    if type(screen._compositor) is Compositor:
        screen._compositor = SplitCompositor()
