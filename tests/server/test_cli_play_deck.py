"""``duel play --deck FILE.ydk`` (issue 38): a ``.ydk`` file or a ``ydke://`` link is read, checked
against the duel's format as ``duel deck check`` does (every problem named, a hint when it is
legal in another format), and played: a Goat list against the server's bot, typed in a terminal
against a real ``duel serve`` (real Redis, real websockets)."""

from __future__ import annotations

import argparse
import asyncio
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio as aioredis
from proc_helpers import ServeProcess
from term_helpers import Terminal

from engine import CARDS
from engine.ydk import DeckList, parse_ydk
from server.cli.play import _deck_and_format, _deck_side_and_format
from server.clients.terminal.cards import Catalogue
from server.clients.terminal.conn import CliError
from server.lobby.catalog import catalogue
from server.storage.store import RedisEventStore

GOAT_YDK = Path(__file__).resolve().parents[2] / "engine/data/goat/decks/goat-control_flc22_erkator.ydk"
CAT = Catalogue.of(catalogue())
PROMPT = r"type a number \(h: help.*\n"


def _args(**kw: object) -> argparse.Namespace:
    base: dict[str, object] = {"deck": None, "format": None, "create": False, "vs_bot": True, "quick": False}
    return argparse.Namespace(**{**base, **kw})


def _ydke(deck: DeckList) -> str:
    import base64
    import struct

    parts = [base64.b64encode(struct.pack(f"<{len(p)}I", *p)).decode() for p in (deck.main, deck.extra, deck.side)]
    return "ydke://" + "!".join(parts) + "!"


def test_a_deck_list_is_read_and_checked_against_the_format(tmp_path: Path) -> None:
    listed = parse_ydk(GOAT_YDK.read_text("utf-8"))
    deck, fmt = _deck_and_format(_args(deck=str(GOAT_YDK), format="goat"), CAT)
    assert fmt == "goat" and deck == list(listed.main + listed.extra)
    # its Side Deck is registered beside it (15 cards in this list)
    side = list(listed.side)
    assert len(side) == 15
    assert _deck_side_and_format(_args(deck=str(GOAT_YDK), format="goat"), CAT) == (deck, side, "goat")
    # the same list as a ydke:// link
    assert _deck_side_and_format(_args(deck=_ydke(listed), format="goat"), CAT) == (deck, side, "goat")
    # a list without a Side Deck registers none; a demo deck has none
    no_side = tmp_path / "no-side.ydk"
    no_side.write_text("#main\n" + "\n".join(str(c) for c in listed.main) + "\n#extra\n!side\n")
    assert _deck_side_and_format(_args(deck=str(no_side), format="goat"), CAT)[1] is None
    assert _deck_side_and_format(_args(deck="battle-step"), CAT)[1] is None
    # quick match takes a format too
    assert _deck_and_format(_args(deck=str(GOAT_YDK), format="goat", vs_bot=False, quick=True), CAT)[1] == "goat"
    # without --format the duel is of the default format, where a Goat list is not legal: each
    # problem is named, and the format it is legal in
    with pytest.raises(CliError) as refused:
        _deck_and_format(_args(deck=str(GOAT_YDK)), CAT)
    words = refused.value.message
    assert refused.value.status == 2
    assert words.startswith(f"{GOAT_YDK} is not legal in Current rules:\n  ")
    assert "Airknight Parshath (18036057) is not in the Current rules card pool" in words
    assert words.endswith("(it is legal in Goat (April 2005): add --format goat)")
    # over its limit in Goat: the card and the limit are named
    limited = tmp_path / "four-sangan.ydk"
    sangan = next(c.code for c in CARDS.values() if c.name == "Sangan")
    limited.write_text("#main\n" + f"{sangan}\n" * 2 + "\n".join(str(c) for c in listed.main[:38]) + "\n!side\n")
    limit = r"copies of Sangan \(26202165\): it is Limited in Goat \(April 2005\), at most 1"
    with pytest.raises(CliError, match=limit):
        _deck_and_format(_args(deck=str(limited), format="goat"), CAT)
    # not a deck list at all, or no such file
    bad = tmp_path / "notes.ydk"
    bad.write_text("#main\nBlue-Eyes White Dragon\n")
    with pytest.raises(CliError, match=r"notes.ydk is not a deck list:\n  line 2: 'Blue-Eyes White Dragon' is not"):
        _deck_and_format(_args(deck=str(bad)), CAT)
    with pytest.raises(CliError, match=r"cannot read .*missing\.ydk: No such file"):
        _deck_and_format(_args(deck=str(tmp_path / "missing.ydk")), CAT)
    # a demo deck's name is still a demo deck
    assert _deck_and_format(_args(deck="battle-step"), CAT)[1] == "current"


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    with ServeProcess(tmp_path_factory.mktemp("serve"), "--redis-url", redis_url, "--bot-think", "0") as srv:
        yield srv


