"""Sakuretsu Armor: "When an opponent's monster declares an attack: Target the attacking
monster; destroy that target." It answers the attack declaration only in the first chain
(ruling CH-4; seed 002, Example 1: a second copy cannot respond once that chain resolved)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, EventKind, Link, Script, State, Zone, by_name, destroy, register, target_ok


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.attack is not None and s.cards[s.attack.attacker].controller != seat


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    a = s.attack
    if a is None or s.cards[a.attacker].zone != Zone.MONSTERS:
        return []
    return [[a.attacker]]


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t):
            destroy(ctx, ctx.s.cards[t], by=link.card)


register(
    by_name("Sakuretsu Armor").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                event=EventKind.ATTACK_DECLARED,
                condition=_condition,
                targets=_targets,
                resolve=_resolve,
            ),
        )
    ),
)
