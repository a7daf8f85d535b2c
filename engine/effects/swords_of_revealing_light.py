"""Swords of Revealing Light (Normal Spell): "After this card's activation, it remains on the
field, but destroy it during the End Phase of your opponent's 3rd turn. When this card is
activated: If your opponent controls a face-down monster, flip all monsters they control
face-up. While this card is face-up on the field, your opponent's monsters cannot declare an
attack."

It stays on the field after resolving (``Script.remains_on_field``, honoured by
``chain.resolve_chain``). Its controller's opponent's End Phases are counted in the card's
``sorl_turns`` flag (rule bookkeeping in ``watch``); in the third it is destroyed. Flipping the
monsters face-up is a flip by a card effect: their FLIP effects activate."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Phase,
    Script,
    State,
    Zone,
    by_name,
    destroy,
    flip_face_up,
    other,
    register,
)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    opp = other(link.controller)
    mons = s.monsters(opp)
    if any(not m.face_up for m in mons):
        for m in mons:
            if not m.face_up:
                flip_face_up(ctx, m, "defense")


def _can_attack(s: State, src: Card, attacker: Card) -> bool:
    return attacker.controller == src.controller


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    s = ctx.s
    if ev.get("kind") != EventKind.PHASE_START or ev.get("phase") != Phase.END:
        return
    if card.zone != Zone.SPELLS_TRAPS or not card.face_up or s.turn_player == card.controller:
        return
    n = int(card.flags.get("sorl_turns", 0)) + 1
    ctx.emit(Flag(card=card.id, name="sorl_turns", value=n))
    if n >= 3:
        destroy(ctx, card, reason="effect", by=card.id)


register(
    by_name("Swords of Revealing Light").code,
    Script(
        effects=(Effect(kind="spell", speed=1, resolve=_resolve),),
        can_attack=_can_attack,
        watch=_watch,
        watch_on=frozenset({EventKind.PHASE_START}),
        remains_on_field=True,
    ),
)
