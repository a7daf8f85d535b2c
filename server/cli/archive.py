"""``duel export``, ``duel import`` and ``duel matches``: replay files and the match history.

duel export MATCH_ID FILE        # one self-contained replay file (docs/replay-format.md)
duel import FILE [--as ID]       # load it into Redis as a finished match
duel matches [--player NAME] [--account NAME] [--since 2026-11-01] [--result A|B|draw]
             [--prune --keep N --max-age-days D] [--seal]
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import sys
from pathlib import Path
from typing import Any

from redis.exceptions import RedisError

from server.cli.args import NoRedisData, add_redis_options, redis_target, where_it_looked


def register(sub: Any) -> None:
    e: argparse.ArgumentParser = sub.add_parser("export", help="write a match's replay file")
    e.add_argument("match_id")
    e.add_argument("file", type=Path)
    e.add_argument("--unsigned", action="store_true", help="do not sign it with this server's secret")
    add_redis_options(e)
    e.set_defaults(func=run_export)

    i: argparse.ArgumentParser = sub.add_parser("import", help="load a replay file as a finished match")
    i.add_argument("file", type=Path)
    i.add_argument("--as", dest="as_id", metavar="MATCH_ID", help="store it under this match id")
    add_redis_options(i)
    i.set_defaults(func=run_import)

    m: argparse.ArgumentParser = sub.add_parser("matches", help="list finished matches (the match history)")
    m.add_argument("--player", help="only matches this player (display name) took part in")
    m.add_argument("--account", help="only matches this account (its name) sat in, logged in")
    m.add_argument("--since", help="only matches finished since this date (YYYY-MM-DD, UTC)")
    m.add_argument("--result", choices=("A", "B", "draw"), help="only matches with this result")
    m.add_argument("--limit", type=int, default=50)
    m.add_argument("--prune", action="store_true", help="delete finished matches by the rule given")
    m.add_argument("--keep", type=int, help="with --prune: keep the newest N finished matches")
    m.add_argument("--max-age-days", type=float, help="with --prune: delete those finished longer ago")
    m.add_argument(
        "--seal",
        action="store_true",
        help="compress the log of every finished match not compressed yet (a server does it 10 s after each end)",
    )
    add_redis_options(m)
    m.set_defaults(func=run_matches)


def replay_key(args: argparse.Namespace) -> bytes | None:
    """The key this deployment signs replay files with (from DUEL_SECRET or the data dir's
    secret file); None if there is none here (files are then written unsigned and their
    signatures not checked)."""
    from server.lobby.tokens import SeatTokens, load_secret

    if not os.environ.get("DUEL_SECRET") and not (args.data_dir / "secret").exists():
        return None
    try:
        return SeatTokens(load_secret(args.data_dir)).replay_key()
    except (OSError, RuntimeError, ValueError):
        return None


def _client(url: str) -> Any:
    from server.storage import redisconn

    return redisconn.connect(url, 4)


def run_export(args: argparse.Namespace) -> int:
    from server.history import archive, replay_file

    key = None if args.unsigned else replay_key(args)

    async def go(url: str) -> replay_file.Replay:
        client = _client(url)
        try:
            return await archive.export_match(client, args.match_id, key)
        finally:
            await client.aclose()

    try:
        with redis_target(args, existing=True) as url:
            replay = asyncio.run(go(url))
    except (archive.ArchiveError, NoRedisData) as exc:
        print(f"duel export: {exc}", file=sys.stderr)
        return 1
    except (RedisError, OSError) as exc:
        print(f"duel export: cannot read {where_it_looked(args)}: {exc}", file=sys.stderr)
        return 1
    size = replay_file.write(args.file, replay)
    signed = "signed" if "signature" in replay.header else "unsigned"
    print(f"wrote {args.file}: match {args.match_id}, {len(replay.entries)} entries, {size} bytes ({signed})")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Read the file within the replay limits (server.history.replay_limits), verify its log as
    ``duel verify`` does, and only then store it; any refusal is one line and exit 1."""
    from server.history import archive, replay_file

    try:
        replay = replay_file.read(args.file, replay_key(args))
        checked = archive.checked_for_import(replay)
    except (replay_file.ReplayFileError, archive.ArchiveError) as exc:
        print(f"duel import: {args.file}: {exc}", file=sys.stderr)
        return 1

    async def go(url: str) -> str:
        client = _client(url)
        try:
            return await archive.import_match(client, replay, args.as_id, checked)
        finally:
            await client.aclose()

    try:
        with redis_target(args) as url:
            match_id = asyncio.run(go(url))
    except archive.ArchiveError as exc:
        print(f"duel import: {exc}", file=sys.stderr)
        return 1
    except (RedisError, OSError) as exc:
        print(f"duel import: cannot write to {where_it_looked(args)}: {exc}", file=sys.stderr)
        return 1
    print(f"imported {args.file} as finished match {match_id} ({len(replay.entries)} entries)")
    return 0


