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


_SIZED: dict[int, Any] = {}  # an unpack with the limits above, capped at a frame size


class FrameError(Exception):
    """A frame that cannot be accepted: too big, truncated, not msgpack, not a map.
    The message is one line, safe to send back to the peer."""


def encode_frame(obj: dict[str, Any]) -> bytes:
    body = msgpack.packb(obj, use_bin_type=True)
    return HEADER.pack(len(body)) + body


_PACKER = msgpack.Packer(use_bin_type=True)


def pack_frame(obj: dict[str, Any]) -> bytes:
    """``encode_frame`` with one cached packer (the host's hot path; one event loop per
    process, and ``pack`` is not re-entered, so one packer serves every connection)."""
    body = _PACKER.pack(obj)
    return HEADER.pack(len(body)) + body


def decode_body(body: bytes, max_size: int = MAX_HOST_FRAME) -> dict[str, Any]:
    """Decode one frame body into a map (no validation of its fields)."""
    if len(body) > max_size:
        raise FrameError(f"frame of {len(body)} bytes is over the {max_size} byte limit")
    unpack = _SIZED.get(max_size)
    if unpack is None:
        unpack = _SIZED[max_size] = _unpacker(max_size)
    try:
        obj = unpack(body)
    except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError,
            TypeError, UnicodeDecodeError, RecursionError) as exc:
        raise FrameError(f"frame is not valid msgpack ({type(exc).__name__})") from None
    if not isinstance(obj, dict):
        raise FrameError(f"a frame must hold a map, not {type(obj).__name__}")
    return obj


def _unpacker(max_size: int) -> Any:
    """``msgpack.unpackb`` with ``_LIMITS`` capped at ``max_size``, its arguments given
    by name (a call with a ``**`` map of them costs a third more: every action's frame)."""
    lim = {k: min(v, max_size) for k, v in _LIMITS.items()}
    strs, bins, arrays, maps, exts = (lim[k] for k in ("max_str_len", "max_bin_len", "max_array_len",
                                                        "max_map_len", "max_ext_len"))
    unpackb = msgpack.unpackb

    def unpack(body: bytes) -> Any:
        return unpackb(body, raw=False, strict_map_key=True, use_list=True, max_str_len=strs,
                       max_bin_len=bins, max_array_len=arrays, max_map_len=maps, max_ext_len=exts)

    return unpack


class SlowFrame(asyncio.TimeoutError):
    """A frame began but did not arrive whole within its deadline (a drip-feeding peer)."""


def _whole(reader: asyncio.StreamReader, max_size: int) -> dict[str, Any] | None:
    """The frame at the head of ``reader``'s buffer if it is all there (taken out of
    it), else None; a header over the cap or of length 0 is a ``FrameError`` at once."""
    buf = reader._buffer  # type: ignore[attr-defined]
    if len(buf) < HEADER.size:
        return None
    (size,) = HEADER.unpack_from(buf)
    if size > max_size:
        raise FrameError(f"frame of {size} bytes is over the {max_size} byte limit")
    if size == 0:
        raise FrameError("empty frame")
    end = HEADER.size + size
    if len(buf) < end:
        return None
    body = bytes(buf[HEADER.size:end])
    del buf[:end]
    reader._maybe_resume_transport()  # type: ignore[attr-defined]
    return decode_body(body, max_size)


# ``read_frame`` looks into the StreamReader's buffer (CPython's ``_buffer`` and
# ``_wait_for_data``, there since 3.4): a frame that is in whole is taken with no further
# await, and a begun frame's deadline is set only when it is not.  Elsewhere: the streams.
_FAST = all(hasattr(asyncio.StreamReader, a) for a in ("_wait_for_data", "_maybe_resume_transport"))


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
    if not _FAST or not hasattr(reader, "_buffer"):  # pragma: no cover - another asyncio
        return await _read_frame_streams(reader, max_size, timeout, frame_timeout)
    got = _whole(reader, max_size)
    if got is not None:
        return got
    loop = asyncio.get_running_loop()
    begun = frame_timeout is not None and len(reader._buffer) > 0  # type: ignore[attr-defined]
    try:
        async with asyncio.timeout_at(loop.time() + (frame_timeout if begun else timeout)) as deadline:
            while True:
                failed = reader.exception()
                if failed is not None:
                    raise failed
                if reader.at_eof() or reader._eof:  # type: ignore[attr-defined]
                    partial = bytes(reader._buffer)  # type: ignore[attr-defined]
                    raise asyncio.IncompleteReadError(partial, None)
                await reader._wait_for_data("read_frame")  # type: ignore[attr-defined]
                got = _whole(reader, max_size)
                if got is not None:
                    return got
                if frame_timeout is not None and not begun and reader._buffer:  # type: ignore[attr-defined]
                    begun = True  # (its first bytes are in: the rest within frame_timeout)
                    deadline.reschedule(loop.time() + frame_timeout)
    except TimeoutError:
        if begun:
            raise SlowFrame(f"a frame did not arrive whole within {frame_timeout:g} s") from None
        raise


async def _read_frame_streams(reader: asyncio.StreamReader, max_size: int, timeout: float,
                              frame_timeout: float | None = None) -> dict[str, Any]:
    """``read_frame`` with the public StreamReader methods only."""
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
