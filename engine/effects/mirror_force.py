"""Mirror Force (Normal Trap): "When an opponent's monster declares an attack: Destroy all your
opponent's Attack Position monsters." (card text). Like Sakuretsu Armor it answers the attack
declaration only in the chain that answers it (ruling CH-4; seed 002, Example 1); it does not target."""

from __future__ import annotations

from .api import Card, Ctx, Effect, EventKind, Link, Position, Script, State, by_name, destroy_all, other, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.attack is not None and s.cards[s.attack.attacker].controller != seat


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    victims = [c for c in s.monsters(other(link.controller)) if c.face_up and c.position == Position.ATTACK]
    destroy_all(ctx, victims, by=link.card)


register(
    by_name("Mirror Force").code,
    Script(
        effects=(Effect(kind="trap", speed=2, event=EventKind.ATTACK_DECLARED, condition=_condition, resolve=_resolve),)
    ),
)
