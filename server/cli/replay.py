"""``duel replay MATCH_ID|FILE`` and ``duel verify MATCH_ID|FILE``.

The argument is a match id (read from the server's Redis) or a replay file
(``duel export``, or the viewer's download: ``*.duelreplay``), read without any
Redis at all. A match replay file (every duel of a match of several duels, in order:
``GET /matches/<id>.duelreplay``, server.history.replay_file) is replayed duel after duel
(``--duel N``: that duel only) and verified duel by duel.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from server.cli.args import NoRedisData, add_redis_options, redis_target, where_it_looked
from server.storage.entry import LogEntry

if TYPE_CHECKING:
    from server.history.replay_file import MatchReplay, Replay


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "replay", help="print a match from its log, turn by turn, and its final state"
    )
    p.add_argument("match_id", metavar="MATCH_ID|FILE", help="a match id, or a replay file (.duelreplay)")
    p.add_argument("--actions", action="store_true", help="also print every entry's seq and action")
    p.add_argument(
        "--as",
        dest="viewer",
        choices=("all", "A", "B", "spectator"),
        default="all",
        help="whose eyes: all (every card named; the default), A or B (what that player saw), spectator",
    )
    p.add_argument("--upto", type=int, metavar="SEQ", help="stop after entry SEQ and print the board there")
    p.add_argument("--duel", type=int, metavar="N", help="a match replay file: duel N only (default: every duel)")
    add_redis_options(p)
    p.set_defaults(func=run_replay)

    v: argparse.ArgumentParser = sub.add_parser(
        "verify", help="re-run today's rules over a match's logged actions; report the first divergence"
    )
    v.add_argument("match_id", metavar="MATCH_ID|FILE", help="a match id, or a replay file (.duelreplay)")
    add_redis_options(v)
    v.set_defaults(func=run_verify)


def read_log(url: str, match_id: str) -> list[LogEntry]:
    import redis.asyncio as aioredis

    from server.storage.store import RedisEventStore

    async def read() -> list[LogEntry]:
        client = aioredis.Redis.from_url(url)
        try:
            return await RedisEventStore(client).read(match_id)
        finally:
            await client.aclose()

    return asyncio.run(read())


def replay_path(args: argparse.Namespace) -> Path | None:
    """The replay file the argument names (an existing file, or any ``*.duelreplay``), else None."""
    path = Path(args.match_id)
    return path if path.suffix == ".duelreplay" or path.is_file() else None


def load_file(args: argparse.Namespace, path: Path) -> Replay | None:
    """A replay file, read within the replay limits and checked (hash chain, signature when
    this data dir has the key, facts folding), or None after one line saying what is wrong."""
    from server.cli.archive import replay_key
    from server.history import replay_file

    try:
        replay = replay_file.read(path, replay_key(args))
    except replay_file.ReplayFileError as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
        return None
    args.match_id = replay.match_id
    return replay


def load(args: argparse.Namespace) -> list[LogEntry] | None:
    """The match's log, or None after printing one line saying why there is none."""
    from redis.exceptions import RedisError

    path = replay_path(args)
    if path is not None:
        got = load_file(args, path)
        return None if got is None else got.entries

    try:
        with redis_target(args, existing=True) as url:
            entries = read_log(url, args.match_id)
    except NoRedisData as exc:
        print(f"error: {exc}", file=sys.stderr)
        return None
    except (RedisError, OSError) as exc:
        print(f"error: cannot read {where_it_looked(args)}: {exc}", file=sys.stderr)
        return None
    if not entries:
        print(
            f"error: no match {args.match_id} in {where_it_looked(args)} "
            "(is it the server's Redis? `duel play --list` shows the server's matches)",
            file=sys.stderr,
        )
        return None
    return entries


def match_path(args: argparse.Namespace) -> Path | None:
    """The match replay file the argument names (``replay_file.MATCH_MAGIC``), else None."""
    from server.history.replay_file import MATCH_MAGIC

    path = replay_path(args)
    if path is None:
        return None
    try:
        with path.open("rb") as f:
            return path if f.read(len(MATCH_MAGIC)) == MATCH_MAGIC else None
    except OSError:
        return None


