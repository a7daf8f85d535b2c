"""Compulsory Evacuation Device (Normal Trap): "Target 1 monster on the field; return that target to
the hand." (card text; ruling GEN-1).

Either player's monster, face-up or face-down, checked again as it resolves (ruling CH-3); it goes
to its owner's hand (a Fusion Monster to the Fusion Deck, ruling LF-1)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, each, register, target_ok, to_hand


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(s.monsters(seat) + s.monsters(1 - seat))


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t):
            to_hand(ctx, ctx.s.cards[t], reason="return")


register(
    by_name("Compulsory Evacuation Device").code,
    Script(effects=(Effect(kind="trap", speed=2, targets=_targets, resolve=_resolve),)),
)
