"""Trap Hole (Normal Trap): "When your opponent Normal or Flip Summons 1 monster with 1000 or
more ATK: Target that monster; destroy that target." (card text). It answers the summon in
the window the engine opens after a Normal (Tribute) or Flip Summon (event ``summoned``);
not a Special Summon, not a Set."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    atk,
    by_name,
    destroy,
    register,
    still_face_up,
    target_ok,
)


def _summoned(s: State, seat: int) -> Card | None:
    ev = s.event
    if ev is None or ev.get("kind") != EventKind.SUMMONED or ev.get("how") == "special":
        return None
    c = s.cards.get(int(ev.get("card", -1)))
    if c is None or not still_face_up(c) or c.controller == seat:
        return None
    return c if atk(s, c) >= 1000 else None


def _condition(s: State, card: Card, seat: int) -> bool:
    return _summoned(s, seat) is not None


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    c = _summoned(s, seat)
    return [[c.id]] if c is not None else []


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, face_up=True):
            destroy(ctx, ctx.s.cards[t], reason="effect", by=link.card)


register(
    by_name("Trap Hole").code,
    Script(
        effects=(
            Effect(
                kind="trap", speed=2, event=EventKind.SUMMONED, condition=_condition, targets=_targets, resolve=_resolve
            ),
        )
    ),
)
