"""Jurrac Velo: "When this face-up Attack Position card attacks or is attacked, and it is
destroyed by battle and sent to the Graveyard, you can Special Summon 1 "Jurrac" monster with
1700 or less ATK from your Deck." A trigger of the end of the Damage Step (seed 003, TCG
"Substep 7"), from the Graveyard; not if it battled in Defense Position or was banished
instead. The monster is chosen at activation (``choose``)."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import special_summon
from ..state import Card, Link, State
from .base import Effect, Script, register
from .jurrac_guaiba import jurrac_choices


def _match(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return (
        ev.get("card") == card.id
        and ev.get("reason") == "battle"
        and ev.get("to") == "graveyard"
        and ev.get("position") == "attack"
        and card.zone == "graveyard"
    )


def _resolve(ctx: Ctx, link: Link) -> None:
    for cid in link.data.get("choose", []):
        c = ctx.s.cards[int(cid)]
        if c.zone == "deck" and c.owner == link.controller:
            special_summon(ctx, c, link.controller, "attack")


register(
    by_name("Jurrac Velo").code,
    Script(effects=(Effect(kind="trigger", speed=1, trigger_on="destroyed", trigger_match=_match, choices=jurrac_choices, resolve=_resolve),)),
)
