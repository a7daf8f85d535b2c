"""Giant Kozaky: "If there is no face-up "Kozaky" on the field, destroy this card. If this
face-up card is destroyed, inflict damage equal to the original ATK of this card to its
current controller."

- Self-destruction is a continuous effect (``self_destroy``), applied by the rules loop. When
  a face-down Giant Kozaky is flipped by an attack, it is not destroyed at once: damage
  calculation is still conducted; if it is destroyed by that battle the effect is not applied;
  if it survives it is destroyed by its effect after damage calculation (seed 003, TCG
  "Substep 2" and "Substep 5").
- The damage is a mandatory trigger when it is destroyed face-up (by battle, by an effect or
  by itself)."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import damage
from ..state import Card, Link, State
from ..stats import original
from .base import Effect, Script, register

KOZAKY = by_name("Kozaky").code


def _self_destroy(s: State, card: Card) -> bool:
    return not any(c.code == KOZAKY and c.face_up for c in s.monsters(0) + s.monsters(1))


def _match(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return ev.get("card") == card.id and bool(ev.get("face_up"))


def _resolve(ctx: Ctx, link: Link) -> None:
    ev = link.data.get("event", {})
    c = ctx.s.cards[link.card]
    damage(ctx, int(ev.get("controller", link.controller)), original(ctx.s, c, "atk"))


register(
    by_name("Giant Kozaky").code,
    Script(
        effects=(Effect(kind="trigger", speed=1, trigger_on="destroyed", trigger_match=_match, optional=False, resolve=_resolve),),
        self_destroy=_self_destroy,
    ),
)
