"""What one peer may cost a host: ``Limits`` (README, "Host limits"), read by its
connections (``netplay.conn``) and its tables' host (``netplay.host``, which re-exports it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Limits:
    """What one peer may cost the host (README, "Host limits").  Every refusal or cut is
    an ``error`` message (a code and a sentence) and then the connection is closed."""

    max_connections: int = 256      # connections open at once, all peers together
    max_spectators: int = 32        # spectators at one table
    max_per_address: int = 16       # connections open at once from one peer address
    hello_timeout: float = 5.0      # a connection must say hello (the whole frame) this fast
    idle_timeout: float = 60.0      # silence allowed after hello (clients ping every few s)
    frame_timeout: float = 10.0     # once a frame's first byte is in, the whole frame within this
    rate: float = 200.0             # frames per second a client may send, on average
    burst: float = 400.0            # ... and in one burst
    max_errors: int = 50            # bad frames before a client is cut off
    write_buffer: int = 512 * 1024  # unsent bytes queued for a peer before it is cut off
    send_buffer: int = 64 * 1024    # the kernel's send buffer per connection (SO_SNDBUF; 0: system default)
    drain_timeout: float = 10.0     # a peer must take what it was sent within this
    seats_interval: float = 0.1     # a table's seat list goes out at most this often (a joiner's at once)
    chat_rate: float = 0.5          # chat lines a second one seat (or spectator) may send, on average
    chat_burst: float = 5.0         # ... and in one burst (more: an error, the line dropped)
