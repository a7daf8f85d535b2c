"""Dark Elf: "This card requires a cost of 1000 of your own Life Points to attack." (card
text). An attack cost: it can declare an attack only while its controller can pay 1000 LP,
and pays them as the attack is declared (not again when a replay chooses a new target)."""

from __future__ import annotations

from typing import Final

from .api import Card, Ctx, EventKind, GameEvent, Script, State, by_name, is_negated, pay_lp, register, still_face_up

COST: Final = 1000


def _can_attack(s: State, src: Card, attacker: Card) -> bool:
    return attacker.id != src.id or s.players[src.controller].lp >= COST


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") != EventKind.ATTACK_DECLARED or ev.get("attacker") != card.id:
        return
    if still_face_up(card) and not is_negated(ctx.s, card):
        pay_lp(ctx, card.controller, COST)


register(
    by_name("Dark Elf").code,
    Script(can_attack=_can_attack, watch=_watch, watch_on=frozenset({EventKind.ATTACK_DECLARED})),
)
