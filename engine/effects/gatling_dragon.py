"""Gatling Dragon (Fusion Monster): ""Barrel Dragon" + "Blowback Dragon" / Once per turn: You can
toss a coin 3 times and destroy as many monsters on the field as possible, but not more than the
number of Heads." (card text).

- An Ignition effect (Spell Speed 1), once per turn; it does not target. As it resolves the coin
  is tossed 3 times (``ops.toss_coin``: the duel's PRNG, or a scenario's ``coins:``); then its
  controller selects that many monsters on the field (all of them if fewer; itself too, ruling
  SEL-1), destroyed at the same time. With no Heads nothing is destroyed.
- It can be activated whenever it is on the field: it is a monster on the field itself.
- Metamorphosis (Level 8) and Cyber-Stein may Special Summon it (ruling SUM-31)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Answer,
    Ctx,
    Effect,
    Link,
    Script,
    ask_cards,
    by_name,
    continuation,
    destroy_all,
    register,
    toss_coin,
)

TOSSES: Final = 3


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    heads = sum(1 for _ in range(TOSSES) if toss_coin(ctx, me) == "heads")
    monsters = [c.id for sd in (0, 1) for c in s.monsters(sd)]
    if heads == 0 or not monsters:
        return
    ask_cards(ctx, link.controller, monsters, "gatling_dragon.destroy", {"source": link.card}, count=heads)


@continuation("gatling_dragon.destroy")
def _destroy(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    s = ctx.s
    picked = [s.cards[cid] for cid in answer] if isinstance(answer, list) else []
    destroy_all(ctx, [c for c in picked if c.on_field], by=int(d["source"]))


register(
    by_name("Gatling Dragon").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                once_per="turn",
                resolve=_resolve,
                label="toss a coin 3 times; destroy a monster per Heads",
            ),
        )
    ),
)
