"""Polymerization (Normal Spell): "Fusion Summon 1 Fusion Monster from your Extra Deck, using
monsters from your hand or your side of the field as Fusion Materials." (card text).

The Fusion Monster and its materials are chosen at activation (``choose: [fusion, material,
material]``; not a target): the materials are the monsters named on the first line of the
Fusion Monster's text ("Elemental HERO Avian" + "Elemental HERO Burstinatrix" for Flame Wingman,
"Elemental HERO Wildheart" + "Elemental HERO Bladedge" for Wildedge), from the hand or the
player's monster zones (face-up or face-down). On resolution, if all are still there, the
materials are sent to the Graveyard and the Fusion Monster is Special Summoned (a Fusion
Summon) in face-up Attack Position; it counts as properly Summoned (Monster Reborn may revive
it later)."""

from __future__ import annotations

import re
from itertools import product

from ..cards import by_name
from ..ctx import Ctx
from ..ops import move, raise_event, send_to_grave
from ..state import Card, Link, State
from ..stats import can_summon
from .base import Effect, Script, register
from .common import mark_proper_summon


def materials_of(fusion: Card) -> list[str]:
    first = fusion.data.text.split("\n", 1)[0]
    return re.findall(r'"([^"]+)"', first)


def _material_ok(s: State, c: Card, seat: int, name: str) -> bool:
    if c.data.name != name:
        return False
    if c.zone == "hand":
        return c.owner == seat
    return c.zone == "monsters" and c.controller == seat


def _choices(s: State, card: Card, seat: int) -> list[list[int]]:
    p = s.players[seat]
    pool = [s.cards[c] for c in p.hand if c != card.id] + s.monsters(seat)
    free = p.monsters.count(None)
    out: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for fid in p.extra:
        fusion = s.cards[fid]
        if "fusion" not in fusion.data.monster_kinds or not can_summon(s, fusion, seat, "special"):
            continue
        names = materials_of(fusion)
        if not names:
            continue
        per_name = [[m.id for m in pool if _material_ok(s, m, seat, n)] for n in names]
        for combo in product(*per_name):
            if len(set(combo)) != len(combo):
                continue
            key = (fusion.code, *sorted(combo))
            if key in seen:
                continue
            on_field = sum(1 for m in combo if s.cards[m].zone == "monsters")
            if free == 0 and on_field == 0:
                continue
            seen.add(key)
            out.append([fid, *combo])
    return out


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    seat = link.controller
    chosen = [int(x) for x in link.data.get("choose", [])]
    if not chosen:
        return
    fusion = s.cards[chosen[0]]
    mats = [s.cards[m] for m in chosen[1:]]
    names = materials_of(fusion)
    if fusion.zone != "extra" or len(mats) != len(names):
        return
    if not all(_material_ok(s, m, seat, n) for m, n in zip(mats, names, strict=True)):
        return
    for m in mats:
        send_to_grave(ctx, m, reason="fusion")
    if None not in s.players[seat].monsters or not can_summon(s, fusion, seat, "special"):
        return
    move(ctx, fusion, "monsters", controller=seat, position="attack", face_up=True)
    ctx.emit("summoned", card=fusion.id, code=fusion.code, kind="fusion", seat=seat)
    mark_proper_summon(ctx, fusion)
    raise_event(ctx, {"kind": "summoned", "card": fusion.id, "how": "fusion", "seat": seat})


register(
    by_name("Polymerization").code,
    Script(effects=(Effect(kind="spell", speed=1, choices=_choices, resolve=_resolve),)),
)
