"""Slow bots that go wrong, for the worker-process tests of ``netplay.thinking`` (a small
module of their own: a worker imports it to unpickle them)."""

from __future__ import annotations

import os
import time
from typing import Any

from engine.core import Bot


class DyingBot(Bot):
    """Its worker process dies in the middle of its decision."""

    slow = True

    def choose(self, view: Any, legal: list[Any]) -> Any:
        os._exit(3)


class HungBot(Bot):
    """Its decision never comes back (within any test's patience)."""

    slow = True
    think = 0.0

    def choose(self, view: Any, legal: list[Any]) -> Any:
        time.sleep(600)
        return legal[0]
