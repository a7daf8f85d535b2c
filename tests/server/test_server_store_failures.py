"""What a client is told when Redis fails under it (issue 34, finding 5).

Real Redis, real websockets. A lost reply comes from ``LossyProxy`` (Redis runs the command,
the server never hears back)."""

from __future__ import annotations

import random
from pathlib import Path

from duel_helpers import quietly, run, running_server, start_match, url_of, wait_for_turn
from redis_proxy import LossyProxy, script_sha

from protocol.messages import Accepted, Update
from server.store import APPEND_LUA

LOST = 6


def test_accepted_comes_before_its_update_when_the_append_reply_is_lost(redis_url: str, tmp_path: Path) -> None:
    """The append's reply is lost: the server sends the script again, which finds the action id
    recorded (the entry is in the log) and reads the entry back. The acting connection must be
    told ``accepted`` before the ``update`` of that entry (PROTOCOL.md, section 5): before,
    the read-back entry was fanned out first, and the answer came after it."""

    async def body() -> None:
        proxy = await LossyProxy(redis_url).start()
        try:
            async with running_server(proxy.url, tmp_path) as server:
                a, b, _match_id, _ = await start_match(url_of(server))
                rnd = random.Random(3)
                for _ in range(LOST):
                    actor = await wait_for_turn([a, b])
                    assert actor is not None
                    proxy.lose_reply_to(script_sha(APPEND_LUA))
                    before = len(actor.inbox)
                    reply = await actor.act(quietly(actor.legal) if rnd.random() < 0.8 else actor.legal[0])
                    assert isinstance(reply, Accepted), reply
                    while actor.seq < reply.seq:
                        await actor.expect(Update)
                    seen = actor.inbox[before:]
                    answered = seen.index(reply)
                    updated = next(i for i, m in enumerate(seen) if isinstance(m, Update) and m.seq == reply.seq)
                    assert answered < updated, [m.type for m in seen]
                assert len(proxy.dropped) == LOST, "every append reply armed was lost"
                for c in (a, b):
                    await c.close()
        finally:
            await proxy.stop()

    run(body())
