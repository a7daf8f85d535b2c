"""Decks kept with an account (``save_deck``, ``list_decks``, ``delete_deck``).

One HASH per account (``keys.account_decks_key``): deck id -> the deck as JSON (its name, format,
Main and Extra Deck passcodes, Side Deck passcodes, and when the server last saved it). The key
is the logged-in account's: a connection reads and writes its own account's decks only, and a
deck id names a deck within one account (two accounts may use the same id).

Limits, each checked before anything is written: the sizes of a request (the protocol's: 100
passcodes in each list, a name of 64 characters), the format (one the server plays), every
passcode a card the server knows (server.rules), and ``MAX_DECKS`` decks per account, checked in
the same script that writes (a new deck beyond it is ``deck/too_many``; a new version of a kept
one always fits). A deck being built is kept as it is: the format's deck rules apply when it is
played (server.lobby.decks).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis

from protocol import errors as E
from protocol.messages import DeckDeleted, DeckSaved, DeckShelf, DeleteDeck, SaveDeck
from server import rules
from server.storage import keys

MAX_DECKS = 100
"""Decks one account may keep (a deck of 100 + 100 passcodes is about 2 KiB as stored)."""

SAVE_LUA = """
-- KEYS[1] the account's decks; ARGV[1] deck id, ARGV[2] the deck (JSON), ARGV[3] most decks.
-- The account's count of decks after, or -1 (a new deck, and the account has the most it may).
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
  return -1
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return redis.call('HLEN', KEYS[1])
"""


class DeckRefused(Exception):
    """A deck request is refused: an error code and a reason (nothing was written)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(f"{code}: {reason}")
        self.code = code
        self.reason = reason


@dataclass(frozen=True, slots=True)
class StoredDeck:
    deck_id: str
    name: str
    format: str
    deck: list[int]
    side: list[int]
    updated_ms: int

    def dumps(self) -> str:
        raw = {"name": self.name, "format": self.format, "deck": self.deck, "side": self.side}
        return json.dumps({**raw, "updated_ms": self.updated_ms}, separators=(",", ":"))

    @classmethod
    def loads(cls, deck_id: str, blob: bytes | str) -> StoredDeck:
        raw: dict[str, Any] = json.loads(blob)
        return cls(
            deck_id,
            str(raw["name"]),
            str(raw["format"]),
            [int(c) for c in raw["deck"]],
            [int(c) for c in raw["side"]],
            int(raw["updated_ms"]),
        )

    def public(self) -> dict[str, Any]:
        return {
            "deck_id": self.deck_id,
            "name": self.name,
            "format": self.format,
            "deck": self.deck,
            "side": self.side,
            "updated_ms": self.updated_ms,
        }


def _text(value: object) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def checked(msg: SaveDeck, now_ms: int) -> StoredDeck:
    """The deck to keep, or :class:`DeckRefused` (an unknown format, or a passcode of no card)."""
    if msg.format not in rules.FORMATS:
        formats = ", ".join(sorted(rules.FORMATS))
        raise DeckRefused(E.DECK_INVALID, f"no format {msg.format!r}; the formats are: {formats}")
    unknown = sorted({c for c in (*msg.deck, *msg.side) if not rules.known_card(c)})
    if unknown:
        shown = ", ".join(str(c) for c in unknown[:12])
        raise DeckRefused(E.DECK_INVALID, f"no card has the passcode {shown}" + (" ..." if len(unknown) > 12 else ""))
    return StoredDeck(msg.deck_id, msg.name, msg.format, list(msg.deck), list(msg.side), now_ms)


class AccountDecks:
    def __init__(self, client: aioredis.Redis, most: int = MAX_DECKS) -> None:
        self._redis = client
        self.most = most
        self._save = client.register_script(SAVE_LUA)

    async def save(self, account_id: str, msg: SaveDeck, now_ms: int) -> DeckSaved:
        deck = checked(msg, now_ms)
        count = int(
            await self._save(keys=[keys.account_decks_key(account_id)], args=[deck.deck_id, deck.dumps(), self.most])
        )
        if count < 0:
            raise DeckRefused(E.DECK_TOO_MANY, f"an account keeps at most {self.most} decks: delete one first")
        return DeckSaved(deck.deck_id, deck.updated_ms, count)

    async def shelf(self, account_id: str) -> DeckShelf:
        raw: dict[Any, Any] = await self._redis.hgetall(keys.account_decks_key(account_id))
        decks = sorted(
            (StoredDeck.loads(_text(k), v) for k, v in raw.items()), key=lambda d: (-d.updated_ms, d.deck_id)
        )
        return DeckShelf([d.public() for d in decks], self.most)

    async def delete(self, account_id: str, msg: DeleteDeck) -> DeckDeleted:
        gone = int(await self._redis.hdel(keys.account_decks_key(account_id), msg.deck_id))
        return DeckDeleted(msg.deck_id, gone == 1)
