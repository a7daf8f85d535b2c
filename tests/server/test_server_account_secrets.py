"""No password and no password hash reaches a log line, a metric, a replay or a frame (issue 39).

A real ``duel serve`` process at log level debug: accounts register, log in with wrong and right
passwords, log in with tokens, are refused a taken name and a password out of bounds, and play a
rated duel to its end, which is rated. Then every line the process wrote (stdout and stderr),
its ``/metrics``, the finished match's replay file (decompressed) and its log in Redis, and every
frame the server sent to any client are searched for each password and for each stored argon2id
hash (whole, its salt, its digest)."""

from __future__ import annotations

import asyncio
import random
import urllib.request
import zlib
from pathlib import Path

import redis.asyncio as aioredis
from account_helpers import ask, rated_match, refused, registered, unique
from duel_helpers import play, run
from proc_helpers import ServeProcess

from protocol import errors as E
from protocol.codec import pack
from protocol.messages import GetReplay, LoggedIn, Login, LoginToken, Register, ReplayLog
from server.clients.client import DuelClient
from server.history.replay_file import MAGIC
from server.storage import keys
from server.storage.store import RedisEventStore

PASSWORDS = {
    "ann": "Ann-secret-pass-4711",
    "bob": "Bob-secret-pass-0815",
    "wrong": "Wrong-secret-guess-42",
    "taken": "Taken-name-secret-99",
    "long": "Too-long-secret-" * 9,
}


def http_get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as resp:
        data: bytes = resp.read()
        return data


def test_no_password_or_hash_reaches_logs_metrics_replays_or_frames(redis_url: str, tmp_path: Path) -> None:
    workdir = tmp_path / "secrets"
    proc = ServeProcess(workdir, "--redis-url", redis_url, "--log-level", "debug").start()
    clients: list[DuelClient] = []
    found: dict[str, bytes] = {}

    async def body() -> tuple[str, list[str]]:
        client = aioredis.Redis.from_url(redis_url)
        ann, bob = unique("Ann"), unique("Bob")
        a, ann_login = await registered(proc.url, ann, PASSWORDS["ann"])
        b, _ = await registered(proc.url, bob, PASSWORDS["bob"])
        x = await DuelClient.connect(proc.url, "X")
        y = await DuelClient.connect(proc.url, "Y")
        clients.extend((a, b, x, y))
        await refused(x, Login(name=ann, password=PASSWORDS["wrong"]), E.ACCOUNT_BAD_LOGIN)
        await refused(x, Register(name=ann, password=PASSWORDS["taken"]), E.ACCOUNT_NAME_TAKEN)
        await refused(x, Register(name=unique("Cy"), password=PASSWORDS["long"]), E.MESSAGE_BAD_FIELD)
        assert isinstance(await ask(x, Login(name=ann, password=PASSWORDS["ann"]), LoggedIn), LoggedIn)
        assert isinstance(await ask(y, LoginToken(token=ann_login.token), LoggedIn), LoggedIn)
        match_id, _ = await rated_match(a, b)
        await play([a, b], random.Random(5))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while not await client.hexists(keys.RATINGS_APPLIED, match_id):
            assert loop.time() < deadline, "not rated"
            await asyncio.sleep(0.05)
        replay = await ask(a, GetReplay(match_id=match_id, views=True), ReplayLog)
        assert isinstance(replay, ReplayLog) and replay.entries
        found["metrics"] = await asyncio.to_thread(http_get, proc.port, "/metrics")
        assert b"duel_rating_updates_total 1" in found["metrics"]
        download = await asyncio.to_thread(http_get, proc.port, f"/replays/{match_id}.duelreplay")
        assert download.startswith(MAGIC)
        found["replay file"] = zlib.decompress(download[len(MAGIC) :])
        found["log in Redis"] = b"".join(pack(e.public()) for e in await RedisEventStore(client).read(match_id))
        hashes = []
        for name in (ann, bob):
            account_id = await client.hget(keys.ACCOUNT_NAMES, name.casefold())
            assert account_id is not None
            stored = await client.hget(keys.account_key(account_id.decode()), "hash")
            assert stored is not None and stored.startswith(b"$argon2id$")
            hashes.append(stored.decode())
        for c in clients:
            await c.close()
        await client.aclose()
        return match_id, hashes

    try:
        match_id, hashes = run(body())
    finally:
        proc.stop()
    found["frames"] = b"".join(f for c in clients for f in c.frames)
    found["log lines"] = "\n".join(proc.lines).encode() + (workdir / "server.log").read_bytes()
    assert b"login_failed" in found["log lines"] and match_id.encode() in found["log lines"]
    assert b"logged_in" in found["frames"] and b"s1." in found["frames"]
    secrets = dict(PASSWORDS)
    for i, stored in enumerate(hashes):
        parts = stored.split("$")
        secrets |= {f"hash {i}": stored, f"salt {i}": parts[-2], f"digest {i}": parts[-1]}
    for where, haystack in found.items():
        for what, secret in secrets.items():
            assert secret.encode() not in haystack, f"{what} is in the {where}"
