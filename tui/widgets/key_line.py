"""The line of keys at the bottom of the menu and of every game screen: what Textual's
Footer shows, drawn by one widget.

Textual's Footer is a container with a widget per key, and it composes them all anew
whenever the screen's bindings change: at a table's start that was about 10 keys to
mount, style and lay out before the first frame,
and again whenever your turn began or ended (a compose, a layout and a frame more on
your moves).  This line draws the same cells in the same styles (the Footer's look:
its compact and wide forms, dimmed disabled keys, the palette key at the right edge
behind a thin bar) from the screen's ``active_bindings``, and repaints itself only when
what it shows changed.  A press of the mouse on a key presses the key (a disabled one
rings the bell), as on the Footer; the key under the pointer is highlighted.

Differences from the Footer, none of them used here: binding groups are drawn as
separate keys; a binding's tooltip is not shown; keys that do not fit are cut at the
right edge (no sideways scrolling), and the palette key is left out when it would cover
a key.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.strip import Strip
from textual.widget import Widget

from .hover import HoverMark


class ShownKey(NamedTuple):
    """One key as the line draws it."""

    key: str          # the key pressed by a click (the binding's first key)
    display: str      # how the key is named ("1-4", "^p")
    description: str
    enabled: bool


class KeyLine(HoverMark, Widget):
    """The screen's shown keys, ``^p palette`` at the right (``show_command_palette``);
    ``compact`` drops the padding around each key, as the Footer's compact form does.
    ``screen_only``: only the screen's own bindings (the menu: its fields' keys are not
    shown)."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"keyline--key", "keyline--label", "keyline--bar", "keyline--hover"}
    DEFAULT_CSS = """
    KeyLine { dock: bottom; height: 1; width: 1fr; color: $footer-foreground; background: $footer-background; }
    """

    def __init__(self, *, compact: bool = False, show_command_palette: bool = True,
                 screen_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self._compact = compact
        self._palette = show_command_palette
        self.screen_only = screen_only
        self._hover: str | None = None  # the key under the pointer
        self._spans: list[tuple[int, int, ShownKey]] = []  # (start, end, key) as last drawn
        self._drawn: tuple[Any, ...] | None = None  # what the last strip was drawn from
        self._strip: Strip | None = None

    # --- what it shows ------------------------------------------------------------------
    @property
    def compact(self) -> bool:
        return self._compact

    @compact.setter
    def compact(self, value: bool) -> None:
        if value != self._compact:
            self._compact = value
            self.refresh()

    @property
    def show_command_palette(self) -> bool:
        return self._palette

    @show_command_palette.setter
    def show_command_palette(self, value: bool) -> None:
        if value != self._palette:
            self._palette = value
            self.refresh()

    def shown(self) -> tuple[list[ShownKey], ShownKey | None]:
        """The keys as the Footer would show them (one per action, the first binding of
        each, in the screen's order), and the palette's key (None when not shown)."""
        screen, app = self.screen, self.app
        keys: list[ShownKey] = []
        seen: set[str] = set()
        for node, binding, enabled, _tooltip in screen.active_bindings.values():
            if not binding.show or binding.action in seen or (self.screen_only and node is not screen):
                continue
            seen.add(binding.action)
            keys.append(ShownKey(binding.key.split(",")[0], app.get_key_display(binding),
                                 binding.description, enabled))
        palette = None
        if self._palette and app.ENABLE_COMMAND_PALETTE:
            found = screen.active_bindings.get(app.COMMAND_PALETTE_BINDING)
            if found is not None:
                _node, binding, enabled, _tooltip = found
                palette = ShownKey(binding.key, app.get_key_display(binding), binding.description, enabled)
        return keys, palette

    def drawn_keys(self) -> list[ShownKey]:
        """The keys as last drawn, left to right (the palette's key last, when drawn)."""
        return [k for _a, _b, k in self._spans]

    def key_spans(self) -> list[tuple[int, int, ShownKey]]:
        """Each drawn key's cells: (first column, column after its last, key)."""
        return list(self._spans)

    def plain(self) -> str:
        """The line's text as last drawn."""
        return self._strip.text if self._strip is not None else ""

    def _bindings_changed(self, _screen: Any) -> None:
        if self._drawn is not None and self.shown() != self._drawn[0]:
            self.refresh()

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    # --- drawing --------------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        width = self.size.width
        shown = self.shown()
        drawn = (shown, width, self._compact, self._hover, self.rich_style)
        if drawn != self._drawn or self._strip is None:
            self._strip = self._draw(*drawn)
            self._drawn = drawn
        return self._strip

    def _draw(self, shown: tuple[list[ShownKey], ShownKey | None], width: int, compact: bool,
              hover: str | None, base: Style) -> Strip:
        keys, palette = shown
        key_style = self.get_component_rich_style("keyline--key")
        label_style = self.get_component_rich_style("keyline--label")
        blank = Style(bgcolor=base.bgcolor)  # (the Footer's margins and padding: background only)
        hover_bg = Style(bgcolor=self.get_component_rich_style("keyline--hover").bgcolor)
        segments: list[Segment] = []
        spans: list[tuple[int, int, ShownKey]] = []
        x = 0

        def key_cells(k: ShownKey, small: bool) -> list[Segment]:
            # FooterKey.render: the key and its description, over the key's own style
            # (dim when disabled), each part in its component style
            under = base + Style(dim=True) if not k.enabled else base
            ks, ls = under + key_style, under + label_style
            if k.key == hover:
                ks, ls = ks + hover_bg, ls + hover_bg
            if not k.description:
                return [Segment(k.display, ks)]
            if small:
                return [Segment(k.display, ks), Segment(f" {k.description}", ls)]
            return [Segment(f" {k.display} ", ks), Segment(f"{k.description} ", ls)]

        for k in keys:
            cells = key_cells(k, compact)
            size = sum(len(s.text) for s in cells)
            spans.append((x, x + size, k))
            segments += cells
            x += size
            if compact:  # (the compact Footer's margin-right: 1)
                segments.append(Segment(" ", blank))
                x += 1
        tail: list[Segment] = []
        if palette is not None:
            # docked right: a thin bar, the key in its compact form (the Footer's palette
            # key is never made wide), and one blank cell
            cells = key_cells(palette, True)
            size = 1 + sum(len(s.text) for s in cells) + 1
            keys_end = spans[-1][1] if spans else 0
            if keys_end <= width - size:
                bar = Style(color=self.get_component_rich_style("keyline--bar").color, bgcolor=base.bgcolor)
                tail = [Segment("▏", bar), *cells, Segment(" ", blank)]
                spans.append((width - size + 1, width - 1, palette))
        room = width - sum(len(s.text) for s in tail)
        strip = Strip(segments).crop(0, room) if x > room else Strip(segments)
        if strip.cell_length < room:
            strip = Strip([*strip, Segment(" " * (room - strip.cell_length), blank)])
        self._spans = [(a, min(b, width), k) for a, b, k in spans if a < room or k is palette]
        return Strip([*strip, *tail], width)

    # --- the mouse ------------------------------------------------------------------------
    def _at(self, x: int) -> ShownKey | None:
        return next((k for a, b, k in self._spans if a <= x < b), None)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        key = self._at(event.x)
        if key is None:
            return
        event.stop()
        if key.enabled:
            self.app.simulate_key(key.key)
        else:
            self.app.bell()

    def hover_at(self, event: events.MouseMove) -> str | None:
        key = self._at(event.x)
        return key.key if key is not None else None
