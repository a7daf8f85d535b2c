"""Spacegate (Continuous Trap): "Each time a monster your opponent controls attacks or is
attacked, place 1 Gate Counter on this card at the end of the Damage Step. During your Main
Phase: You can send this card to the Graveyard; Special Summon 1 monster from your hand whose
Level is less than or equal to the number of Gate Counters on this card."

- The counter is rule bookkeeping (``watch``), placed at the end of the Damage Step (seed 003,
  TCG "Substep 7": "If Spacegate is active, 1 Gate Counter is placed upon it if the opponent's
  monster attacked or was attacked"): in the opponent's turn every attack that reaches the
  Damage Step counts (their monster attacks); in its controller's turn, an attack on an
  opponent's monster (not a direct attack). No Damage Step (the attack was negated), no
  counter.
- The Special Summon: a Spell Speed 2 effect of the face-up card, in its controller's Main
  Phase, while the hand holds a monster whose Level is at most its counters and that may be
  Special Summoned (ruling GEN-4); the cost sends it
  to the Graveyard (the number of counters it had is remembered); the monster does not target
  and is selected in the hand as the effect resolves (ruling SEL-1), then Summoned in the
  face-up position its controller picks (ruling SEL-3)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    MAIN_PHASES,
    Card,
    Counter,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    by_name,
    free_monster_zone,
    is_negated,
    register,
    send_to_grave,
    set_counters,
    summon_one_of,
    summonable,
)

GATE: Final = Counter.GATE


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    s = ctx.s
    if ev.get("kind") != EventKind.DAMAGE_STEP_END or card.zone != Zone.SPELLS_TRAPS or not card.face_up:
        return
    if is_negated(s, card):
        return
    opponents_attack = s.turn_player != card.controller
    opponents_monster_attacked = s.turn_player == card.controller and ev.get("target") is not None
    if opponents_attack or opponents_monster_attacked:
        set_counters(ctx, card, GATE, card.counters.get(GATE, 0) + 1)


def _summonable(s: State, seat: int, n: int) -> list[int]:
    out: list[int] = []
    for cid in s.players[seat].hand:
        d = s.cards[cid].data
        if d.is_monster and not d.extra_deck and "special-summon" not in d.monster_kinds and 1 <= d.level <= n:
            out.append(cid)
    return out


def _condition(s: State, card: Card, seat: int) -> bool:
    """Its controller's Main Phase, a free Monster Zone and a monster in the hand it may Special
    Summon (ruling GEN-4: sending Spacegate as the cost frees no Monster Zone)."""
    in_main = s.turn_player == seat and s.phase in MAIN_PHASES
    if not in_main or not free_monster_zone(s, seat):
        return False
    return bool(summonable(s, seat, _summonable(s, seat, card.counters.get(GATE, 0))))


def _cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    data["counters"] = card.counters.get(GATE, 0)
    send_to_grave(ctx, card, reason="cost")


def _resolve(ctx: Ctx, link: Link) -> None:
    summon_one_of(ctx, link, _summonable(ctx.s, link.controller, int(link.data.get("counters", 0))))


register(
    by_name("Spacegate").code,
    Script(
        effects=(
            Effect(kind="trap", speed=2, label="activate"),
            Effect(kind="quick", speed=2, condition=_condition, cost=_cost, resolve=_resolve, label="Special Summon"),
        ),
        watch=_watch,
        watch_on=frozenset({EventKind.DAMAGE_STEP_END}),
    ),
)
