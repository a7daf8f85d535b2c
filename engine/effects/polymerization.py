"""Polymerization (Normal Spell): "Fusion Summon 1 Fusion Monster from your Extra Deck, using
monsters from your hand or your side of the field as Fusion Materials." (card text).

It can be activated while some Fusion Monster of the Extra Deck has its materials among the
monsters in the hand and on the player's side of the field (face-up or face-down): the monsters
named on the first line of its text ("Elemental HERO Avian" + "Elemental HERO Burstinatrix" for
Flame Wingman, "Elemental HERO Wildheart" + "Elemental HERO Bladedge" for Wildedge). It does not
target: the Fusion Monster and then each material are selected as it resolves (ruling SEL-1),
among what is there then; the materials are sent to the Graveyard and the Fusion Monster is
Special Summoned (a Fusion Summon) in the face-up position its controller picks (ruling SEL-3).
It counts as properly Summoned (ruling SUM-1: it may be revived later)."""

from __future__ import annotations

import re
from itertools import product
from typing import Any

from .api import (
    POSITIONS,
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Summoned,
    Zone,
    ask_cards,
    ask_option,
    by_name,
    can_summon,
    continuation,
    free_monster_zone,
    free_zones,
    mark_proper_summon,
    move,
    raise_event,
    register,
    send_to_grave,
)


def materials_of(fusion: Card) -> list[str]:
    first = fusion.data.text.split("\n", 1)[0]
    return re.findall(r'"([^"]+)"', first)


def _material_ok(s: State, c: Card, seat: int, name: str) -> bool:
    if c.data.name != name:
        return False
    if c.zone == Zone.HAND:
        return c.owner == seat
    return c.zone == Zone.MONSTERS and c.controller == seat


def _pool(s: State, seat: int, exclude: int) -> list[Card]:
    p = s.players[seat]
    return [s.cards[c] for c in p.hand if c != exclude] + s.monsters(seat)


def _possible(s: State, seat: int, fusion: Card, exclude: int) -> bool:
    """Some choice of materials for ``fusion`` is there now, and its Summon finds a zone."""
    if "fusion" not in fusion.data.monster_kinds or not can_summon(s, fusion, seat, "fusion"):
        return False
    names = materials_of(fusion)
    if not names:
        return False
    pool = _pool(s, seat, exclude)
    per_name = [[m.id for m in pool if _material_ok(s, m, seat, n)] for n in names]
    free = free_zones(s, seat)
    for combo in product(*per_name):
        if len(set(combo)) == len(combo) and (free > 0 or any(s.cards[m].zone == Zone.MONSTERS for m in combo)):
            return True
    return False


def _fusions(s: State, seat: int, exclude: int) -> list[int]:
    return [fid for fid in s.players[seat].extra if _possible(s, seat, s.cards[fid], exclude)]


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(_fusions(s, seat, card.id))


def _resolve(ctx: Ctx, link: Link) -> None:
    seat = link.controller
    ask_cards(
        ctx, seat, _fusions(ctx.s, seat, link.card), "polymerization.fusion", {"source": link.card}, source=link.card
    )


@continuation("polymerization.fusion")
def _fusion(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    if isinstance(answer, list) and answer:
        _next_material(ctx, seat, {"fusion": answer[0], "picked": [], "source": d["source"]})


def _next_material(ctx: Ctx, seat: int, d: dict[str, Any]) -> None:
    s = ctx.s
    fusion = s.cards[int(d["fusion"])]
    names = materials_of(fusion)
    picked = [int(x) for x in d["picked"]]
    if len(picked) == len(names):
        _fuse(ctx, seat, fusion, picked)
        return
    name = names[len(picked)]
    cands = [m.id for m in _pool(s, seat, int(d["source"])) if m.id not in picked and _material_ok(s, m, seat, name)]
    if not cands:
        return  # a material is gone: nothing is Fusion Summoned
    ask_cards(ctx, seat, cands, "polymerization.material", d, source=int(d["source"]))


@continuation("polymerization.material")
def _material(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    if isinstance(answer, list) and answer:
        _next_material(ctx, seat, {**d, "picked": [*d["picked"], answer[0]]})


def _fuse(ctx: Ctx, seat: int, fusion: Card, picked: list[int]) -> None:
    s = ctx.s
    if fusion.zone != Zone.EXTRA:
        return
    for m in picked:
        send_to_grave(ctx, s.cards[m], reason="fusion")
    if not free_monster_zone(s, seat) or not can_summon(s, fusion, seat, "fusion"):
        return
    ask_option(ctx, seat, list(POSITIONS), "polymerization.summon", {"fusion": fusion.id}, source=fusion.id)


@continuation("polymerization.summon")
def _summon(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    fusion = ctx.s.cards[int(d["fusion"])]
    if fusion.zone != Zone.EXTRA or not free_monster_zone(ctx.s, seat):
        return
    move(ctx, fusion, "monsters", controller=seat, position=str(answer), face_up=True)
    ctx.emit(Summoned(card=fusion.id, code=fusion.code, kind="fusion", seat=seat, layout=Summoned.SEAT_LAST))
    mark_proper_summon(ctx, fusion)
    raise_event(ctx, {"kind": "summoned", "card": fusion.id, "how": "fusion", "seat": seat})


register(
    by_name("Polymerization").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
