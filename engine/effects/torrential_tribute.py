"""Torrential Tribute (Normal Trap): "When a monster(s) is Summoned: Destroy all monsters on the
field." (card text; ruling GEN-1).

It answers a Summon in the chain right after it (ruling CH-4): a Normal, Tribute or Flip Summon,
or a Special Summon by the monster's own procedure, once the Summon is done (ruling SUM-3: not
while it would be Summoned), or a Special Summon made while a chain resolved (Monster Reborn), in
the window after that chain (ruling SUM-4, ``Effect.answers_chain_summons``); either player's
monster, face-up or face-down. It does not target: all monsters on the field are destroyed at the
same time, whoever controls them."""

from __future__ import annotations

from .api import Card, Ctx, Effect, EventKind, Link, Script, State, by_name, destroy_all, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.monsters(0) or s.monsters(1))


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    destroy_all(ctx, [c for seat in (s.turn_player, 1 - s.turn_player) for c in s.monsters(seat)], by=link.card)


register(
    by_name("Torrential Tribute").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                event=EventKind.SUMMONED,
                answers_chain_summons=True,
                condition=_condition,
                resolve=_resolve,
            ),
        )
    ),
)
