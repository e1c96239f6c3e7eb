"""The join address as text a phone's camera reads: a QR code of block characters."""

from __future__ import annotations

HALVES = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}


def qr_text(url: str, light_ink: bool = True) -> str:
    """``url`` as a QR code drawn with half blocks (two rows of modules a line), with its
    quiet zone.  ``light_ink``: the screen draws light characters on a dark ground (a
    block is a light module), else dark on light (a block is a dark module), so the code
    is never read inverted."""
    import segno

    code = segno.make(url, error="l", micro=False)
    rows = [[bool(module) != light_ink for module in row] for row in code.matrix_iter(border=4)]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    return "\n".join("".join(HALVES[top, bottom] for top, bottom in zip(rows[i], rows[i + 1]))
                     for i in range(0, len(rows), 2))


def join_lines(url: str) -> list[str]:
    """What a host prints for phones: the address, then its QR code."""
    return [f"Phones and browsers join at: {url}", *qr_text(url).splitlines()]
