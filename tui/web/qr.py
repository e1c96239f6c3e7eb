"""The join address as text a phone's camera reads: a QR code of block characters."""

from __future__ import annotations

import io


def qr_text(url: str) -> str:
    """``url`` as a QR code drawn with half blocks (two rows of modules a line), dark on
    light with its quiet zone, so it reads on a dark or a light terminal."""
    import segno

    drawn = io.StringIO()
    segno.make(url, error="l", micro=False).terminal(out=drawn, compact=True)
    return drawn.getvalue().rstrip("\n")


def join_lines(url: str) -> list[str]:
    """What a host prints for phones: the address, then its QR code."""
    return [f"Phones and browsers join at: {url}", *qr_text(url).splitlines()]
