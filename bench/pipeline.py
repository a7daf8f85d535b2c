"""The bare pipeline: the physical limit of this architecture, as a server (issue 14).

    .venv/bin/python -m bench.pipeline --port 8890 --redis-url unix:///path/redis.sock \
        [--frame-bytes 2000] [--entry-bytes 300] [--redis-client lean|redis-py] [--gc tuned|default]

Websockets + msgpack + one Redis stream append + two sends per action, and nothing else: no
rules, no validation. It speaks just enough of the duel protocol for
``server/clients/load.py`` to drive it exactly as it drives the real server (hello, create_match,
join, action -> accepted + an update to both seats), so the two are measured by the same
load code in the same run. A "duel" alternates the seats, each with one legal action
(pass), and ends after ``--actions`` actions.

Like with like (issue 41): each update carries a view, a tree of small dicts packed anew for
every seat, that makes the frame ``--frame-bytes`` long (bench/throughput.py passes the mean
update frame the real server's clients received in the same run, ~2 KB), and each append is
an entry of the real one's nine stream fields, ``--entry-bytes`` long in all (the real
entries' mean, read back from Redis in the same run). The append goes through the client
the real server appends with: ``lean`` (server.storage.resp.Pipe, which the server uses for
its appends on a ``redis://`` or ``unix://`` URL, server/process/app.py) or ``redis-py``
(redis.asyncio, which the server uses for everything else, and for its appends on a cluster
or TLS). The collector is set as the real server sets it (``--gc``, default ``tuned`` as
``duel serve``'s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import signal
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import msgpack
import redis.asyncio as aioredis
from websockets.asyncio.server import ServerConnection, serve

from protocol.codec import pack
from server.runtime import gctune
from server.storage import resp

PASS = {"do": "pass"}


@dataclass
class Duel:
    match_id: str
    seats: list[ServerConnection | None] = field(default_factory=lambda: [None, None])
    seq: int = 0
    actions: int = 0


RedisClient = Literal["lean", "redis-py"]
REDIS_CLIENTS: tuple[RedisClient, ...] = ("lean", "redis-py")


def card(i: int) -> dict[str, Any]:
    """One card of the padding view: the shape of a card in a real view (a few short fields)."""
    return {"id": 1000 + i, "code": 89631139 + i, "zone": "hand", "seat": i % 2, "pos": i % 5, "face": "up"}


def padded_view(frame_bytes: int, base: dict[str, Any]) -> list[dict[str, Any]]:
    """Cards enough that ``base`` with them under ``view.cards`` packs to about ``frame_bytes``
    (to within one card, ~60 bytes); none when it is already that long."""
    cards: list[dict[str, Any]] = []
    while True:
        frame = {**base, "view": {**base["view"], "cards": cards}}
        if len(pack(frame)) >= frame_bytes:
            return cards
        cards.append(card(len(cards)))


def entry_size(fields: dict[Any, Any]) -> int:
    """Bytes of a stream entry's field names and values, as Redis stores them (numbers as text)."""

    def size(x: Any) -> int:
        return len(x) if isinstance(x, bytes) else len(str(x).encode())

    return sum(size(k) + size(v) for k, v in fields.items())


