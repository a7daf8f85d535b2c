"""Decks kept with an account (issue 39; PROTOCOL.md section 4a): saved, listed, replaced and
deleted by the logged-in account only; every limit (the sizes, the format, the passcodes, the
count per account) refused before anything is written; one account never reads or changes
another's decks. Real Redis, real websockets."""

from __future__ import annotations

from pathlib import Path

import msgpack
import redis.asyncio as aioredis
from account_helpers import ask, registered, unique
from duel_helpers import run, running_server, url_of

from engine.decks import DECKS_BY_NAME
from protocol.messages import (
    DeckDeleted,
    DeckSaved,
    DeckShelf,
    DeleteDeck,
    Error,
    ListDecks,
    LoggedIn,
    LoginToken,
    SaveDeck,
)
from server.accounts.decks import MAX_DECKS
from server.accounts.store import AccountStore
from server.clients.client import DuelClient
from server.storage import keys

PASSWORD = "a deck keeper's password"
GOAT = DECKS_BY_NAME["goat-control-flc22"]


async def shelf(c: DuelClient) -> DeckShelf:
    got = await ask(c, ListDecks(), DeckShelf)
    assert isinstance(got, DeckShelf), got
    return got


async def saved(c: DuelClient, msg: SaveDeck) -> DeckSaved:
    got = await ask(c, msg, DeckSaved)
    assert isinstance(got, DeckSaved), got
    return got


async def refused(c: DuelClient, msg: SaveDeck | ListDecks | DeleteDeck | bytes, code: str) -> str:
    if isinstance(msg, bytes):
        await c.send_raw(msg)
        got = await c.expect(Error)
    else:
        answer = await ask(c, msg, Error)
        assert isinstance(answer, Error), answer
        got = answer
    assert got.code == code, got
    return got.reason


