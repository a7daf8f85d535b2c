"""structlog set-up: one JSON object per line on stderr.

Configured once per process and level (``configure`` again with the same level does nothing):
a filtering logger, so that a call below the level is a no-op method, cached on first use.
Levels (issue 36): ``info`` holds lifecycle events (listening, match started, created, joined,
ended, stopped), refusals and errors; per-action events (``action`` of an accepted action) are
``debug``: one line per action at ``info`` cost up to a third of the server's saturation
throughput."""

from __future__ import annotations

import json
import logging
import sys
import time

import structlog


class _JSONLines(logging.Formatter):
    """Records of the standard library's loggers (websockets, asyncio) as JSON lines too, so
    the whole stderr stream is machine-readable."""

    def format(self, record: logging.LogRecord) -> str:
        out = {
            "event": record.getMessage(),
            "logger": record.name,
            "level": record.levelname.lower(),
            "timestamp": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + "Z",
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out)


_configured: list[int] = []
"""The level this process's logging is configured at (empty: not yet)."""


def configure(level: str = "info") -> None:
    lvl = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    if _configured == [lvl]:
        return
    _configured[:] = [lvl]
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_JSONLines())
    _JSONLines.converter = time.gmtime
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(lvl)
    # one line per HTTP probe or closed connection is noise at thousands of duels
    logging.getLogger("websockets").setLevel(max(lvl, logging.WARNING))
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(lvl),
        logger_factory=structlog.PrintLoggerFactory(sys.stderr),
        cache_logger_on_first_use=True,
    )