class Pipeline:
    def __init__(
        self,
        redis_url: str,
        actions_per_duel: int,
        frame_bytes: int = 0,
        entry_bytes: int = 0,
        client: RedisClient = "lean",
    ) -> None:
        self.client = client
        # the client the real server appends with (module docstring)
        self.pipe = resp.Pipe(redis_url) if client == "lean" else None
        self.redis_py = aioredis.Redis.from_url(redis_url) if client == "redis-py" else None
        self.duels: dict[str, Duel] = {}
        self.limit = actions_per_duel
        sample = self._frame(Duel("x" * 12), 0, [])
        self.cards = padded_view(frame_bytes, sample) if frame_bytes else []
        self.frame_bytes = len(pack(self._frame(Duel("x" * 12), 0, self.cards)))
        fixed = self._fields(Duel("x" * 12), {"do": "pass"}, b"")
        self.pad = b"\x00" * max(0, entry_bytes - entry_size(fixed))

    def _frame(self, duel: Duel, seat: int, cards: list[dict[str, Any]]) -> dict[str, Any]:
        over = duel.actions >= self.limit
        owing = duel.seq % 2
        return {
            "type": "update",
            "match_id": duel.match_id,
            "seq": duel.seq,
            "actor": None,
            "facts": [{"t": "passed", "seat": 1 - owing}],
            "state_hash": "",
            "view": {"winner": 0 if over else None, "turn": duel.seq, "cards": cards},
            "pending": None if over else {"seat": owing, "kind": "priority"},
            "legal": [] if over or owing != seat else [PASS],
        }

    def _update(self, duel: Duel, seat: int) -> bytes:
        return pack(self._frame(duel, seat, self.cards))

    def _fields(self, duel: Duel, action: dict[str, Any], facts: bytes) -> dict[str, Any]:
        """A log entry's nine stream fields, as server.storage.entry.LogEntry.to_fields names them."""
        return {
            "seq": duel.seq,
            "seat": duel.seq % 2,
            "action": pack(action),
            "facts": facts,
            "hash": "0" * 16,
            "sv": 1,
            "ms": 0,
            "cid": "",
            "ts": 0,
        }

    async def _append(self, duel: Duel, action: dict[str, Any]) -> None:
        duel.seq += 1
        key = f"bare:{{{duel.match_id}}}:log"
        fields = self._fields(duel, action, self.pad)
        if self.pipe is not None:
            flat: list[Any] = [x for kv in fields.items() for x in kv]
            await self.pipe.call("XADD", key, f"{duel.seq}-0", *flat)
        else:
            assert self.redis_py is not None
            await self.redis_py.xadd(key, cast(Any, fields), id=f"{duel.seq}-0")

    async def close(self) -> None:
        if self.pipe is not None:
            await self.pipe.close()
        if self.redis_py is not None:
            await self.redis_py.aclose()

    async def handle(self, ws: ServerConnection) -> None:
        duel: Duel | None = None
        seat = 0
        async for data in ws:
            msg = msgpack.unpackb(data, raw=False)
            kind = msg.get("type")
            if kind == "hello":
                await ws.send(
                    pack(
                        {
                            "type": "welcome",
                            "version": 1,
                            "server": "bare",
                            "session": "x",
                            "max_frame": 16384,
                            "rate_per_second": 1000,
                        }
                    )
                )
            elif kind == "create_match":
                duel = Duel(secrets.token_urlsafe(9))
                self.duels[duel.match_id] = duel
                duel.seats[0] = ws
                await ws.send(
                    pack({"type": "seated", "match_id": duel.match_id, "seat": 0, "token": "t", "started": False})
                )
            elif kind == "join":
                duel = self.duels[msg["match_id"]]
                seat = 1
                duel.seats[1] = ws
                await ws.send(
                    pack({"type": "seated", "match_id": duel.match_id, "seat": 1, "token": "t", "started": True})
                )
                await self._append(duel, {"do": "start"})
                for s, peer in enumerate(duel.seats):
                    if peer is not None:
                        await peer.send(self._update(duel, s))
            elif kind == "action" and duel is not None:
                await self._append(duel, msg["action"])
                duel.actions += 1
                await ws.send(
                    pack(
                        {
                            "type": "accepted",
                            "client_action_id": msg["client_action_id"],
                            "seq": duel.seq,
                            "duplicate": False,
                        }
                    )
                )
                for s, peer in enumerate(duel.seats):
                    if peer is not None:
                        with contextlib.suppress(Exception):
                            await peer.send(self._update(duel, s))
        if duel is not None and duel.seats[seat] is ws:
            duel.seats[seat] = None
            if duel.seats == [None, None]:
                self.duels.pop(duel.match_id, None)


async def main(a: argparse.Namespace) -> None:
    pipe = Pipeline(a.redis_url, a.actions, a.frame_bytes, a.entry_bytes, a.redis_client)
    port = a.port
    async with serve(pipe.handle, "127.0.0.1", port, compression=None, max_queue=8, ping_interval=None):
        gctune.apply(a.gc)  # as the real server does once it has started (server/cli/serve.py)
        print(
            f"bare pipeline listening on ws://127.0.0.1:{port} (update frames {pipe.frame_bytes} bytes, "
            f"{len(pipe.cards)} cards; entries +{len(pipe.pad)} bytes of padding; Redis client {a.redis_client}; "
            f"gc {a.gc})",
            flush=True,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    await pipe.close()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--redis-url", required=True)
    p.add_argument("--actions", type=int, default=300, help="actions per duel")
    p.add_argument("--gc", choices=gctune.MODES, default="tuned", help="the collector, as the real server's --gc")
    p.add_argument("--frame-bytes", type=int, default=0, help="pad each update frame to about this size (0: none)")
    p.add_argument("--entry-bytes", type=int, default=0, help="pad each appended entry to about this size (0: none)")
    p.add_argument("--redis-client", choices=REDIS_CLIENTS, default="lean", help="the client the appends go through")
    a = p.parse_args()
    asyncio.run(main(a))
