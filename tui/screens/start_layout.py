"""A game screen's layouts without the layout they ask for again (issue 15).

When Textual lays a screen out it gives each widget its region and its virtual size; a
widget whose virtual size changed sets the ``virtual_size`` reactive, which asks for a
whole new layout (``Reactive(layout=True)``), and with it a repaint: one more layout and
one more frame.  The layout that asks has just placed every widget from the same sizes,
so the next one places them all where they already are.  At a table's start the keys of
the footer (mounted with the first view) and every widget the first view filled get
their sizes in the first frame's layout, and each table started with a second layout
and two more frames (~10-25 ms of CPU, for the same screen).

``start_layout`` is Textual's ``Screen._refresh_layout`` (textual 8.2.8, pinned; the
non-scrolling branch, the one a start takes) with one change: the virtual size is stored
without asking for that layout (``_size_updated(..., layout=False)``, as Textual's own
scrolling branch does).  What does change the layout still asks for its own: a
scrollbar that appears or goes (its own reactive), a Resize handler, a widget updated.
And a scrollbar the layout set (its container's ``_scroll_update`` asks it to repaint) is
not repainted again in a frame of its own when the refresh that ends the same layout has
just painted it as it is now (``_painted_scrollbars``: the event log's, a frame more).
(Clearing the repaint every widget asked for during the layout, or painting it in the
layout's frame, saved the frame the log's repaint costs after a move; but with it, the
SSH tests under load left a session on a screen never painted, 2 runs in 5, none in 4
without it: not done.)
Widgets a move changed ask for a layout from their own idle handlers, each in its turn: one
that comes after the move's layout asked for a second one (Atlantis: your every move, two
layouts).  The layout takes every request made before it (``_take_layout_requests``:
what Textual's ``_check_refresh`` would do for them), and notes when it began
(``screen._laid_at``), so a game screen drops a request sent before then
(``GameScreen._on_layout``).
A layout in a batch leaves its refresh to the batch's end (``_refresh_after_batch``).
A game screen uses it for every layout that is not a scroll (``GameScreen._refresh_layout``):
a move's panels and log get their new sizes in its one layout, as the start's widgets do
(two layouts and three frames a move before).  The menu uses it until its first layout
outside the app's mount batch (``MenuScreen._refresh_layout``); then Textual's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events
from textual._time import get_time
from textual.geometry import Region, Size
from textual.scrollbar import ScrollBar
from textual.widget import Widget

if TYPE_CHECKING:
    from textual.screen import Screen


def start_layout(screen: Screen, size: Size | None = None) -> None:
    """Textual's ``Screen._refresh_layout(size, scroll=False)``, virtual sizes stored quietly."""
    app = screen.app
    size = screen.outer_size if size is None else size
    if not size:
        return
    _take_layout_requests(screen)
    screen._laid_at = get_time()
    screen._compositor.update_widgets(screen._dirty_widgets)
    screen._update_timer.pause()
    try:
        hidden, shown, resized = screen._compositor.reflow(screen, size)
        screen._layout_widgets.clear()
        for widget in hidden:
            widget.post_message(events.Hide())
        send_resize = shown | resized
        for widget, (region, _order, _clip, virtual_size, container_size, _, _) in screen._compositor.layers:
            widget._size_updated(region.size, virtual_size, container_size, layout=False)
            if widget in send_resize:
                widget.post_message(events.Resize(region.size, virtual_size, container_size))
            if widget._anchored and not widget._anchor_released:
                _to_anchor(widget)
        for widget in shown:
            widget.post_message(events.Show())
    except Exception as error:
        app._handle_exception(error)
        return
    if screen.is_current:
        if app._batch_count:
            screen.call_later(_refresh_after_batch, screen)
        else:
            painting = set(screen._compositor._dirty_regions)  # (what this refresh repaints)
            screen._compositor_refresh()
            _painted_scrollbars(screen, size, painting)
    if app._dom_ready:
        screen.screen_layout_refresh_signal.publish(screen.screen)
    else:
        app.post_message(events.Ready())
        app._dom_ready = True


def _take_layout_requests(screen: Screen) -> None:
    """The layout requests of widgets that have not sent them yet: Textual's
    ``Widget._check_refresh`` sends one from the widget's next idle, clearing the
    arrangements it changes first; this layout does both now, for all of them."""
    for widget in screen.walk_children(Widget):
        if not widget._layout_required:
            continue
        widget._layout_required = False
        for ancestor in widget.ancestors:
            if not isinstance(ancestor, Widget):
                break
            ancestor._clear_arrangement_cache()
            ancestor._layout_updates += 1
            if not ancestor.styles.auto_dimensions:
                break


def _to_anchor(widget) -> None:
    """An anchored widget (the event log) scrolled to its end from its new height.  The
    compositor anchors it as it arranges, from the height it had before this layout: when
    a panel above it grew or shrank, the log was off by as many lines, and its own scroll
    to the end after the frame drew it again, in a frame more."""
    end = widget.max_scroll_y
    if widget.scroll_y != end:
        widget.set_reactive(type(widget).scroll_y, end)
        widget.set_reactive(type(widget).scroll_target_y, end)
        widget.vertical_scrollbar._reactive_position = end
        widget.vertical_scrollbar.refresh()


def _painted_scrollbars(screen: Screen, size: Size, painted: set[Region]) -> None:
    """The scrollbars the refresh just painted whole ask for no repaint of their own."""
    whole = size.region in painted
    for widget, geometry in screen._compositor.layers:
        if isinstance(widget, ScrollBar) and widget._repaint_required:
            shown = geometry.clip.intersection(geometry.region)
            if whole or any(region.contains_region(shown) for region in painted):
                widget._repaint_required = False
                widget._exchange_repaint_regions()


def _refresh_after_batch(screen: Screen) -> None:
    """Textual's refresh after a layout in a batch (``call_later``), unless the batch still
    holds: then what it rendered would be thrown away (``App._display`` shows nothing
    in a batch) and the first frame renders every widget again anyway (~8-12 ms at a
    table's start, the app's mount batch).  The screen is marked for a repaint instead:
    when the batch ends, its next update paints it (after the layout the batch asked for)."""
    if screen.app._batch_count:
        screen._repaint_required = True
        return
    screen._compositor_refresh()
