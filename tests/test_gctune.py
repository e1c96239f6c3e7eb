"""engine/process.py: the collector thresholds the app sets once at start."""

import gc

from engine import process as gctune


def test_tune_sets_the_thresholds_and_returns_the_old_ones():
    before = gc.get_threshold()
    try:
        assert gctune.tune() == before
        assert gc.get_threshold() == gctune.THRESHOLDS
        assert gctune.THRESHOLDS[0] > 700 and gc.isenabled()   # raised, never switched off
    finally:
        gc.set_threshold(*before)
