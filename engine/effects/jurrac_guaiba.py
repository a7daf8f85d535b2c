"""Jurrac Guaiba: "If this card destroys an opponent's monster by battle: You can Special Summon
1 "Jurrac" monster with 1700 or less ATK from your Deck, but it cannot declare an attack this
turn." No "and sends it to the Graveyard": it activates at the end of the Damage Step even if
the destroyed monster is banished (Macro Cosmos) (seed 003, TCG "Substep 7"). Guaiba must still
be on the field. The monster is chosen at activation (``choose``), summoned in Attack
Position."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import special_summon
from ..state import Card, Link, State
from .base import Effect, Script, register
from .common import deck_choices, free_monster_zone
from .hydrogeddon import destroyed_by_this


def is_small_jurrac(c: Card) -> bool:
    return c.data.is_monster and "Jurrac" in c.data.name and 0 <= c.data.atk <= 1700


def jurrac_choices(s: State, card: Card, seat: int) -> list[list[int]]:
    if not free_monster_zone(s, seat):
        return []
    return deck_choices(s, seat, is_small_jurrac)


def _match(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return destroyed_by_this(s, card, ev, to_grave=False)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    for cid in link.data.get("choose", []):
        c = s.cards[int(cid)]
        if c.zone == "deck" and c.owner == link.controller and special_summon(ctx, c, link.controller, "attack"):
            ctx.emit("flag", card=c.id, name="cannot_attack_turn", value=s.turn)


register(
    by_name("Jurrac Guaiba").code,
    Script(effects=(Effect(kind="trigger", speed=1, trigger_on="destroyed", trigger_match=_match, choices=jurrac_choices, resolve=_resolve),)),
)
