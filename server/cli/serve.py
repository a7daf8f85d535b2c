"""``duel serve``: run the websocket server (SIGTERM/SIGINT drain it)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import os
import signal
import socket
import sys
from typing import Any

from server.cli.args import add_redis_options, redis_target
from server.history.replay_limits import DEFAULT_LIMITS
from server.match.sealing import OVERDUE_S, SEAL_AFTER_S, SWEEP_EVERY_S

MAX_SEARCH_WORKERS = 64
"""The most worker processes ``--search-workers`` may ask for."""


def _search_workers(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 1 <= n <= MAX_SEARCH_WORKERS:
        raise argparse.ArgumentTypeError(f"must be 1 to {MAX_SEARCH_WORKERS}, not {n}")
    return n


def register(sub: Any) -> None:
    from server.clients.bot import POLICIES

    p: argparse.ArgumentParser = sub.add_parser("serve", help="run the duel server (default command)")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--log-level", default="info")
    p.add_argument("--rate-limit", type=int, default=50, help="frames per second per connection (burst: 2x)")
    p.add_argument(
        "--address-connections",
        type=int,
        default=256,
        help="connections one address may hold (more: HTTP 429); raise it for load tests from one machine",
    )
    p.add_argument(
        "--address-rate", type=int, default=500, help="frames per second from all the connections of one address"
    )
    p.add_argument(
        "--socket-send-buffer", type=int, default=None, help="SO_SNDBUF per connection in bytes (default: the kernel's)"
    )
    p.add_argument("--ping-interval", type=float, default=20.0, help="seconds between keepalive pings")
    p.add_argument(
        "--ping-timeout", type=float, default=20.0, help="seconds a pong may take before the client is dropped"
    )
    p.add_argument(
        "--bot-think",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help="how long the server's bot opponent takes per decision, on average (default: 0.6)",
    )
    p.add_argument(
        "--bot-policy",
        choices=sorted(POLICIES),
        default="search",
        help="how the server's bot opponent plays (server/clients/bot.py; default: search, which thinks 0.5 s per "
        "decision in worker processes: docs/search.md)",
    )
    p.add_argument(
        "--search-workers",
        type=_search_workers,
        default=None,
        metavar="N",
        help="worker processes the searching bots of this process share (default: the CPUs less one, 1 to 4)",
    )
    p.add_argument(
        "--bot-abandoned-after",
        type=_seconds_or_never,
        default=60.0,
        metavar="SECONDS",
        help="the server's bot leaves a match whose player has been disconnected this long; the player's "
        "reconnect seats it again (default: %(default)s; 'never': it stays until the match ends)",
    )
    p.add_argument(
        "--waiting-grace",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="a match nobody joined expires this long after its creator disconnected (default: %(default)s)",
    )
    p.add_argument(
        "--drop-grace",
        type=_seconds_or_never,
        default=60.0,
        metavar="SECONDS",
        help="a player who left a casual match of several duels and has not come back this long loses the "
        "match, a drop (default: %(default)s; 'never'; rated matches: --rated-grace)",
    )
    p.add_argument(
        "--waiting-ttl",
        type=_seconds_or_never,
        default=3600.0,
        metavar="SECONDS",
        help="... and this long after it was created, creator connected or not (default: %(default)s; 'never')",
    )
    p.add_argument(
        "--waiting-sweep-every",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="how often this process looks for waiting matches to expire (default: %(default)s)",
    )
    p.add_argument(
        "--address-matches",
        type=int,
        default=30,
        metavar="N",
        help="matches one address may create per minute, in bursts of as many (default: %(default)s)",
    )
    p.add_argument(
        "--address-waiting",
        type=int,
        default=8,
        metavar="N",
        help="matches of one address that may wait for an opponent at once (default: %(default)s)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS_OR_NETWORK",
        help="a proxy (e.g. 172.28.0.0/16) whose X-Forwarded-For names the client, for per-address limits",
    )
    p.add_argument(
        "--gc",
        choices=("default", "tuned"),
        default="tuned",
        help="garbage collector settings: tuned (freeze start-up objects, rarer young collections) or CPython's",
    )
    p.add_argument("--keep-matches", type=int, default=None, help="retention: keep the newest N finished matches")
    p.add_argument("--keep-days", type=float, default=None, help="retention: delete finished matches older than D days")
    p.add_argument(
        "--seal-after",
        type=_seconds_or_never,
        default=SEAL_AFTER_S,
        metavar="SECONDS",
        help="compress a finished match's log this long after its end "
        "(default: %(default)s; 'never': keep it a plain stream)",
    )
    p.add_argument(
        "--seal-sweep-every",
        type=float,
        default=SWEEP_EVERY_S,
        metavar="SECONDS",
        help="how often this process looks for seals overdue (a stopped process's) and does them "
        "(default: %(default)s)",
    )
    p.add_argument(
        "--seal-overdue",
        type=float,
        default=OVERDUE_S,
        metavar="SECONDS",
        help="how long after it was due a seal counts as overdue (default: %(default)s)",
    )
    limits = DEFAULT_LIMITS
    p.add_argument(
        "--replay-max-bytes",
        type=int,
        default=limits.max_bytes,
        help="largest replay file a client may upload, compressed (default: %(default)s)",
    )
    p.add_argument(
        "--replay-max-data",
        type=int,
        default=limits.max_data,
        help="the most bytes an uploaded replay file may decompress to (default: %(default)s)",
    )
    p.add_argument(
        "--replay-max-entries",
        type=int,
        default=limits.max_entries,
        help="the most entries an uploaded replay file may hold (default: %(default)s)",
    )
    p.add_argument(
        "--replay-uploads-per-address",
        type=int,
        default=4,
        help="replay files one address may be sending or keep open at once (default: %(default)s)",
    )
    p.add_argument(
        "--replay-readers",
        type=int,
        default=1,
        help="processes that read and page uploaded replay files (default: %(default)s)",
    )
    p.add_argument(
        "--redis-cluster",
        metavar="HOST:PORT,...",
        help="a Redis Cluster's seed nodes (password from $REDIS_PASSWORD); same as --redis-url redis+cluster://...",
    )
    p.add_argument(
        "--session-days",
        type=float,
        default=30.0,
        metavar="DAYS",
        help="how long an account's session token is valid (default: %(default)s)",
    )
    p.add_argument(
        "--password-threads",
        type=int,
        default=2,
        metavar="N",
        help="password hashes (argon2id) run at once, off the event loop (default: %(default)s)",
    )
    p.add_argument(
        "--rating-delay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="rate a finished rated match this long after its end (default: %(default)s; the sweep does "
        "it if the process stops first)",
    )
    p.add_argument(
        "--rated-sweep-every",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="how often this process looks at the rated matches not rated yet (default: %(default)s)",
    )
    p.add_argument(
        "--rated-grace",
        type=_seconds_or_never,
        default=60.0,
        metavar="SECONDS",
        help="a seat of a rated match whose player has been gone this long concedes (default: %(default)s; 'never')",
    )
    p.add_argument(
        "--rated-widen-every",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="rated quick match: the rating gap a pairing accepts (100 at first) widens by 50 every this many "
        "seconds a player waits, up to 1000 (default: %(default)s)",
    )
    add_redis_options(p)
    p.set_defaults(func=run)


def _seconds_or_never(text: str) -> float | None:
    if text == "never":
        return None
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds or 'never': {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("seconds cannot be negative")
    return value


def run(args: argparse.Namespace) -> int:
    from server import rules
    from server.accounts import AccountSettings
    from server.lobby.rated_queue import RatedWindow
    from server.process.app import DuelServer
    from server.process.config import ServerConfig
    from server.runtime import gctune
    from server.runtime.logs import configure

    problem = port_problem(args.host, args.port)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr, flush=True)
        return 1
    configure(args.log_level)
    if args.search_workers is not None:
        from server.clients.search import pool

        pool.configure(args.search_workers)
    config = ServerConfig(
        host=args.host,
        port=args.port,
        data_dir=args.data_dir,
        rate_per_second=args.rate_limit,
        rate_burst=2 * args.rate_limit,
        max_connections_per_address=args.address_connections,
        address_rate=args.address_rate,
        socket_send_buffer=args.socket_send_buffer,
        ping_interval=args.ping_interval,
        ping_timeout=args.ping_timeout,
        bot_think=max(0.0, args.bot_think),
        bot_policy=args.bot_policy,
        bot_abandoned_after=args.bot_abandoned_after,
        waiting_grace=max(0.0, args.waiting_grace),
        waiting_ttl=args.waiting_ttl,
        drop_grace=args.drop_grace,
        waiting_sweep_every=max(0.1, args.waiting_sweep_every),
        address_matches_per_minute=max(1, args.address_matches),
        address_waiting_matches=max(1, args.address_waiting),
        keep_matches=args.keep_matches,
        trusted_proxies=tuple(args.trusted_proxy),
        keep_days=args.keep_days,
        seal_after=args.seal_after,
        seal_sweep_every=max(0.1, args.seal_sweep_every),
        seal_overdue=args.seal_overdue,
        gc=args.gc,
        replay_max_bytes=args.replay_max_bytes,
        replay_max_data=args.replay_max_data,
        replay_max_entries=args.replay_max_entries,
        replay_uploads_per_address=args.replay_uploads_per_address,
        replay_readers=max(1, args.replay_readers),
        rated_window=RatedWindow(every_s=max(0.1, args.rated_widen_every)),
        accounts=AccountSettings(
            session_days=max(1 / 24, args.session_days),
            hash_threads=max(1, args.password_threads),
            rating_delay=max(0.0, args.rating_delay),
            rated_sweep_every=max(0.1, args.rated_sweep_every),
            rated_grace=args.rated_grace,
        ),
    )
    if args.redis_cluster:
        from server.storage.redisconn import cluster_url

        args.redis_url = cluster_url(args.redis_cluster, os.environ.get("REDIS_PASSWORD"))
    with redis_target(args, announce=True) as url:

        async def serve() -> None:
            server = DuelServer(config, url)
            try:
                await server.start()
            except OSError as exc:
                with contextlib.suppress(Exception):
                    await server.stop()
                raise ListenError(listen_error(config.host, config.port, exc)) from None
            print(
                f"duel server listening on ws://{config.host}:{server.port} "
                f"(health: http://{config.host}:{server.port}/healthz, metrics: /metrics)",
                flush=True,
            )
            print(f"play in the browser: http://{config.host}:{server.port}/", flush=True)
            if not rules.NATIVE:
                print("the rules engine runs as Python source (`make native` compiles it: ~3x faster)", flush=True)
            gctune.apply(config.gc)
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                with contextlib.suppress(NotImplementedError):
                    loop.add_signal_handler(sig, stop.set)
            await stop.wait()
            print("draining...", flush=True)
            await server.stop()

        try:
            asyncio.run(serve())
        except ListenError as exc:
            print(f"error: {exc}", file=sys.stderr, flush=True)
            return 1
    print("stopped", flush=True)
    return 0


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (checked before anything starts), if
    it could not; the server's own bind still reports a port taken in between."""
    if port == 0:
        return None
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        return f"cannot listen on {host}:{port}: {exc.strerror or exc}; check --host"
    for family, kind, proto, _, addr in infos:
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does
            try:
                probe.bind(addr)
            except OSError as exc:
                return listen_error(host, port, exc)
    return None


class ListenError(Exception):
    """The server could not start listening (the message is one line for the user)."""


def listen_error(host: str, port: int, exc: OSError) -> str:
    """One line for a server that could not start listening."""
    if exc.errno == errno.EADDRINUSE:
        return (
            f"cannot listen on {host}:{port}: the port is already in use (another `duel serve` or "
            "`make run`?); stop it, or choose another port with --port"
        )
    if exc.errno == errno.EACCES:
        return f"cannot listen on {host}:{port}: permission denied (ports below 1024 need privileges); use --port"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"cannot listen on {host}:{port}: this machine has no such address; check --host"
    return f"cannot start the server on {host}:{port}: {exc.strerror or exc}"
