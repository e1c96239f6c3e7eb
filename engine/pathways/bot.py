"""Pathways bots (placeholder random bot; the real one is written next)."""
from __future__ import annotations

from ..core import Bot
from ..rng import Rng


class RandomBot(Bot):
    def __init__(self, seat: int, seed: int):
        self.rng = Rng.from_seed(seed, f"random-bot-{seat}")

    def choose(self, view, legal):
        action, self.rng = self.rng.choice(legal)
        return action


def make_bot(seat: int, seed: int, level: str = "normal") -> Bot:
    return RandomBot(seat, seed)