def test_a_goat_list_from_a_ydk_file_is_played_against_the_bot(server: ServeProcess) -> None:
    listed = parse_ydk(GOAT_YDK.read_text("utf-8"))
    names = Counter(CARDS[c].name for c in listed.main)
    args = ("play", "--vs-bot", "--format", "goat", "--deck", str(GOAT_YDK), "--name", "Goat", "--url", server.url)
    with Terminal(*args) as t:
        t.expect(PROMPT, 60)
        out = t.output()
        assert re.search(r"match (\S+): you are A", out), out
        # the opening hand (6 cards for the first player in Goat, else 5) is drawn from the list
        hand = re.search(r"hand \((\d)\): (.*)", out)
        assert hand is not None, out
        shown = [re.sub(r" \(.*$", "", part) for part in hand.group(2).split(" · ")]
        assert int(hand.group(1)) in (5, 6) and len(shown) == int(hand.group(1)), hand.group(0)
        assert all(names[n] > 0 for n in shown), (shown, names)
        assert re.search(r"deck 3[45]\b", out), out  # 40 Main Deck cards less the hand
        t.send("c")
        t.expect("type yes to confirm")
        t.send("yes")
        t.expect(r"RESULT: you lose \(a player conceded\)")
        t.expect(r"rematch\? .*\n")
        t.send("n")
        assert t.wait(20) == 0
        assert "Traceback" not in t.output()


def test_a_ydk_files_side_deck_is_sided_between_duels_in_the_terminal(server: ServeProcess, redis_url: str) -> None:
    """`duel play --vs-bot --best-of 3 --deck FILE.ydk`: the file's Side Deck is registered, listed
    between duels, and a swap typed there is the deck of duel 2 (its genesis in the server's log)."""
    listed = parse_ydk(GOAT_YDK.read_text("utf-8"))
    args = ("play", "--vs-bot", "--auto-pass", "--best-of", "3", "--format", "goat", "--deck", str(GOAT_YDK))
    with Terminal(*args, "--name", "Sider", "--url", server.url) as t:
        found = t.expect(r"match (\S+): you are A", 60)
        match_id = found.group(1)
        t.expect(PROMPT, 60)
        t.send("cd")
        t.expect("concede this duel \\(the match goes on\\)\\? type yes to confirm")
        t.send("yes")
        t.expect(r"siding for duel 2 \(\d+ s; the opponent sees only your counts\)")
        t.expect(r"your Side Deck:\n((?:\s+\d+\. .*\n){15})")
        t.send("s 1 1")
        swapped = t.expect(r"swapped: (.*) in, (.*) out \(d: done\)")
        assert swapped.group(1) == CARDS[listed.side[0]].name and swapped.group(2) == CARDS[listed.main[0]].name
        t.send("second")
        t.send("d")
        t.expect(r'duel 2 begins: B "Bot" goes first')
        t.expect(PROMPT, 60)
        t.send("c")
        t.expect("type yes to confirm")
        t.send("yes")
        t.expect(r"MATCH OVER: B \"Bot\" wins \(concede\)")
        t.expect(r"rematch\? .*\n")
        t.send("n")
        assert t.wait(20) == 0
        assert "refused" not in t.output() and "Traceback" not in t.output()
    genesis = asyncio.run(_genesis(redis_url, f"{match_id}-2"))
    sided = Counter(genesis["decks"][0])
    want = Counter(listed.main) - Counter([listed.main[0]]) + Counter([listed.side[0]])
    assert sided == want, (sided - want, want - sided)


async def _genesis(redis_url: str, duel_id: str) -> dict[str, Any]:
    client = aioredis.Redis.from_url(redis_url)
    try:
        entry = await RedisEventStore(client).entry(duel_id, 1)
    finally:
        await client.aclose()
    assert entry is not None
    return entry.action
