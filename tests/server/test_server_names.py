"""Hostile display names (issue 34, finding 5): refused with a clear error wherever a name
enters, normalised to NFC where it is fine, and shown safely when read back from Redis.

Real Redis, real websockets; the command line's ``--name`` checks the same rules before it
sends anything."""

from __future__ import annotations

import secrets
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from duel_helpers import run, running_server, url_of

from protocol import errors as E
from protocol.codec import pack
from protocol.messages import (
    PROTOCOL_VERSION,
    CreateMatch,
    Error,
    Join,
    ListMatches,
    MatchList,
    Presence,
    QuickMatch,
    Seated,
    Welcome,
)
from server.cli import build_parser
from server.clients.client import DuelClient
from server.storage import keys

HOSTILE = {"\u202eevil": "\u202e", "two\u2028lines": "\u2028", "zero\u200bwidth": "\u200b", "nul\x00byte": "\x00"}
"""Names, and the character each is refused for."""


def rid() -> str:
    return secrets.token_urlsafe(18)


def test_hostile_names_are_refused_everywhere_and_nothing_is_created(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path) as server:
            # hello: the client's name is refused like a display name; a good hello then works
            raw = await DuelClient.connect(url_of(server), "raw", hello=False)
            await raw.send_raw(pack({"type": "hello", "versions": [PROTOCOL_VERSION], "client": "x\u202ey"}))
            err = await raw.expect(Error)
            assert err.code == E.MESSAGE_BAD_FIELD and "U+202E RIGHT-TO-LEFT OVERRIDE" in err.reason
            await raw.send_raw(pack({"type": "hello", "versions": [PROTOCOL_VERSION], "client": "fine"}))
            await raw.expect(Welcome)
            owner = await DuelClient.connect(url_of(server), "owner")
            await owner.send(CreateMatch(name="Owner"))
            match_id = (await owner.expect(Seated)).match_id
            before = await redis.zcard(keys.LOBBY_MATCHES)
            c = await DuelClient.connect(url_of(server), "c")
            for name, bad in HOSTILE.items():
                requests = [
                    {"type": "create_match", "name": name, "request_id": rid()},
                    {"type": "join", "match_id": match_id, "name": name},
                    {"type": "quick_match", "name": name, "request_id": rid()},
                ]
                for request in requests:
                    await c.send_raw(pack(request))
                    err = await c.expect(Error)
                    assert err.code == E.MESSAGE_BAD_FIELD, (request, err)
                    assert f"field 'name' must not contain U+{ord(bad):04X}" in err.reason, err.reason
            assert not [m for m in c.inbox if isinstance(m, Seated)]  # no seat taken
            assert await redis.zcard(keys.LOBBY_MATCHES) == before  # nothing created
            assert await redis.hget(keys.meta_key(match_id), "req1") is None  # nobody joined
            for x in (raw, owner, c):
                await x.close()
        await redis.aclose()

    run(body())


def test_names_are_normalised_and_stored_ones_are_shown_safely(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path) as server:
            a = await DuelClient.connect(url_of(server), "a")
            await a.send(CreateMatch(name="Zoe\u0301"))  # e + combining acute
            seated = await a.expect(Seated)
            assert seated.players == ["Zo\u00e9", ""]
            assert await redis.hget(keys.meta_key(seated.match_id), "name0") == "Zo\u00e9".encode()
            b = await DuelClient.connect(url_of(server), "b")
            await b.send(Join(match_id=seated.match_id, name="\u1100\u1161"))  # conjoining jamo -> one syllable
            assert (await b.expect(Seated)).players == ["Zo\u00e9", "\uac00"]
            while not any(isinstance(m, Presence) and m.players == ["Zo\u00e9", "\uac00"] for m in a.inbox):
                await a.expect(Presence)  # the creator is told the joiner's name as normalised
            # a name an older server stored (no check then) is shown with its bad characters replaced
            await redis.hset(keys.meta_key(seated.match_id), "name1", "ev\u202eil\u2028")
            await b.send(ListMatches(limit=200))
            rows = (await b.expect(MatchList)).matches
            row = next(r for r in rows if r["match_id"] == seated.match_id)
            assert row["players"] == ["Zo\u00e9", "ev\ufffdil\ufffd"]
            q = await DuelClient.connect(url_of(server), "q")
            await q.send(QuickMatch(name="Ame\u0301lie"))
            assert (await q.expect(Seated)).players[0] == "Am\u00e9lie"
            for c in (a, b, q):
                await c.close()
        await redis.aclose()

    run(body())


@pytest.mark.parametrize("command", [["play", "--vs-bot"], ["bot", "--quick"]])
def test_the_command_line_refuses_a_hostile_name_before_sending_anything(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    for name in HOSTILE:
        with pytest.raises(SystemExit) as stopped:
            build_parser().parse_args([*command, "--name", name])
        assert stopped.value.code == 2
        assert "argument --name: a display name must not contain U+" in capsys.readouterr().err
    assert build_parser().parse_args([*command, "--name", "Zoe\u0301"]).name == "Zo\u00e9"
