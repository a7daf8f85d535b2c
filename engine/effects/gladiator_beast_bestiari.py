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

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import destroy, move
from ..rng import shuffled
from ..state import Card, Link, State
from .base import Effect, Script, register
from .choices import ask_cards
from .common import deck_candidates, free_monster_zone


def is_gladiator_monster(c: Card) -> bool:
    return c.data.is_monster and c.data.name.startswith("Gladiator Beast")


def summoned_by_gladiator(s: State, card: Card, ev: dict[str, Any]) -> bool:
    """``ev`` is the Special Summon of ``card`` by the effect of a "Gladiator Beast" monster."""
    if ev.get("card") != card.id or ev.get("how") != "special" or not s.chain:
        return False
    return is_gladiator_monster(s.cards[s.chain[-1].card])


def _battled(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return card.zone == "monsters" and card.face_up and card.flags.get("battled") == [s.turn, s.battle_phases]


def _tag_candidates(s: State, seat: int, name: str) -> list[int]:
    return deck_candidates(s, seat, lambda c: is_gladiator_monster(c) and c.data.name != name)


def _tag_condition(s: State, card: Card, seat: int) -> bool:
    return bool(_tag_candidates(s, seat, card.data.name))


def _shuffle_in(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    s = ctx.s
    move(ctx, card, "deck", reason="cost")
    owner = card.owner
    rng, order = shuffled(s.rng, list(s.players[owner].deck))
    ctx.emit("shuffled", seat=owner, order=order, rng=rng)


def _tag_resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    seat = link.controller
    name = s.cards[link.card].data.name
    cands = _tag_candidates(s, seat, name) if free_monster_zone(s, seat) else []
    ask_cards(ctx, seat, cands, "deck.summon", {"then": None, "source": link.card}, source=link.card)


def tag_out() -> Effect:
    return Effect(
        kind="trigger",
        speed=1,
        trigger_on="battle_phase_end",
        trigger_match=_battled,
        condition=_tag_condition,
        cost=_shuffle_in,
        resolve=_tag_resolve,
        label="shuffle into the Deck; Special Summon a Gladiator Beast",
    )


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