def run_matches(args: argparse.Namespace) -> int:
    from server.history import archive
    from server.match.sealing import seal_finished
    from server.storage.store import SealResult

    since = None
    if args.since:
        try:
            day = dt.datetime.strptime(args.since, "%Y-%m-%d").replace(tzinfo=dt.UTC)
        except ValueError:
            print(f"duel matches: --since wants a date like 2026-11-01, not {args.since!r}", file=sys.stderr)
            return 2
        since = int(day.timestamp() * 1000)
    if args.prune and args.keep is None and args.max_age_days is None:
        print("duel matches: --prune needs --keep N and/or --max-age-days D", file=sys.stderr)
        return 2

    async def go(url: str) -> tuple[list[archive.HistoryRow], list[str], dict[str, SealResult]]:
        client = _client(url)
        try:
            deleted = await archive.prune(client, keep=args.keep, max_age_days=args.max_age_days) if args.prune else []
            sealed = await seal_finished(client) if args.seal else {}
            account_id = None
            if args.account:
                from server.accounts.store import AccountStore

                account_id = await AccountStore(client).id_of(args.account) or "(none)"
            rows = await archive.history(
                client,
                player=args.player,
                since_ms=since,
                result=args.result,
                limit=args.limit,
                account_id=account_id,
            )
            return rows, deleted, sealed
        finally:
            await client.aclose()

    try:
        with redis_target(args, existing=True) as url:
            rows, deleted, sealed = asyncio.run(go(url))
    except NoRedisData as exc:
        print(f"duel matches: {exc}", file=sys.stderr)
        return 1
    except (RedisError, OSError) as exc:
        print(f"duel matches: cannot read {where_it_looked(args)}: {exc}", file=sys.stderr)
        return 1
    if deleted:
        print(f"deleted {len(deleted)} finished match(es): {' '.join(deleted)}")
    if args.seal:
        done = [r for r in sealed.values() if r.status == "ok"]
        raw, packed = sum(r.raw_bytes for r in done), sum(r.sealed_bytes for r in done)
        print(
            f"sealed the logs of {len(done)} finished match(es)"
            + (f": {raw / 1024:.1f} KiB of entries in {packed / 1024:.1f} KiB" if done else "")
        )
    if not rows:
        print(
            "no finished matches"
            + (" match the filters" if args.player or args.account or since or args.result else "")
        )
        return 0
    print(f"{'match':<14} {'finished (UTC)':<17} {'players':<28} {'result':<14} {'entries':>7} {'turns':>5}")
    for r in rows:
        when = dt.datetime.fromtimestamp(r.finished_ms / 1000, dt.UTC).strftime("%Y-%m-%d %H:%M")
        names = " vs ".join(n or "?" for n in r.players)
        result = "draw" if r.winner == "draw" else f"{'AB'[int(r.winner)]} won" if r.winner in (0, 1) else "-"
        print(
            f"{r.match_id:<14} {when:<17} {names[:28]:<28} {(result + ' (' + r.reason + ')')[:14]:<14} "
            f"{r.length:>7} {r.turns:>5}"
        )
    return 0
