"""Plain-data aliases shared by the whole engine.

Actions (what a player asks for) and facts (what happened) are plain dicts so
that they go over the wire and into the Redis log as they are.
"""

from __future__ import annotations

from typing import Any

Action = dict[str, Any]
Fact = dict[str, Any]

SEATS = (0, 1)


def other(seat: int) -> int:
    """The opponent of ``seat``."""
    return 1 - seat


class IllegalAction(Exception):
    """An action the rules do not allow now. Nothing changes.

    ``code`` is namespaced (``action/illegal``, ``action/not_your_priority``,
    ``action/malformed``, ``match/finished``); ``reason`` is for humans.
    """

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason
