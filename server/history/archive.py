"""Finished matches: export to a replay file, import one back, list the history, and
delete old finished matches by a retention rule (never a live one).

Every function takes the Redis client of the server (or of a command-line tool) and does
only what its name says; ``duel export``, ``duel import``, ``duel matches`` and the server's
retention loop call them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis

from server.history import replay_file
from server.match.directory import FINISHED, MatchDirectory
from server.storage import keys
from server.storage.entry import genesis_format
from server.storage.store import RedisEventStore

DAY_MS = 24 * 3600 * 1000


class ArchiveError(Exception):
    """The operation cannot be done; the message says why."""


async def export_match(client: aioredis.Redis, match_id: str, key: bytes | None = None) -> replay_file.Replay:
    info = await MatchDirectory(client).get(match_id)
    entries = await RedisEventStore(client).read(match_id)
    if not entries:
        raise ArchiveError(f"no match {match_id} in this Redis")
    players = info.names if info is not None else ("", "")
    created = info.created_ms if info is not None else entries[0].ts_ms
    return replay_file.build(match_id, entries, players=players, created_ms=created, key=key)


def replay_bytes(
    match_id: str, records: list[dict[str, Any]], players: tuple[str, str], created_ms: int, key: bytes | None
) -> bytes:
    """The replay file of a stored log given as its records (``replay_file.record``: plain
    values, which pickle alike whether the engine runs compiled or not), as bytes. It folds the
    whole log and compresses it: the server runs it in a reader process (``GET
    /replays/ID.duelreplay``), never on its loop."""
    entries = [replay_file.entry_of(r) for r in records]
    return replay_file.dumps(replay_file.build(match_id, entries, players=players, created_ms=created_ms, key=key))


def checked_for_import(replay: replay_file.Replay) -> ImportedMatch:
    """What the history will say of ``replay``, all of it from its log, once the log passes the
    verification ``duel verify`` runs (today's rules re-decide every logged action; the facts,
    and the state hashes when the rules version is the same, must come out as logged); else
    ArchiveError naming the first entry that does not. The result, length and turns are the
    folded log's; the dates are its first and last entries'; the players are the names the
    genesis entry records, else the header's when the whole file is signed by this deployment
    (a format-1 or unsigned file's header names are nobody's word: left empty)."""
    from server.history.replay import verify_log

    divergence, state = verify_log(replay.entries, hashes=replay.same_rules)
    if divergence is not None:
        raise ArchiveError(f"the file does not verify: {divergence.lines()[0]}; not imported")
    result = replay_file.result_of(state)
    if not result["finished"]:
        raise ArchiveError("only finished matches can be imported (the duel in this file had not ended)")
    named = replay_file.logged_players(replay.entries)
    players = named if named is not None else replay.players if replay.signed else ("", "")
    first, last = replay.entries[0].ts_ms, replay.entries[-1].ts_ms
    return ImportedMatch(
        players=players,
        winner=result["winner"],
        reason=str(result["reason"]),
        length=len(replay.entries),
        turns=int(result["turns"]),
        created_ms=first or last or int(time.time() * 1000),
        finished_ms=last or int(time.time() * 1000),
    )


@dataclass(frozen=True, slots=True)
class ImportedMatch:
    """What an imported match's meta and history row say (all from its verified log)."""

    players: tuple[str, str]
    winner: int | str | None
    reason: str
    length: int
    turns: int
    created_ms: int
    finished_ms: int


async def import_match(
    client: aioredis.Redis,
    replay: replay_file.Replay,
    match_id: str | None = None,
    checked: ImportedMatch | None = None,
) -> str:
    """Store a replay as a finished match (under its own id, or ``match_id``), once its log
    verifies (``checked_for_import``: nothing is written otherwise); the log is appended
    entry by entry with the usual conditional append, so a half-done import can be seen (and
    an existing match is never overwritten), then sealed. ``checked``: the replay's
    ``checked_for_import``, when the caller has it already."""
    target = match_id or replay.match_id
    keys.check_match_id(target)
    if await client.exists(keys.meta_key(target), keys.log_key(target)):
        raise ArchiveError(f"match {target} already exists here; import it under another id (--as NEW_ID)")
    match = checked if checked is not None else checked_for_import(replay)
    store = RedisEventStore(client)
    for entry in replay.entries:
        result = await store.append(target, entry)
        if result.status != "ok":
            raise ArchiveError(f"match {target} changed while importing (entry {entry.seq}: {result.status})")
    directory = MatchDirectory(client)
    await directory.create(
        target,
        f"import-{target}-{replay.header['chain'][:16]}",
        [],
        spectators=True,
        quick=False,
        name=match.players[0],
        created_ms=match.created_ms,
        fmt=genesis_format(replay.entries[0].action) if replay.entries else "current",
    )
    await client.hset(keys.meta_key(target), mapping={"name1": match.players[1], "seat1": "1", "imported": 1})
    await directory.finish(
        target,
        winner=match.winner,
        reason=match.reason,
        length=match.length,
        turns=match.turns,
        finished_ms=match.finished_ms,
    )
    await store.seal(target)  # a finished match: kept compressed at once (server.match.sealing)
    return target


@dataclass(frozen=True, slots=True)
class HistoryRow:
    match_id: str
    finished_ms: int
    players: tuple[str, str]
    winner: int | str | None
    reason: str
    length: int
    turns: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "finished_ms": self.finished_ms,
            "players": list(self.players),
            "winner": self.winner,
            "end_reason": self.reason,
            "length": self.length,
            "turns": self.turns,
        }


async def history(
    client: aioredis.Redis,
    *,
    player: str | None = None,
    since_ms: int | None = None,
    result: str | None = None,
    limit: int = 50,
    account_id: str | None = None,
) -> list[HistoryRow]:
    """Finished matches, newest first, filtered by a player's name, a start time, the
    result (``A`` or ``B`` won, or ``draw``), and an account that sat in it (server.accounts)."""
    directory = MatchDirectory(client)
    out: list[HistoryRow] = []
    cursor: tuple[int, str] | None = None
    while len(out) < limit:
        batch, cursor = await directory.page(FINISHED, 200, *(cursor or (None, None)))
        if not batch:
            break
        for info in batch:
            r = info.result or {}
            finished = int(r.get("finished_ms", 0))
            if since_ms is not None and finished < since_ms:
                return out
            if player is not None and player not in info.names:
                continue
            if account_id is not None and account_id not in info.accounts:
                continue
            winner = r.get("winner")
            if result is not None and {"A": 0, "B": 1, "draw": "draw"}.get(result) != winner:
                continue
            out.append(
                HistoryRow(
                    info.match_id,
                    finished,
                    info.names,
                    winner,
                    str(r.get("end_reason", "")),
                    int(r.get("length", 0)),
                    int(r.get("turns", 0)),
                )
            )
            if len(out) >= limit:
                break
    return out


async def prune(client: aioredis.Redis, *, keep: int | None = None, max_age_days: float | None = None) -> list[str]:
    """Delete finished matches beyond the newest ``keep``, and those finished more than
    ``max_age_days`` ago. Only matches in the history index whose meta says finished are
    touched: a live match is never deleted. Returns the ids deleted."""
    doomed: set[str] = set()
    if keep is not None:
        old = await client.zrevrange(keys.LOBBY_FINISHED, keep, -1)
        doomed |= {_text(m) for m in old}
    if max_age_days is not None:
        cutoff = int(time.time() * 1000 - max_age_days * DAY_MS)
        old = await client.zrangebyscore(keys.LOBBY_FINISHED, "-inf", f"({cutoff}")
        doomed |= {_text(m) for m in old}
    deleted = []
    for match_id in sorted(doomed):
        status = await client.hget(keys.meta_key(match_id), "status")
        if status is not None and _text(status) != FINISHED:
            continue  # never a live match, whatever the index says
        await client.delete(*keys.match_keys(match_id))
        await client.zrem(keys.LOBBY_FINISHED, match_id)
        deleted.append(match_id)
    return deleted


def _text(v: object) -> str:
    return v.decode() if isinstance(v, bytes) else str(v)
