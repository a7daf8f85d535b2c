"""Michizure (Normal Trap): "Activate only when a monster is sent from the field to your
Graveyard. Select and destroy 1 monster on the field. (You can activate this card during the
Damage Step.)"

By its own text and by seed 003 (TCG "Substep 7": "Some effects are given specific allowance by
Konami that allow them to be activated at this time, like Michizure and Chthonian Blast") it
answers the monsters destroyed by battle and sent to the Graveyard at the end of the Damage
Step (the engine's ``left_field`` window): a monster of its owner's must have gone to his or
her Graveyard (not banished). The monster to destroy is selected at activation (``choose``;
not a target); if it has left the field by then, nothing is destroyed.

Outside the Damage Step the same window opens after a chain in which monsters left the field
(``chain.resolve_chain``): Michizure may start the next chain, unless the turn player acts
first. Costs and Tributes open no window yet."""

from __future__ import annotations

from ..cards import by_name
from ..ctx import Ctx
from ..ops import destroy
from ..state import Card, Link, State
from .base import Effect, Script, register
from .time_machine import END_OF_DS, left_field


def _condition(s: State, card: Card, seat: int) -> bool:
    return any(e.get("to") == "graveyard" and int(e["owner"]) == seat for e in left_field(s))


def _choices(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for sd in (1 - seat, seat) for c in s.monsters(sd)]


def _resolve(ctx: Ctx, link: Link) -> None:
    for cid in link.data.get("choose", []):
        c = ctx.s.cards[int(cid)]
        if c.zone == "monsters":
            destroy(ctx, c, reason="effect", by=link.card)


register(
    by_name("Michizure").code,
    Script(
        effects=(Effect(kind="trap", speed=2, event="left_field", damage_step=END_OF_DS, condition=_condition, choices=_choices, resolve=_resolve),)
    ),
)
