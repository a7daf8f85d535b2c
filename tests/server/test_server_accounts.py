"""Accounts over the protocol (issue 39): register, log in, session tokens, limits on attempts,
and that a token of one account never acts for another. Real Redis, real websockets, real
argon2id hashes."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import redis.asyncio as aioredis
from account_helpers import ask, logged_in, rated_match, refused, registered, unique
from duel_helpers import run, running_server, url_of

from protocol import errors as E
from protocol.messages import (
    CreateMatch,
    Join,
    LoggedIn,
    LoggedOut,
    Login,
    LoginToken,
    Logout,
    Reconnect,
    Register,
    Seated,
)
from server.accounts import AccountSettings
from server.accounts.sessions import SessionTokens
from server.clients.client import DuelClient
from server.storage import keys

PASSWORD = "correct horse battery staple"


def test_register_log_in_and_a_wrong_password(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            name = unique("Ann")
            a, first = await registered(url, name, PASSWORD)
            assert first.name == name and first.token.startswith("s1.") and first.expires_ms > 0
            # the stored hash is argon2id, and is not the password
            client = aioredis.Redis.from_url(redis_url)
            account_id = (await client.hget(keys.ACCOUNT_NAMES, name.casefold())).decode()
            stored = (await client.hget(keys.account_key(account_id), "hash")).decode()
            assert stored.startswith("$argon2id$") and PASSWORD not in stored
            await client.aclose()
            # the same name in another case is the same account
            b = await DuelClient.connect(url, "B")
            await refused(b, Register(name=name.upper(), password=PASSWORD), E.ACCOUNT_NAME_TAKEN)
            await refused(b, Login(name=name, password=PASSWORD + "!"), E.ACCOUNT_BAD_LOGIN)
            # an unknown name is answered as a wrong password is
            await refused(b, Login(name=unique("Nobody"), password=PASSWORD), E.ACCOUNT_BAD_LOGIN)
            again = await ask(b, Login(name=name.lower(), password=PASSWORD), LoggedIn)
            assert isinstance(again, LoggedIn) and again.name == name and again.token != first.token
            await refused(b, Login(name=name, password=PASSWORD), E.ACCOUNT_LOGGED_IN)
            # a session token logs a new connection in, until it is revoked
            c = await DuelClient.connect(url, "C")
            resumed = await ask(c, LoginToken(token=first.token), LoggedIn)
            assert isinstance(resumed, LoggedIn) and resumed.name == name
            assert isinstance(await ask(a, Logout(), LoggedOut), LoggedOut)
            d = await DuelClient.connect(url, "D")
            await refused(d, LoginToken(token=first.token), E.ACCOUNT_BAD_TOKEN)
            # ... the other session (b's) still holds, until logout everywhere
            e = await DuelClient.connect(url, "E")
            assert isinstance(await ask(e, LoginToken(token=again.token), LoggedIn), LoggedIn)
            assert isinstance(await ask(b, Logout(everywhere=True), LoggedOut), LoggedOut)
            f = await DuelClient.connect(url, "F")
            await refused(f, LoginToken(token=again.token), E.ACCOUNT_BAD_TOKEN)
            # limits before work: names and passwords out of bounds are refused by the codec
            await refused(f, Register(name="Al", password=PASSWORD), E.MESSAGE_BAD_FIELD)
            await refused(f, Register(name=" Ann ", password=PASSWORD), E.MESSAGE_BAD_FIELD)
            await refused(f, Register(name="Ann\u202eX", password=PASSWORD), E.MESSAGE_BAD_FIELD)
            await refused(f, Register(name=unique("Ann"), password="short"), E.MESSAGE_BAD_FIELD)
            await refused(f, Register(name=unique("Ann"), password="x" * 129), E.MESSAGE_BAD_FIELD)
            for x in (a, b, c, d, e, f):
                await x.close()

    run(body())


def test_wrong_passwords_are_rate_limited(redis_url: str, tmp_path: Path) -> None:
    """Per connection (5, then one per 10 s); per name and address (5 failures lock that name from
    that address, on every process: counted in Redis) while the owner elsewhere still logs in; per
    name from every address (``name_failures_all``); each limit answers before any hash is made.
    The addresses are told by X-Forwarded-For from a trusted proxy (127.0.0.1)."""

    def at(address: str) -> dict[str, str]:
        return {"X-Forwarded-For": address}

    async def body() -> None:
        settings = AccountSettings(name_failures_all=8)
        proxied = {"trusted_proxies": ("127.0.0.1",), "accounts": settings}
        async with running_server(redis_url, tmp_path, **proxied) as server:
            url = url_of(server)
            name = unique("Bob")
            first, _ = await registered(url, name, PASSWORD)
            passwords = server.accounts.passwords
            c = await DuelClient.connect(url, "C", headers=at("203.0.113.7"))
            for _ in range(5):
                await refused(c, Login(name=name, password="wrong password"), E.ACCOUNT_BAD_LOGIN)
            hashed = passwords.hashed
            await refused(c, Login(name=name, password="wrong password"), E.RATE_LOGIN_LIMITED)
            assert passwords.hashed == hashed, "a refused attempt checked no password"
            # the name is locked from that address now, on any connection, the right password too
            d = await DuelClient.connect(url, "D", headers=at("203.0.113.7"))
            locked = await refused(d, Login(name=name, password=PASSWORD), E.RATE_LOGIN_LIMITED)
            assert "failed logins for this name" in locked.reason and passwords.hashed == hashed
            # another server process (the same Redis) sees the same lock
            async with running_server(redis_url, tmp_path / "other", **proxied) as other:
                e = await DuelClient.connect(url_of(other), "E", headers=at("203.0.113.7"))
                await refused(e, Login(name=name, password=PASSWORD), E.RATE_LOGIN_LIMITED)
                await e.close()
            # the owner, from another address, is not locked out by the guesser
            owner = await DuelClient.connect(url, "Owner", headers=at("198.51.100.1"))
            assert isinstance(await ask(owner, Login(name=name, password=PASSWORD), LoggedIn), LoggedIn)
            # guesses spread over addresses: at name_failures_all (8) failures in all, locked everywhere
            for i in range(3):
                g = await DuelClient.connect(url, f"G{i}", headers=at(f"192.0.2.{i + 1}"))
                await refused(g, Login(name=name, password="wrong password"), E.ACCOUNT_BAD_LOGIN)
                await g.close()
            hashed = passwords.hashed
            late = await DuelClient.connect(url, "Late", headers=at("198.51.100.2"))
            await refused(late, Login(name=name, password=PASSWORD), E.RATE_LOGIN_LIMITED)
            assert passwords.hashed == hashed
            # another name is not locked
            other_name = unique("Cid")
            g, _ = await registered(url, other_name, PASSWORD)
            h = await logged_in(url, other_name, PASSWORD)
            for x in (first, c, d, owner, late, g, h):
                await x.close()

    run(body())


def test_attempts_per_address_are_limited(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        settings = AccountSettings(address_per_minute=3)
        async with running_server(redis_url, tmp_path, accounts=settings) as server:
            url = url_of(server)
            clients = [await DuelClient.connect(url, f"X{i}") for i in range(4)]
            for c in clients[:3]:
                await refused(c, Login(name=unique("Dan"), password=PASSWORD), E.ACCOUNT_BAD_LOGIN)
            hashed = server.accounts.passwords.hashed
            limited = await refused(clients[3], Register(name=unique("Dan"), password=PASSWORD), E.RATE_LOGIN_LIMITED)
            assert "from one address" in limited.reason and server.accounts.passwords.hashed == hashed
            for c in clients:
                await c.close()

    run(body())


def test_password_hashing_does_not_stall_the_loop(redis_url: str, tmp_path: Path) -> None:
    """Eight registrations at once (argon2id, 64 MiB each, about 0.1 s a hash here): every hash
    runs off the event loop's thread, the loop keeps answering (a tick every 10 ms is never late
    by half a second: a gross bound, the suite shares the machine), and at most ``hash_threads``
    hash at once with ``hash_queue`` waiting; beyond that, ``server/busy`` at once."""

    async def body() -> None:
        settings = AccountSettings(hash_threads=1, hash_queue=2, connection_attempts=5)
        async with running_server(redis_url, tmp_path, accounts=settings) as server:
            # which thread each hash runs in (the server runs on this thread's event loop)
            hasher = server.accounts.passwords._hasher
            hashed_on: list[int] = []

            class Watching:
                def hash(self, password: bytes) -> str:
                    hashed_on.append(threading.get_ident())
                    return hasher.hash(password)

                def verify(self, stored: str, password: bytes) -> bool:
                    hashed_on.append(threading.get_ident())
                    return hasher.verify(stored, password)

            server.accounts.passwords._hasher = Watching()
            url = url_of(server)
            clients = [await DuelClient.connect(url, f"R{i}") for i in range(8)]
            worst = 0.0
            done = False

            async def ticker() -> None:
                nonlocal worst
                loop = asyncio.get_running_loop()
                while not done:
                    t = loop.time()
                    await asyncio.sleep(0.01)
                    worst = max(worst, loop.time() - t - 0.01)

            tick = asyncio.create_task(ticker())
            answers = await asyncio.gather(
                *(ask(c, Register(name=unique("Eve"), password=PASSWORD), LoggedIn) for c in clients)
            )
            done = True
            await tick
            ok = [a for a in answers if isinstance(a, LoggedIn)]
            busy = [a for a in answers if not isinstance(a, LoggedIn) and a.code == E.SERVER_BUSY]
            assert len(ok) + len(busy) == 8 and len(ok) >= 3 and busy, answers
            assert len(hashed_on) >= len(ok) and threading.get_ident() not in hashed_on, hashed_on
            assert worst < 0.5, f"the loop stalled {worst:.3f} s"
            for c in clients:
                await c.close()

    run(body())


def test_a_token_of_one_account_never_acts_for_another(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            ann, bob = unique("Ann"), unique("Bob")
            a, ann_login = await registered(url, ann, PASSWORD)
            b, bob_login = await registered(url, bob, PASSWORD)
            match_id, seat_tokens = await rated_match(a, b)
            # a session token names its account inside what is signed: Ann's token made to name
            # Bob's account is refused; so is a token signed with another secret
            ann_id, bob_id = ann_login.token.split(".")[1], bob_login.token.split(".")[1]
            forged = ann_login.token.replace(ann_id, bob_id)
            x = await DuelClient.connect(url, "X")
            await refused(x, LoginToken(token=forged), E.ACCOUNT_BAD_TOKEN)
            other_key = SessionTokens(b"another-secret-0123456789abcdef")
            parts = bob_login.token.split(".")
            made = other_key.issue(parts[1], parts[2], int(parts[3]) * 1000)
            await refused(x, LoginToken(token=made), E.ACCOUNT_BAD_TOKEN)
            # Bob's seat of the rated match: not for a guest with his seat token, nor for Ann
            await refused(x, Reconnect(token=seat_tokens[1]), E.ACCOUNT_REQUIRED)
            y = await DuelClient.connect(url, "Y")
            assert isinstance(await ask(y, LoginToken(token=ann_login.token), LoggedIn), LoggedIn)
            await refused(y, Reconnect(token=seat_tokens[1]), E.ACCOUNT_REQUIRED)
            # ... but for Bob, logged in on a new connection
            z = await DuelClient.connect(url, "Z")
            assert isinstance(await ask(z, LoginToken(token=bob_login.token), LoggedIn), LoggedIn)
            back = await ask(z, Reconnect(token=seat_tokens[1]), Seated)
            assert isinstance(back, Seated) and back.match_id == match_id and back.seat == 1
            # rated matches need two accounts: no guest, no bot, nobody against themselves
            g = await DuelClient.connect(url, "G")
            await refused(g, CreateMatch(rated=True), E.ACCOUNT_REQUIRED)
            w = await DuelClient.connect(url, "W")
            assert isinstance(await ask(w, LoginToken(token=ann_login.token), LoggedIn), LoggedIn)
            await refused(w, CreateMatch(rated=True, opponent="bot"), E.MATCH_RATED_REFUSED)
            own = await ask(w, CreateMatch(rated=True), Seated)
            assert isinstance(own, Seated)
            v = await DuelClient.connect(url, "V")
            assert isinstance(await ask(v, LoginToken(token=ann_login.token), LoggedIn), LoggedIn)
            await refused(v, Join(match_id=own.match_id), E.MATCH_RATED_REFUSED)
            await refused(g, Join(match_id=own.match_id), E.ACCOUNT_REQUIRED)
            # a connection whose session was revoked since it logged in may not start a rated match
            u = await DuelClient.connect(url, "U")
            assert isinstance(await ask(u, LoginToken(token=ann_login.token), LoggedIn), LoggedIn)
            assert isinstance(await ask(v, Logout(everywhere=True), LoggedOut), LoggedOut)
            await refused(u, CreateMatch(rated=True), E.ACCOUNT_REQUIRED)
            for c in (a, b, x, y, z, g, w, v, u):
                await c.close()

    run(body())
