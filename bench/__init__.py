"""Performance figures for ``make bench`` (``python -m bench``).

The bench prints numbers and never fails on time: self-play speed through
``engine.match.Match``, bot thinking time, the strong bot's win rate against random
play, and how long the app takes to show its first frame.
"""
