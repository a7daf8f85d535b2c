"""Every match names its format (docs/formats.md): ``create_match.format``, checked against both
decks, recorded in the log's genesis entry (so ``duel verify`` re-runs the same rules) and in
the lobby's rows; the welcome and the catalogue list the formats and their demo decks."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from duel_helpers import run, running_server, url_of

import engine.deckcheck
import engine.decks
from engine import CARDS
from engine.decks import DECKS_BY_NAME, decks_of
from protocol.messages import CreateMatch, Error, GetCards, Join, ListMatches, MatchList, Seated, Update, Welcome
from server.cli.play import _deck_and_format
from server.clients.client import DuelClient
from server.clients.terminal.cards import Catalogue
from server.clients.terminal.conn import CliError
from server.history.replay import verify_log
from server.lobby.catalog import catalogue
from server.storage.store import RedisEventStore

GOAT_A = DECKS_BY_NAME["goat-control-flc22"]
GOAT_B = DECKS_BY_NAME["chaos-control-flc22"]


async def _error(client: DuelClient, request: CreateMatch | Join) -> str:
    await client.send(request)
    err = await client.expect(Error)
    assert err.code == "deck/invalid"
    return err.reason


def test_the_formats_are_listed_and_refused_decks_named(redis_url: str, tmp_path: Path) -> None:
    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            c = await DuelClient.connect(url_of(server), "lobby")
            welcome = next(m for m in c.inbox if isinstance(m, Welcome))
            assert welcome.formats == ["current", "goat"]
            await c.send(GetCards())
            cards = await c.expect(type(catalogue()))
            goat = next(f for f in cards.formats if f["name"] == "goat")
            assert goat["pool"] == 128 and goat["rules"]["first_player_draws"] and goat["deck"]["side_full_or_empty"]
            goat_decks = [d for d in cards.decks if d["format"] == "goat"]
            assert len(goat_decks) == 9 and "Goat Control (FLC22)" in {d["title"] for d in goat_decks}
            lily = next(x for x in cards.cards if x["name"] == "Injection Fairy Lily")
            assert lily["texts"]["goat"].startswith("This card's effect can only be activated during the Damage Step")

            assert "no format 'edison'; the formats are: current, goat" in await _error(c, CreateMatch(format="edison"))
            if not GOAT_A.playable():
                reason = await _error(c, CreateMatch(format="goat"))
                assert reason == "no demo deck of the Goat (April 2005) format is playable yet: bring a deck"
                reason = await _error(c, CreateMatch(format="goat", deck=GOAT_A.codes()))
                assert "is not supported by the engine yet (its effect has no script)" in reason
                bot = await _error(c, CreateMatch(format="goat", opponent="bot", deck=GOAT_A.codes()))
                assert "not supported by the engine yet" in bot
            reason = await _error(c, CreateMatch(format="goat", deck=DECKS_BY_NAME["battle-step"].codes()))
            assert "Vorse Raider (14898066) is not in the Goat (April 2005) card pool" in reason
            reason = await _error(c, CreateMatch(deck=GOAT_A.codes()))  # a Goat list in a current match
            assert reason.startswith("Airknight Parshath (18036057) is not in the Current rules card pool; ")
            assert reason.endswith("; and 23 more problem(s)")  # twelve are named
            await c.close()

    run(body())


@pytest.mark.pure_engine
def test_a_goat_match_is_played_and_verified_under_goat_rules(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With every card counted as supported (most Goat cards have no script yet), two Goat
    lists make a Goat match: the genesis entry names the format and each Fusion Deck, the first
    player draws in turn 1, a current deck cannot join it, and the log verifies."""
    every = frozenset(CARDS)
    monkeypatch.setattr(engine.deckcheck, "supported_codes", lambda: every)
    monkeypatch.setattr(engine.decks, "supported_codes", lambda: every)

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a = await DuelClient.connect(url_of(server), "A")
            b = await DuelClient.connect(url_of(server), "B")
            await a.send(CreateMatch(format="goat", deck=GOAT_A.codes(), name="Ann"))
            match_id = (await a.expect(Seated)).match_id
            current = DECKS_BY_NAME["battle-step"].codes()
            reason = await _error(b, Join(match_id=match_id, deck=current))
            assert "Vorse Raider (14898066) is not in the Goat (April 2005) card pool" in reason
            await b.send(Join(match_id=match_id, deck=GOAT_B.codes(), name="Bob"))
            assert (await b.expect(Seated)).started
            for c in (a, b):
                while c.view is None:
                    await c.expect(Update)
            assert a.view is not None
            first = a.view["turn_player"]
            assert a.view["players"][first]["hand_count"] == 6  # FMT-1
            assert a.view["players"][0]["extra_count"] == 15 and a.view["players"][1]["extra_count"] == 15
            await a.send(ListMatches(status="live"))
            rows = (await a.expect(MatchList)).matches
            assert next(r for r in rows if r["match_id"] == match_id)["format"] == "goat"
            store = RedisEventStore(aioredis.Redis.from_url(redis_url))
            log = await store.read(match_id)
            genesis = log[0].action
            assert genesis["format"] == "goat"
            assert sorted(genesis["extra"][0]) == sorted(GOAT_A.extra_codes())
            assert sorted(genesis["decks"][0]) == sorted(GOAT_A.main_codes())
            divergence, state = verify_log(log)
            assert divergence is None, divergence
            assert state is not None and state.options["format"] == "goat"
            await store.redis.aclose()
            for c in (a, b):
                await c.close()

    run(body())


