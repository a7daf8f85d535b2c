"""Ring of Destruction (Normal Trap), in the wording of the duel's format (ruling FMT-5).

Goat (its ``text_goat``): "Target 1 face-up monster; Destroy it, and if you do, inflict damage to
both players equal to its ATK." Any face-up monster, either player's, in either player's turn,
whatever its ATK and the players' LP, as many Rings per turn as one has; the damage is the ATK the
monster had on the field just before it was destroyed.

Today (its ``text``): "During your opponent's turn: Target 1 face-up monster your opponent
controls whose ATK is less than or equal to their LP; destroy that face-up monster, and if you do,
take damage equal to its original ATK, then inflict damage to your opponent, equal to the damage
you took. You can only activate 1 "Ring of Destruction" per turn." (the second effect below, a
hard once per turn by name).

Either way the target is chosen at activation (ruling SEL-1) and checked again as it resolves
(ruling CH-3: one no longer face-up on the field is not destroyed, and nobody takes damage); a
monster that is not destroyed deals no damage. Both players take the damage at the same time
(``ops.damage_both``): both at 0 LP is a draw (ruling GEN-2)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    atk,
    by_name,
    damage_both,
    destroy,
    each,
    face_up_monsters,
    goat_wording,
    original,
    other,
    register,
    target_ok,
)


def _goat(s: State, card: Card, seat: int) -> bool:
    return goat_wording(s)


def _goat_targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(face_up_monsters(s, seat) + face_up_monsters(s, other(seat)))


def _today(s: State, card: Card, seat: int) -> bool:
    return not goat_wording(s) and s.turn_player != seat


def _today_targets(s: State, card: Card, seat: int) -> list[list[int]]:
    opp = other(seat)
    return each([c for c in face_up_monsters(s, opp) if atk(s, c) <= s.players[opp].lp])


def _destroy_then_burn(ctx: Ctx, link: Link, use_original: bool) -> None:
    for t in link.targets:
        if not target_ok(ctx.s, t, face_up=True):
            continue
        c = ctx.s.cards[t]
        amount = max(0, original(ctx.s, c, "atk") if use_original else atk(ctx.s, c))
        destroy(ctx, c, reason="effect", by=link.card)
        if c.zone != Zone.MONSTERS:
            damage_both(ctx, amount, first=link.controller)


def _goat_resolve(ctx: Ctx, link: Link) -> None:
    _destroy_then_burn(ctx, link, use_original=False)


def _today_resolve(ctx: Ctx, link: Link) -> None:
    _destroy_then_burn(ctx, link, use_original=True)


register(
    by_name("Ring of Destruction").code,
    Script(
        effects=(
            Effect(kind="trap", speed=2, condition=_goat, targets=_goat_targets, resolve=_goat_resolve),
            Effect(
                kind="trap",
                speed=2,
                condition=_today,
                targets=_today_targets,
                resolve=_today_resolve,
                once_per="name_turn",
            ),
        )
    ),
)
