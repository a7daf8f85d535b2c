"""``duel serve``: run the websocket server (SIGTERM/SIGINT drain it)."""

from __future__ import annotations

import argparse
import asyncio
import os
import contextlib
import signal
from typing import Any

from server.cliutil import add_redis_options, redis_target


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("serve", help="run the duel server (default command)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--log-level", default="info")
    p.add_argument("--rate-limit", type=int, default=50, help="frames per second per connection (burst: 2x)")
    p.add_argument(
        "--socket-send-buffer", type=int, default=None, help="SO_SNDBUF per connection in bytes (default: the kernel's)"
    )
    p.add_argument("--ping-interval", type=float, default=20.0, help="seconds between keepalive pings")
    p.add_argument(
        "--ping-timeout", type=float, default=20.0, help="seconds a pong may take before the client is dropped"
    )
    p.add_argument("--keep-matches", type=int, default=None, help="retention: keep the newest N finished matches")
    p.add_argument("--keep-days", type=float, default=None, help="retention: delete finished matches older than D days")
    p.add_argument(
        "--redis-cluster",
        metavar="HOST:PORT,...",
        help="a Redis Cluster's seed nodes (password from $REDIS_PASSWORD); same as --redis-url redis+cluster://...",
    )
    add_redis_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.app import DuelServer
    from server.config import ServerConfig
    from server.logs import configure

    configure(args.log_level)
    config = ServerConfig(
        host=args.host,
        port=args.port,
        data_dir=args.data_dir,
        rate_per_second=args.rate_limit,
        rate_burst=2 * args.rate_limit,
        socket_send_buffer=args.socket_send_buffer,
        ping_interval=args.ping_interval,
        ping_timeout=args.ping_timeout,
        keep_matches=args.keep_matches,
        keep_days=args.keep_days,
    )
    if args.redis_cluster:
        from server.redisconn import cluster_url

        args.redis_url = cluster_url(args.redis_cluster, os.environ.get("REDIS_PASSWORD"))
    with redis_target(args, announce=True) as url:

        async def serve() -> None:
            server = DuelServer(config, url)
            await server.start()
            print(
                f"duel server listening on ws://{config.host}:{server.port} "
                f"(health: http://{config.host}:{server.port}/healthz, metrics: /metrics)",
                flush=True,
            )
            print(f"play in the browser: http://{config.host}:{server.port}/", flush=True)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(sig, stop.set)
            await stop.wait()
            print("draining...", flush=True)
            await server.stop()

        asyncio.run(serve())
    print("stopped", flush=True)
    return 0
