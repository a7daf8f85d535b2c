"""Monster Reborn (Normal Spell): "Target 1 monster in either player's Graveyard; Special Summon
it." (card text). The player chooses the battle position at activation (``choose: attack`` or
``choose: defense``; face-up). A monster that must be properly Summoned first (a Fusion Monster,
Fenrir) can be revived only if it was (``common.may_special_summon``): the script watches
monsters of that kind leaving the field, which they can only have reached properly."""

from __future__ import annotations

from typing import Any

from ..cards import by_name
from ..ctx import Ctx
from ..ops import special_summon
from ..state import Card, Link, State
from .base import Effect, Script, register
from .common import free_monster_zone, may_special_summon, watch_proper_summons


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    if not free_monster_zone(s, seat):
        return []
    out: list[list[int]] = []
    for sd in (seat, 1 - seat):
        for cid in s.players[sd].graveyard:
            c = s.cards[cid]
            if c.data.is_monster and may_special_summon(s, c):
                out.append([cid])
    return out


def _choices(s: State, card: Card, seat: int) -> list[list[Any]]:
    return [["attack"], ["defense"]]


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    position = str((link.data.get("choose") or ["attack"])[0])
    for t in link.targets:
        c = s.cards[t]
        if c.zone == "graveyard" and may_special_summon(s, c):
            special_summon(ctx, c, link.controller, position)


register(
    by_name("Monster Reborn").code,
    Script(
        effects=(Effect(kind="spell", speed=1, targets=_targets, choices=_choices, resolve=_resolve),),
        watch=watch_proper_summons,
    ),
)
