"""Zombie Mammoth: "Destroy this card if you do not have a Zombie-Type monster in your
Graveyard. When this face-up card is destroyed, inflict damage to its controller equal to its
original ATK."

- Self-destruction is a continuous effect (``self_destroy``). When a face-down Zombie Mammoth
  is flipped by an attack, it is not destroyed at once: damage calculation is still conducted;
  if it is destroyed by that battle the effect is not applied; if it survives it is destroyed
  by its effect after damage calculation (seed 003, TCG "Substep 2" and "Substep 5").
- The damage is a mandatory trigger when it is destroyed face-up."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import damage
from ..state import Card, Link, State
from ..stats import original
from .base import Effect, Script, register


def _self_destroy(s: State, card: Card) -> bool:
    grave = s.players[card.controller].graveyard
    return not any(s.cards[c].data.is_monster and s.cards[c].data.type == "Zombie" for c in grave)


def _match(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return ev.get("card") == card.id and bool(ev.get("face_up"))


def _resolve(ctx: Ctx, link: Link) -> None:
    ev = link.data.get("event", {})
    c = ctx.s.cards[link.card]
    damage(ctx, int(ev.get("controller", link.controller)), original(ctx.s, c, "atk"))


register(
    by_name("Zombie Mammoth").code,
    Script(
        effects=(Effect(kind="trigger", speed=1, trigger_on="destroyed", trigger_match=_match, optional=False, resolve=_resolve),),
        self_destroy=_self_destroy,
    ),
)
