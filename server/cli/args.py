"""Shared command-line plumbing: where Redis is, and how to reach it; a display name given
on the command line."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from protocol.names import NAME_MAX, BadName, display_name
from server.storage.embedded_redis import EmbeddedRedis


def name_arg(text: str) -> str:
    """``--name``: a display name as the server takes it (protocol.names), or the reason it
    would refuse it, before anything is sent."""
    try:
        name = display_name(text)
    except BadName as exc:
        raise argparse.ArgumentTypeError(f"a display name {exc}") from None
    if len(name) > NAME_MAX:
        raise argparse.ArgumentTypeError(f"a display name has at most {NAME_MAX} characters")
    return name


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


class NoRedisData(Exception):
    """There is no server data where a reading command looked (the message says where)."""


def where_it_looked(args: argparse.Namespace) -> str:
    """The Redis a command reads, in words (for messages)."""
    if args.redis_url:
        return f"the Redis at {args.redis_url}"
    return f"the embedded Redis of {Path(args.data_dir).resolve()}"


@contextmanager
def redis_target(args: argparse.Namespace, *, announce: bool = False, existing: bool = False) -> Iterator[str]:
    """The Redis URL to use; starts (and later stops) the embedded one if needed.

    ``existing``: for commands that read what a server wrote (``replay``, ``verify``): the
    embedded Redis must already have data in ``--data-dir`` (else :class:`NoRedisData`, and
    nothing is created there)."""
    if args.redis_url:
        yield str(args.redis_url)
        return
    data_dir = Path(args.data_dir).resolve()
    if existing and not any((data_dir / name).exists() for name in ("appendonly.aof", "redis.sock", "dump.rdb")):
        raise NoRedisData(
            f"no duel server data in {data_dir} (the embedded Redis that `make run` / `duel serve` keeps in "
            "./var of the folder it runs in): run this in the server's folder, or pass --data-dir DIR, "
            "or --redis-url URL (or set REDIS_URL) for the server's Redis"
        )
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