def test_a_current_match_names_no_format_in_its_log(redis_url: str, tmp_path: Path) -> None:
    """A match of the default format writes its genesis entry as before formats existed."""

    async def body() -> None:
        async with running_server(redis_url, tmp_path) as server:
            a = await DuelClient.connect(url_of(server), "A")
            b = await DuelClient.connect(url_of(server), "B")
            await a.send(CreateMatch())
            match_id = (await a.expect(Seated)).match_id
            await b.send(Join(match_id=match_id))
            await b.expect(Seated)
            store = RedisEventStore(aioredis.Redis.from_url(redis_url))
            log = await store.read(match_id)
            assert set(log[0].action) == {"do", "seed", "decks", "players"}
            assert verify_log(log)[0] is None
            await store.redis.aclose()
            for c in (a, b):
                await c.close()

    run(body())


def _args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = {"deck": None, "format": None, "create": False, "vs_bot": True}
    return argparse.Namespace(**{**base, **kw})


def test_duel_play_format_and_deck() -> None:
    cat = Catalogue.of(catalogue())
    assert _deck_and_format(_args(), cat) == (None, "current")
    assert _deck_and_format(_args(format="goat"), cat) == (None, "goat")
    deck, fmt = _deck_and_format(_args(deck="battle-step"), cat)
    assert fmt == "current" and deck == DECKS_BY_NAME["battle-step"].codes()
    with pytest.raises(CliError, match="no format 'edison'; the formats are: current, goat"):
        _deck_and_format(_args(format="edison"), cat)
    with pytest.raises(CliError, match="the demo deck battle-step is a current deck, not a goat one"):
        _deck_and_format(_args(format="goat", deck="battle-step"), cat)
    with pytest.raises(CliError, match="--format goes with --create, --vs-bot or --quick"):
        _deck_and_format(_args(format="goat", vs_bot=False), cat)
    listed = r"goat-control-flc22 \(goat\)" if GOAT_A.playable() else r"goat-control-flc22 \(goat, not playable yet\)"
    with pytest.raises(CliError, match=listed):
        _deck_and_format(_args(deck="no-such-deck"), cat)
    if not GOAT_A.playable():
        with pytest.raises(CliError, match="the server does not play every card of goat-control-flc22 yet"):
            _deck_and_format(_args(format="goat", deck="goat-control-flc22"), cat)
    playable = Catalogue(cat.version, cat.cards, [{**d, "playable": True} for d in cat.decks], cat.formats)
    deck, fmt = _deck_and_format(_args(format="goat", deck="goat-control-flc22"), playable)
    assert fmt == "goat" and deck == GOAT_A.codes()
    assert _deck_and_format(_args(deck="goat-control-flc22"), playable)[1] == "goat"  # the deck's format


def test_the_goat_demo_decks_are_the_nine_lists() -> None:
    goat = decks_of("goat")
    assert [d.title for d in goat][:2] == ["Burn (FLC23)", "Chaos Control (FLC22)"]
    assert len(goat) == 9 and all(d.format == "goat" for d in goat)
    assert {len(d.main_codes()) for d in goat} == {40, 41}
    assert sum(len(d.extra_codes()) for d in goat) == 15 * 5 + 7
