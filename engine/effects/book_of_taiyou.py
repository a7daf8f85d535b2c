"""Book of Taiyou (Normal Spell): "Flip 1 face-down monster on the field into face-up Attack
Position." (card text; ruling GEN-1).

The face-down monster, on either side of the field, is a target (an older text's "1 ...", ruling
SEL-1), checked again as it resolves (ruling CH-3). It is flipped by a card effect: its FLIP effect
activates (ruling DS-3 names the same for a flip by an attack)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, each, flip_face_up, register, target_ok


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each([c for sd in (seat, 1 - seat) for c in s.monsters(sd) if not c.face_up])


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t, face_up=False):
            flip_face_up(ctx, ctx.s.cards[t], "attack")


register(
    by_name("Book of Taiyou").code,
    Script(effects=(Effect(kind="spell", speed=1, targets=_targets, resolve=_resolve),)),
)
