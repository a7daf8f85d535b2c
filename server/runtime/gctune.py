"""Tuning of the cyclic garbage collector, chosen by measurement (issue 14; bench/gc.py,
docs/performance.md).

The server allocates many short-lived objects per action (facts, views, frames) and creates
almost no reference cycles; what the collector costs is mostly traversing the long-lived
objects (card data, modules, the states of held matches) again and again, in full
collections of tens of milliseconds that set the latency p99. ``tuned``:

- ``gc.freeze()`` once the server has started: everything loaded at start-up moves to the
  permanent generation and is never traversed again;
- a larger first-generation threshold, so that young collections run less often and objects
  that die young (most of an action's) are freed by reference counting before any
  collection looks at them.

Cycles are still collected; RSS is watched by the benchmark (bench/gc.py) to show they are
rare. ``default`` leaves CPython's settings as they are (the baseline of the benchmark).
"""

from __future__ import annotations

import gc
from typing import Literal

GcMode = Literal["default", "tuned"]
MODES: tuple[GcMode, ...] = ("default", "tuned")
THRESHOLDS = (50_000, 20, 100)  # CPython 3.11's default: (700, 10, 10)


def apply(mode: GcMode) -> None:
    """Apply ``mode`` to this process (call once start-up is over)."""
    if mode == "default":
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