def load_match(args: argparse.Namespace, path: Path) -> MatchReplay | None:
    """A match replay file, read within the replay limits and checked, or None after one line."""
    from server.cli.archive import replay_key
    from server.history import replay_file
    from server.history.replay_limits import DEFAULT_LIMITS, ReplayFileError

    try:
        size = path.stat().st_size
        most = replay_file.MAX_DUELS * DEFAULT_LIMITS.max_bytes + replay_file.HEADER_SLACK
        if size > most:
            raise ReplayFileError(f"the file is {size} bytes; a match file of at most {most} is read here")
        return replay_file.loads_match(path.read_bytes(), replay_key(args))
    except ReplayFileError as exc:
        print(f"error: {path}: {exc}", file=sys.stderr)
    except OSError as exc:
        print(f"error: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
    return None


def _seat(value: object, names: list[str]) -> str:
    if value not in (0, 1):
        return "nobody (a draw)"
    assert isinstance(value, int)
    name = names[value] if value < len(names) else ""
    return f"{'AB'[value]}" + (f' "{name}"' if name else "")


def match_lines(got: MatchReplay) -> tuple[list[str], list[str]]:
    """The lines before the duels (the match) and after them (its result)."""
    h = got.header
    names = [str(n) for n in h.get("players", ["", ""])]
    score = h.get("score", [0, 0])
    result = h.get("result") or {}
    head = [
        f"Match {got.match_id}: best of {h.get('best_of')}, {h.get('game_format')}, "
        f"{_seat(0, names)} vs {_seat(1, names)}, {len(got.duels)} duels"
    ]
    tail = [
        "",
        f"Match {got.match_id} over: {_seat(result.get('winner'), names)} wins, {score[0]}-{score[1]} "
        f"({result.get('reason')})",
    ]
    return head, tail


def duel_heading(row: dict[str, Any], names: list[str]) -> str:
    chose = "the coin toss" if row.get("chooser") is None else f"{_seat(row.get('chooser'), names)}'s choice"
    won = _seat(row.get("winner"), names)
    conceded = f", conceded ({row['conceded']})" if row.get("conceded") else ""
    return (
        f"===== Duel {row.get('duel')} ({row.get('duel_id')}): {_seat(row.get('first'), names)} goes first "
        f"({chose}); won by {won} ({row.get('reason')}{conceded}) ====="
    )


def run_match_replay(args: argparse.Namespace, path: Path, viewer: int | str | None) -> int:
    from server.history.replay import fold_log, replay_lines, summary_lines

    got = load_match(args, path)
    if got is None:
        return 1
    if args.duel is not None and not 1 <= args.duel <= len(got.duels):
        print(f"error: {path}: the match has duels 1 to {len(got.duels)}, not {args.duel}", file=sys.stderr)
        return 2
    head, tail = match_lines(got)
    names = [str(n) for n in got.header.get("players", ["", ""])]
    for line in head:
        print(line)
    for number, (row, duel) in enumerate(zip(got.rows, got.duels, strict=True), 1):
        if args.duel is not None and number != args.duel:
            continue
        print()
        print(duel_heading(row, names))
        for line in replay_lines(duel.entries, actions=args.actions, viewer=viewer):
            print(line)
        for line in summary_lines(duel.match_id, duel.entries, fold_log(duel.entries)):
            print(line)
    for line in tail:
        print(line)
    return 0


def run_replay(args: argparse.Namespace) -> int:
    from server.history.replay import fold_log, replay_lines, summary_lines

    viewers: dict[str, int | str | None] = {"all": "all", "A": 0, "B": 1, "spectator": None}
    viewer = viewers[args.viewer]
    whole = match_path(args)
    if whole is not None:
        if args.upto is not None:
            print("error: --upto goes with one duel's replay (duel export DUEL_ID), not a match's", file=sys.stderr)
            return 2
        return run_match_replay(args, whole, viewer)
    if args.duel is not None:
        print("error: --duel goes with a match replay file", file=sys.stderr)
        return 2
    entries = load(args)
    if entries is None:
        return 1
    if args.upto is not None:
        entries = [e for e in entries if e.seq <= args.upto]
    for line in replay_lines(entries, actions=args.actions, viewer=viewer):
        print(line)
    state = fold_log(entries)
    if args.upto is not None:
        from server.clients.terminal.render import render_board
        from server.rules import view as engine_view

        seat = viewer if isinstance(viewer, int) else None
        print()
        print(render_board(engine_view(state, seat, omniscient=viewer == "all"), seat))
    for line in summary_lines(args.match_id, entries, state):
        print(line)
    return 0


def replay_key(args: argparse.Namespace) -> bytes | None:
    from server.cli.archive import replay_key as key

    return key(args)


def run_verify_match(args: argparse.Namespace, path: Path) -> int:
    """Every duel of a match replay file, verified as ``duel verify`` verifies one."""
    from server.history.replay import verify_log

    got = load_match(args, path)
    if got is None:
        return 1
    signed = "signed by this deployment" if got.signed else "not signed by this deployment"
    print(f"{path}: match {got.match_id}, {len(got.duels)} duels, each one's hash chain intact, {signed}")
    for number, duel in enumerate(got.duels, 1):
        divergence, _state = verify_log(duel.entries, hashes=duel.same_rules)
        if divergence is not None:
            print(f"duel {number} ({duel.match_id}):")
            for line in divergence.lines():
                print(line)
            return 1
        print(f"OK: duel {number} ({duel.match_id}): {len(duel.entries)} entries re-run with identical facts")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    from server import rules
    from server.history import replay_file
    from server.history.replay import verify_log

    whole = match_path(args)
    if whole is not None:
        return run_verify_match(args, whole)
    path = replay_path(args)
    same_rules = True
    if path is None:
        entries = load(args)
        if entries is None:
            return 1
    else:
        got = load_file(args, path)
        if got is None:
            return 1
        entries, header = got.entries, got.header
        same_rules = got.same_rules
        if got.signed:
            signed = "signed by this deployment"
        elif "signature" in header and replay_key(args):
            signed = "its entries signed by this deployment (a format-1 file: its header is not signed)"
        elif "signature" in header:
            signed = "signed (by a deployment whose key is not here: signature not checked)"
        else:
            signed = "unsigned"
        print(f"{path}: match {args.match_id}, {len(entries)} entries, hash chain intact, {signed}")
        if not same_rules:
            print(
                f"recorded by rules {header.get('rules_version')}, these are {replay_file.rules_version()}: "
                "comparing facts only (state hashes may differ between rule versions)"
            )
    divergence, state = verify_log(entries, hashes=same_rules)
    if divergence is None:
        final = rules.state_hash(state) if state is not None else ""
        what = "facts and state hashes" if same_rules else "facts"
        print(f"OK: {len(entries)} entries of match {args.match_id} re-run with identical {what}")
        print(f"State hash: {final}")
        return 0
    for line in divergence.lines():
        print(line)
    return 1
