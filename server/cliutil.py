"""Shared command-line plumbing: where Redis is, and how to reach it."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from server.embedded_redis import EmbeddedRedis


def add_redis_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL"),
        help="external Redis (redis://host:port/0 or unix:///path); default: $REDIS_URL, "
        "else an embedded Redis with its data in --data-dir",
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=Path(os.environ.get("DUEL_DATA_DIR", "var")),
        help="data directory: embedded Redis files and the token secret (default: ./var)",
    )


@contextmanager
def redis_target(args: argparse.Namespace, *, announce: bool = False) -> Iterator[str]:
    """The Redis URL to use; starts (and later stops) the embedded one if needed."""
    if args.redis_url:
        yield str(args.redis_url)
        return
    embedded = EmbeddedRedis(args.data_dir)
    embedded.start()
    if announce:
        how = "started" if embedded.owned else "reusing running"
        print(
            f"embedded Redis 6.2 ({how}) at {embedded.url}; data in {embedded.data_dir} "
            "(appendonly yes, appendfsync always)",
            flush=True,
        )
    try:
        yield embedded.url
    finally:
        embedded.stop()
