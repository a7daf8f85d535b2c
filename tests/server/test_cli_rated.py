"""The terminal plays rated (issue 39): `duel play --quick --rated --account NAME` logs in with the
password typed at a prompt that does not echo it (or given in DUEL_PASSWORD, never an argument),
waits in the rated queue, is paired with a logged-in protocol client, plays the match, and the
ladder is updated once; a wrong password is one line and a non-zero exit; `--rated` without an
account is refused before anything is sent. A real server process, real pseudo-terminals."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
import redis.asyncio as aioredis
from account_helpers import ask, registered, unique
from proc_helpers import ServeProcess
from term_helpers import Terminal

from protocol.messages import Accepted, LoggedIn, Login, QuickMatch, Seated, Update
from server.accounts.store import AccountStore
from server.clients.client import DuelClient
from server.storage import keys

PASSWORD = "a terminal's rated password"
FMT = "goat"


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path_factory.mktemp("serve"), "--redis-url", redis_url, "--bot-think", "0") as srv:
        yield srv


async def _fresh_queue(redis_url: str) -> None:
    """Players other tests left waiting in the rated queue are not ours."""
    client = aioredis.Redis.from_url(redis_url)
    await client.delete(keys.rated_queue_key(FMT))
    await client.aclose()


async def _applied(redis_url: str, match_id: str, timeout: float = 20.0) -> dict[str, object]:
    """The rating update of ``match_id`` once it was applied (waits for it)."""
    client = aioredis.Redis.from_url(redis_url)
    try:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            raw = await client.hget(keys.RATINGS_APPLIED, match_id)
            if raw is not None:
                stream = await client.xrange(keys.RATING_LOG, "-", "+")
                assert len([e for _, e in stream if e[b"match"] == match_id.encode()]) == 1
                return dict(json.loads(raw))
            assert loop.time() < deadline, f"match {match_id} was not rated"
            await asyncio.sleep(0.1)
    finally:
        await client.aclose()


async def _account_id(redis_url: str, name: str) -> str:
    client = aioredis.Redis.from_url(redis_url)
    try:
        found = await AccountStore(client).id_of(name)
    finally:
        await client.aclose()
    assert found is not None
    return found


def test_a_rated_quick_match_typed_in_the_terminal_with_a_prompted_password(
    server: ServeProcess, redis_url: str
) -> None:
    ann, bob = unique("Ann"), unique("Bob")

    async def accounts() -> None:
        await _fresh_queue(redis_url)
        for name in (ann, bob):
            c, _ = await registered(server.url, name, PASSWORD)
            await c.close()

    asyncio.run(accounts())
    args = ("play", "--quick", "--rated", "--format", FMT, "--account", ann, "--auto-pass", "--url", server.url)
    assert PASSWORD not in " ".join(args)
    with Terminal(*args) as t:
        t.expect(f"password for {ann}: ")
        t.send(PASSWORD)
        t.expect(f"logged in as {ann}")
        t.expect(r"waiting in the rated queue for a player of close rating")

        async def bob_plays() -> str:
            b = await DuelClient.connect(server.url, "Bob")
            logged = await ask(b, Login(name=bob, password=PASSWORD), LoggedIn)
            assert isinstance(logged, LoggedIn), logged
            seated = await ask(b, QuickMatch(rated=True, format=FMT), Seated)
            assert isinstance(seated, Seated) and seated.seat == 1, seated
            while b.view is None:
                await b.expect(Update, timeout=20)
            reply = await b.act({"do": "concede"})  # Bob gives up the whole match
            assert isinstance(reply, Accepted), reply
            await b.close()
            return seated.match_id

        match_id = asyncio.run(bob_plays())
        t.expect(r"MATCH OVER: A\b.* wins \(concede\) · A.* 1 - 0 B", 60)
        t.expect(r"rematch\? .*\n")
        t.send("n")
        assert t.wait(20) == 0
        out = t.output()
        assert PASSWORD not in out and "Traceback" not in out
        assert f"duel play --account {ann} --reconnect " in out  # a rated seat is taken back logged in

    update = asyncio.run(_applied(redis_url, match_id))
    ann_id = asyncio.run(_account_id(redis_url, ann))
    bob_id = asyncio.run(_account_id(redis_url, bob))
    assert update["winner"] == 0 and update["accounts"] == [ann_id, bob_id]
    after: list[dict[str, float]] = update["after"]  # type: ignore[assignment]
    before: list[dict[str, float]] = update["before"]  # type: ignore[assignment]
    assert after[0]["rating"] > before[0]["rating"] and after[1]["rating"] < before[1]["rating"]


def test_register_a_wrong_password_and_rated_without_an_account(server: ServeProcess) -> None:
    name = unique("Cat")
    env = {"DUEL_PASSWORD": PASSWORD}

    async def account() -> None:
        c, _ = await registered(server.url, name, PASSWORD)
        await c.close()

    asyncio.run(account())
    args = ("play", "--quick", "--rated", "--format", FMT, "--account", name, "--url", server.url)
    with Terminal(*args, env={"DUEL_PASSWORD": "not the password at all"}) as t:
        t.expect(rf"error: the server refused the login of '{name}': wrong name or password")
        assert t.wait(20) == 1
        assert "password for" not in t.output()  # from the environment: no prompt
    # --register makes the account (the password from the environment), then it logs in with it
    new = unique("Dan")
    with Terminal("play", "--list", "--account", new, "--register", "--url", server.url, env=env) as t:
        t.expect(f"logged in as {new}")
        assert t.wait(20) == 0

    async def logs_in() -> None:
        c = await DuelClient.connect(server.url, "Dan")
        got = await ask(c, Login(name=new, password=PASSWORD), LoggedIn)
        assert isinstance(got, LoggedIn) and got.name == new, got
        await c.close()

    asyncio.run(logs_in())
    with Terminal("play", "--list", "--account", new, "--register", "--url", server.url, env=env) as t:
        t.expect(rf"error: there is already an account called '{new}' \(log in without --register\)")
        assert t.wait(20) == 1
    with Terminal("play", "--quick", "--rated", "--url", server.url) as t:
        t.expect(r"error: a rated match needs an account: add --account NAME")
        assert t.wait(20) == 2
