"""Frames on the wire: a 4-byte big-endian length, then one msgpack map.

The length is checked against a cap *before* the body is read, the body is decoded
with small msgpack limits (an untrusted peer must not make us allocate much), and
every read has a timeout: a peer that sends a header and then nothing cannot hold a
connection open forever.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack

HEADER = struct.Struct(">I")
# What a client may send: actions and hellos are tiny.
MAX_CLIENT_FRAME = 16 * 1024
# What a host may send: a full view plus the event log of a long game.
MAX_HOST_FRAME = 4 * 1024 * 1024

_LIMITS = dict(max_str_len=64 * 1024, max_bin_len=64 * 1024, max_array_len=64 * 1024,
               max_map_len=1024, max_ext_len=0)


class FrameError(Exception):
    """A frame that cannot be accepted: too big, truncated, not msgpack, not a map.
    The message is one line, safe to send back to the peer."""


def encode_frame(obj: dict[str, Any]) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return HEADER.pack(len(body)) + body


def decode_body(body: bytes, max_size: int = MAX_HOST_FRAME) -> dict[str, Any]:
    """Decode one frame body into a map (no validation of its fields)."""
    if len(body) > max_size:
        raise FrameError(f"frame of {len(body)} bytes is over the {max_size} byte limit")
    try:
        obj = msgpack.unpackb(body, raw=False, strict_map_key=True, use_list=True,
                              **{k: min(v, max_size) for k, v in _LIMITS.items()})
    except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError,
            TypeError, UnicodeDecodeError, RecursionError) as exc:
        raise FrameError(f"frame is not valid msgpack ({type(exc).__name__})") from None
    if not isinstance(obj, dict):
        raise FrameError(f"a frame must hold a map, not {type(obj).__name__}")
    return obj


class SlowFrame(asyncio.TimeoutError):
    """A frame began but did not arrive whole within its deadline (a drip-feeding peer)."""


async def read_frame(reader: asyncio.StreamReader, max_size: int, timeout: float,
                     frame_timeout: float | None = None) -> dict[str, Any]:
    """Read one frame.

    Without ``frame_timeout``, the whole frame (header and body) must arrive within
    ``timeout`` seconds.  With it, ``timeout`` is how long the peer may stay silent
    before the frame's first byte, and once that byte is in, the rest of the frame
    must follow within ``frame_timeout`` seconds (a peer sending a byte a second
    cannot hold the connection).  One ``asyncio.timeout`` per frame: no task is made.

    Raises ``FrameError`` for a bad frame, ``SlowFrame`` when a begun frame is late,
    ``asyncio.TimeoutError`` when the peer is silent, ``asyncio.IncompleteReadError`` /
    ``ConnectionError`` when it left."""
    begun = False
    try:
        async with asyncio.timeout(timeout) as deadline:
            if frame_timeout is None:
                header = await reader.readexactly(HEADER.size)
            else:
                header = await reader.read(HEADER.size)  # as soon as any byte is in
                if not header:
                    raise asyncio.IncompleteReadError(b"", HEADER.size)
                begun = True
                deadline.reschedule(asyncio.get_running_loop().time() + frame_timeout)
                if len(header) < HEADER.size:
                    header += await reader.readexactly(HEADER.size - len(header))
            (size,) = HEADER.unpack(header)
            if size > max_size:
                raise FrameError(f"frame of {size} bytes is over the {max_size} byte limit")
            if size == 0:
                raise FrameError("empty frame")
            body = await reader.readexactly(size)
    except TimeoutError:
        if begun:
            raise SlowFrame(f"a frame did not arrive whole within {frame_timeout:g} s") from None
        raise
    return decode_body(body, max_size)
