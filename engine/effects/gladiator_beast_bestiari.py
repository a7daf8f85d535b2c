"""Gladiator Beast Bestiari: "If this card is Special Summoned by the effect of a "Gladiator
Beast" monster: Target 1 Spell/Trap Card on the field; destroy that target. At the end of the
Battle Phase, if this card attacked or was attacked: You can shuffle it into the Deck; Special
Summon 1 "Gladiator Beast" monster from your Deck, except "Gladiator Beast Bestiari"."

Also home of the "Gladiator Beast" helpers that Laquari shares:

- ``summoned_by_gladiator``: the Special Summon happens while a "Gladiator Beast" monster's
  effect resolves (the top chain link).
- ``tag_out``: "At the end of the Battle Phase" is the End Step (seed 003, TCG End Step: "The
  effects of Gladiator Beast monsters also take place during the End Step"): an optional trigger
  when the Battle Phase ends, if the monster declared an attack or was chosen as an attack target
  in this Battle Phase (its ``battled`` flag), while another "Gladiator Beast" monster is in
  the Deck. Its cost shuffles it into the Deck; the monster to Special Summon is selected in the
  Deck as the effect resolves (ruling SEL-1; the one just shuffled in is excluded by name) and
  Summoned in the face-up position its controller picks (ruling SEL-3). With several such
  monsters, their controller chooses which one goes first (rulings CH-5, ES-2).
"""

from __future__ import annotations

from ..cards import by_name
from ..ops import destroy
from ..state import Card, Link, State
from .base import Effect, Script, register
from .common import Ctx, summoned_by_gladiator, tag_out


def _st_targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for sd in (seat, 1 - seat) for c in s.spells_traps(sd)] + [
        [f] for sd in (seat, 1 - seat) if (f := s.players[sd].field_zone) is not None
    ]


def _destroy_st(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        c = ctx.s.cards[t]
        if c.on_field:
            destroy(ctx, c, reason="effect", by=link.card)


register(
    by_name("Gladiator Beast Bestiari").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on="summoned",
                trigger_match=summoned_by_gladiator,
                optional=False,
                targets=_st_targets,
                resolve=_destroy_st,
                label="destroy 1 Spell/Trap",
            ),
            tag_out(),
        )
    ),
)
