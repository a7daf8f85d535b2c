"""The bare pipeline: the physical limit of this architecture, as a server (issue 14).

    .venv/bin/python -m bench.pipeline --port 8890 --redis-url unix:///path/redis.sock

Websockets + msgpack + one Redis stream append + two sends per action, and nothing else: no
rules, no views, no validation. It speaks just enough of the duel protocol for
``server/clients/load.py`` to drive it exactly as it drives the real server (hello, create_match,
join, action -> accepted + an update to both seats), so the two are measured by the same
load code in the same run. A "duel" alternates the seats, each with one legal action
(pass), and ends after ``--actions`` actions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import secrets
import signal
from dataclasses import dataclass, field
from typing import Any

import msgpack
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


class Pipeline:
    def __init__(self, redis_url: str, actions_per_duel: int) -> None:
        # the same lean pipelined connection the real server appends with (server.storage.resp)
        self.redis = resp.Pipe(redis_url)
        self.duels: dict[str, Duel] = {}
        self.limit = actions_per_duel

    def _update(self, duel: Duel, seat: int) -> bytes:
        over = duel.actions >= self.limit
        owing = duel.seq % 2
        return pack(
            {
                "type": "update",
                "match_id": duel.match_id,
                "seq": duel.seq,
                "actor": None,
                "facts": [{"t": "passed", "seat": 1 - owing}],
                "state_hash": "",
                "view": {"winner": 0 if over else None, "turn": duel.seq},
                "pending": None if over else {"seat": owing, "kind": "priority"},
                "legal": [] if over or owing != seat else [PASS],
            }
        )

    async def _append(self, duel: Duel, action: dict[str, Any]) -> None:
        duel.seq += 1
        key = f"bare:{{{duel.match_id}}}:log"
        await self.redis.call("XADD", key, f"{duel.seq}-0", "seq", duel.seq, "action", pack(action))

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


async def main(port: int, redis_url: str, actions: int, gc: gctune.GcMode) -> None:
    pipe = Pipeline(redis_url, actions)
    async with serve(pipe.handle, "127.0.0.1", port, compression=None, max_queue=8, ping_interval=None):
        gctune.apply(gc)  # as the real server does once it has started (server/cli/serve.py)
        print(f"bare pipeline listening on ws://127.0.0.1:{port}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()
    await pipe.redis.close()


if __name__ == "__main__":
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--redis-url", required=True)
    p.add_argument("--actions", type=int, default=300, help="actions per duel")
    p.add_argument("--gc", choices=gctune.MODES, default="tuned", help="the collector, as the real server's --gc")
    a = p.parse_args()
    asyncio.run(main(a.port, a.redis_url, a.actions, a.gc))
