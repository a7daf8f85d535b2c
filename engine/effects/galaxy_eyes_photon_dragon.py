"""Galaxy-Eyes Photon Dragon: "You can Special Summon this card (from your hand) by Tributing 2
monsters with 2000 or more ATK. During either player's Battle Step, when this card battles an
opponent's monster: You can target the monster this card is battling; banish both it and this
card. At the end of the Battle Phase, return any monsters banished by this effect to the field,
and if the other monster was an Xyz Monster, this card gains 500 ATK for each Xyz Material it
had when it was banished."

- The Special Summon is a procedure from the hand (``Script.procedure``): a Main Phase action
  that does not start a chain; the cost is the 2 Tributes.
- The banishing effect is a Quick Effect of the face-up card in the Battle Step (either
  player's), while it battles an opponent's monster; not in the Damage Step (it does not say so,
  rulings ES-1, DS-2; seed 003). The attack then ends (its attacker or target left the field).
- The banished monsters carry a ``gepd_return`` flag (turn, Battle Phase number, this card,
  side, position). "At the end of the Battle Phase" is the End Step (seed 003, TCG End Step,
  names Galaxy-Eyes Photon Dragon): when the Battle Phase ends they return to the field, face-up
  in the battle position they had, on the side they were banished from (rule bookkeeping in
  ``watch``, not a chain link; with no free zone a monster stays banished). An Xyz Monster's
  materials go to the Graveyard when it is banished; their count is remembered for the ATK gain
  (a lasting gain while this card stays on the field)."""

from __future__ import annotations

from itertools import combinations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Modifier,
    Moved,
    Phase,
    Script,
    State,
    Step,
    Zone,
    atk,
    banish,
    by_name,
    free_monster_zone,
    register,
    send_to_grave,
    still_face_up,
    target_ok,
)


def _procedure(s: State, card: Card, seat: int) -> list[list[int]]:
    if card.zone != Zone.HAND:
        return []
    strong = [m.id for m in s.monsters(seat) if m.face_up and atk(s, m) >= 2000]
    return [list(c) for c in combinations(strong, 2)]


def _procedure_cost(ctx: Ctx, card: Card, seat: int, cost: list[int]) -> None:
    for cid in cost:
        send_to_grave(ctx, ctx.s.cards[cid], reason="tribute")


def _opponent_battling(s: State, card: Card) -> Card | None:
    a = s.attack
    if a is None or a.target is None or a.replay:
        return None
    if card.id == a.attacker:
        other_id = a.target
    elif card.id == a.target:
        other_id = a.attacker
    else:
        return None
    o = s.cards[other_id]
    return o if o.zone == Zone.MONSTERS and o.controller != card.controller else None


def _condition(s: State, card: Card, seat: int) -> bool:
    return s.phase == Phase.BATTLE and s.step == Step.BATTLE and _opponent_battling(s, card) is not None


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    o = _opponent_battling(s, card)
    return [[o.id]] if o is not None else []


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    if not link.targets or not target_ok(s, link.targets[0]) or not still_face_up(me):
        return
    other = s.cards[link.targets[0]]
    mats = len(other.materials) if "xyz" in other.data.monster_kinds else 0
    for m in list(other.materials):
        send_to_grave(ctx, s.cards[m], reason="detach")
    key = [s.turn, s.battle_phases, me.id]
    records = [(other, other.controller, other.position), (me, me.controller, me.position)]
    for c, _side, _pos in records:
        banish(ctx, c)
    for c, side, pos in records:
        if c.zone == Zone.BANISHED:
            ctx.emit(Flag(card=c.id, name="gepd_return", value=[*key, side, pos]))
    if s.cards[me.id].zone == Zone.BANISHED:
        ctx.emit(Flag(card=me.id, name="gepd_materials", value=mats))


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    s = ctx.s
    if ev.get("kind") != EventKind.BATTLE_PHASE_END:
        return
    key = [s.turn, s.battle_phases, card.id]
    gain = int(card.flags.get("gepd_materials", 0) or 0)
    back = [c for c in s.cards.values() if c.zone == Zone.BANISHED and (c.flags.get("gepd_return") or [])[:3] == key]
    for c in sorted(back, key=lambda x: x.id != card.id):
        side, pos = c.flags["gepd_return"][3], c.flags["gepd_return"][4]
        ctx.emit(Flag(card=c.id, name="gepd_return", value=None))
        if free_monster_zone(s, side):
            ctx.emit(
                Moved(
                    card=c.id,
                    code=c.code,
                    to=Zone.MONSTERS,
                    controller=side,
                    position=pos,
                    face_up=True,
                    reason="return",
                    from_="banished",
                    layout=Moved.CODE_FIRST,
                )
            )
    if gain:
        ctx.emit(Flag(card=card.id, name="gepd_materials", value=None))
    if card.zone == Zone.MONSTERS and gain:
        ctx.emit(Modifier(card=card.id, stat="atk", op="add", value=500 * gain, until="permanent", source=card.id))


register(
    by_name("Galaxy-Eyes Photon Dragon").code,
    Script(
        effects=(
            Effect(
                kind="quick", speed=2, condition=_condition, targets=_targets, resolve=_resolve, label="banish both"
            ),
        ),
        procedure=_procedure,
        procedure_cost=_procedure_cost,
        watch=_watch,
        watch_on=frozenset({EventKind.BATTLE_PHASE_END}),
    ),
)