def test_decks_are_kept_with_the_account_and_come_back_on_another_connection(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            guest = await DuelClient.connect(url, "guest")
            for msg in (ListDecks(), SaveDeck(deck_id="abc"), DeleteDeck(deck_id="abc")):
                assert "log in" in await refused(guest, msg, "account/required")
            name = unique("Keeper")
            c, logged = await registered(url, name, PASSWORD)
            assert (await shelf(c)).decks == []
            first = await saved(
                c, SaveDeck(deck_id="goat-1", name="Goat Control", format="goat", deck=GOAT.codes(), side=[])
            )
            assert first.count == 1 and first.updated_ms > 0
            draft = await saved(c, SaveDeck(deck_id="draft", name="Half a deck", deck=GOAT.codes()[:7], side=[]))
            assert draft.count == 2
            # a new version of a kept deck replaces it (the count stays)
            again = await saved(
                c, SaveDeck(deck_id="goat-1", name="Goat Control v2", format="goat", deck=GOAT.codes(), side=[])
            )
            assert again.count == 2 and again.updated_ms >= first.updated_ms
            got = await shelf(c)
            assert got.max_decks == MAX_DECKS
            by_id = {d["deck_id"]: d for d in got.decks}
            assert by_id["goat-1"]["name"] == "Goat Control v2" and by_id["goat-1"]["format"] == "goat"
            assert by_id["goat-1"]["deck"] == GOAT.codes() and by_id["draft"]["deck"] == GOAT.codes()[:7]
            assert [d["updated_ms"] for d in got.decks] == sorted((d["updated_ms"] for d in got.decks), reverse=True)
            # another connection of the account (a reload: the session token) sees them
            other = await DuelClient.connect(url, "other")
            assert isinstance(await ask(other, LoginToken(token=logged.token), LoggedIn), LoggedIn)
            assert {d["deck_id"] for d in (await shelf(other)).decks} == {"goat-1", "draft"}
            deleted = await ask(other, DeleteDeck(deck_id="draft"), DeckDeleted)
            assert isinstance(deleted, DeckDeleted) and deleted.deleted
            again_deleted = await ask(other, DeleteDeck(deck_id="draft"), DeckDeleted)
            assert isinstance(again_deleted, DeckDeleted) and not again_deleted.deleted
            assert [d["deck_id"] for d in (await shelf(c)).decks] == ["goat-1"]
            for x in (guest, c, other):
                await x.close()

    run(body())


def test_limits_are_checked_before_anything_is_written(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        redis = aioredis.Redis.from_url(redis_url)
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            name = unique("Limits")
            c, _ = await registered(url, name, PASSWORD)
            account_id = await AccountStore(redis).id_of(name)
            assert account_id is not None
            key = keys.account_decks_key(account_id)

            def raw(**fields: object) -> bytes:
                frame = {"type": "save_deck", "deck_id": "x", "name": "", "format": "current", "deck": [], "side": []}
                return bytes(msgpack.packb({**frame, **fields}))

            # sizes and shapes: the codec's (message/bad_field), before the request is handled
            assert "deck" in await refused(c, raw(deck=[GOAT.codes()[0]] * 101), "message/bad_field")
            assert "side" in await refused(c, raw(side=[GOAT.codes()[0]] * 101), "message/bad_field")
            assert "name" in await refused(c, raw(name="n" * 65), "message/bad_field")
            assert "name" in await refused(c, raw(name="evil\u202eeman"), "message/bad_field")
            assert "deck_id" in await refused(c, raw(deck_id="../other"), "message/bad_field")
            assert "deck_id" in await refused(c, raw(deck_id="d" * 33), "message/bad_field")
            # what the server knows: the format, every passcode
            reason = await refused(c, SaveDeck(deck_id="x", format="edison"), "deck/invalid")
            assert "no format 'edison'" in reason
            reason = await refused(c, SaveDeck(deck_id="x", deck=[GOAT.codes()[0], 999_999_999]), "deck/invalid")
            assert "999999999" in reason
            assert await redis.hlen(key) == 0  # nothing of it was written
            # the count per account: MAX_DECKS, then a new deck is refused; a kept one may change
            for i in range(MAX_DECKS):
                assert (await saved(c, SaveDeck(deck_id=f"d{i}", name=f"Deck {i}"))).count == i + 1
            reason = await refused(c, SaveDeck(deck_id="one-more"), "deck/too_many")
            assert str(MAX_DECKS) in reason
            assert await redis.hlen(key) == MAX_DECKS and not await redis.hexists(key, "one-more")
            assert (await saved(c, SaveDeck(deck_id="d0", name="Deck 0, again"))).count == MAX_DECKS
            await c.close()
        await redis.aclose()

    run(body())


def test_one_account_never_reads_or_changes_anothers_decks(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            url = url_of(server)
            ann, _ = await registered(url, unique("Ann"), PASSWORD)
            bob, _ = await registered(url, unique("Bob"), PASSWORD)
            await saved(ann, SaveDeck(deck_id="secret", name="Ann's secret tech", deck=GOAT.codes(), format="goat"))
            assert (await shelf(bob)).decks == []
            # the same deck id is Bob's own deck: Ann's is neither replaced nor deleted
            await saved(bob, SaveDeck(deck_id="secret", name="Bob's", deck=GOAT.codes()[:3]))
            (bobs,) = (await shelf(bob)).decks
            assert bobs["name"] == "Bob's" and bobs["deck"] == GOAT.codes()[:3]
            deleted = await ask(bob, DeleteDeck(deck_id="secret"), DeckDeleted)
            assert isinstance(deleted, DeckDeleted) and deleted.deleted
            deleted = await ask(bob, DeleteDeck(deck_id="secret"), DeckDeleted)
            assert isinstance(deleted, DeckDeleted) and not deleted.deleted
            (anns,) = (await shelf(ann)).decks
            assert anns["name"] == "Ann's secret tech" and anns["deck"] == GOAT.codes()
            # and nothing Bob receives names Ann's deck
            assert not any(b"secret tech" in frame for frame in bob.frames)
            for c in (ann, bob):
                await c.close()

    run(body())
