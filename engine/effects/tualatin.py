"""Tualatin: "If you controlled 2 or more monsters at the start of your opponent's Battle Phase
and all of them were destroyed by battle and sent to the Graveyard, you can Special Summon this
card from your hand during that Battle Phase. If you do, choose an Attribute and destroy all
face-up monsters with that Attribute. Your opponent cannot Normal or Special Summon monsters
with that Attribute."

- The monsters its owner controls as the opponent's Battle Phase starts are recorded on the
  card in the hand (``watch``, flag ``tualatin``), and each of them destroyed by battle and
  sent to the Graveyard is ticked off.
- When the last of them is sent, at the end of the Damage Step, Tualatin may be Special
  Summoned from the hand: an optional trigger (seed 003, TCG "Substep 7": "Tualatin ... may be
  activated/chained at this time"). The Attribute is chosen at activation (``choose: LIGHT``).
- As it resolves Tualatin is Special Summoned (face-up Attack Position), then every face-up
  monster with that Attribute is destroyed (Tualatin too, if it has it). While Tualatin stays
  face-up on the field the opponent cannot Normal or Special Summon monsters with that
  Attribute (``cannot_summon``); Setting is not Summoning."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import destroy, special_summon
from ..state import Card, Link, State
from ..stats import attributes
from .base import Effect, Script, register
from .common import face_up_monsters

ATTRIBUTES = ("DARK", "DIVINE", "EARTH", "FIRE", "LIGHT", "WATER", "WIND")
WATCH = "tualatin"
CHOSEN = "tualatin_attribute"


def _watch(ctx: Ctx, card: Card, ev: dict[str, Any]) -> None:
    s = ctx.s
    if card.zone != "hand":
        return
    kind = ev.get("kind")
    if kind == "battle_phase_start" and ev.get("seat") != card.owner:
        mons = [c.id for c in s.monsters(card.owner)]
        ctx.emit("flag", card=card.id, name=WATCH, value={"turn": s.turn, "bp": s.battle_phases, "monsters": mons, "gone": []})
    elif kind == "destroyed" and ev.get("reason") == "battle" and ev.get("to") == "graveyard":
        rec = card.flags.get(WATCH)
        if rec and ev.get("card") in rec["monsters"] and ev.get("card") not in rec["gone"]:
            ctx.emit("flag", card=card.id, name=WATCH, value={**rec, "gone": [*rec["gone"], ev["card"]]})


def _match(s: State, card: Card, ev: dict[str, Any]) -> bool:
    rec = card.flags.get(WATCH)
    return (
        card.zone == "hand"
        and s.phase == "battle"
        and s.turn_player != card.owner
        and rec is not None
        and rec["turn"] == s.turn
        and rec["bp"] == s.battle_phases
        and len(rec["monsters"]) >= 2
        and ev.get("card") in rec["monsters"]
        and set(rec["monsters"]) <= set(rec["gone"])
    )


def _choices(s: State, card: Card, seat: int) -> list[list[Any]]:
    if None not in s.players[seat].monsters:
        return []
    return [[a] for a in ATTRIBUTES]


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    chosen = link.data.get("choose") or []
    if me.zone != "hand" or not chosen:
        return
    if not special_summon(ctx, me, link.controller, "attack"):
        return
    attr = str(chosen[0])
    ctx.emit("flag", card=me.id, name=CHOSEN, value=attr)
    for c in face_up_monsters(s):
        if attr in attributes(s, c):
            destroy(ctx, c, reason="effect", by=me.id)


def _cannot_summon(s: State, src: Card, monster: Card, seat: int, how: str) -> bool:
    attr = src.flags.get(CHOSEN)
    return attr is not None and seat != src.controller and monster.data.attribute == attr


register(
    by_name("Tualatin").code,
    Script(
        effects=(Effect(kind="trigger", speed=1, trigger_on="destroyed", trigger_match=_match, choices=_choices, resolve=_resolve),),
        watch=_watch,
        cannot_summon=_cannot_summon,
    ),
)
