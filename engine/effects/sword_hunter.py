"""Sword Hunter: "At the end of the Battle Phase, if this card destroyed a monster(s) by battle
and sent it to the Graveyard this Battle Phase: Equip all those monsters from the Graveyard to
this card as an Equip Spell Card(s) with this effect.
● The equipped monster gains 200 ATK."

- The monsters it destroys by battle and sends to the Graveyard are recorded on it (flag
  ``hunted``: turn, Battle Phase number, card ids) by rule bookkeeping (``watch``).
- "At the end of the Battle Phase" is the End Step (ruling ES-1; seed 003, TCG End Step, names Sword Hunter):
  a mandatory trigger when the Battle Phase ends. Those monsters still in the Graveyard become
  face-up Equip Spell Cards in its controller's Spell & Trap Zones (as many as there is room
  for), each giving 200 ATK (``ops.equip(..., atk=200)``, read by ``stats.stat``); with no free
  Spell & Trap Zone it would equip nothing, so it does not activate (ruling GEN-4)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Moved,
    Script,
    State,
    Zone,
    by_name,
    destroyed_by_this,
    equip,
    register,
    still_face_up,
)


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    s = ctx.s
    if ev.get("kind") != EventKind.DESTROYED or not destroyed_by_this(s, card, ev, to_grave=True):
        return
    key = [s.turn, s.battle_phases]
    rec = card.flags.get("hunted")
    ids = list(rec[2]) if isinstance(rec, list) and rec[:2] == key else []
    ctx.emit(Flag(card=card.id, name="hunted", value=[*key, [*ids, ev["card"]]]))


def _victims(s: State, card: Card) -> list[Card]:
    rec = card.flags.get("hunted")
    if not isinstance(rec, list) or rec[:2] != [s.turn, s.battle_phases]:
        return []
    return [s.cards[c] for c in rec[2] if s.cards[c].zone == Zone.GRAVEYARD]


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return still_face_up(card) and bool(_victims(s, card))


def _zone_free(s: State, card: Card, seat: int) -> bool:
    return None in s.players[seat].spells_traps


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    if not still_face_up(me):
        return
    for v in _victims(s, me):
        if None not in s.players[me.controller].spells_traps:
            break
        ctx.emit(
            Moved(
                card=v.id,
                code=v.code,
                to=Zone.SPELLS_TRAPS,
                controller=me.controller,
                face_up=True,
                reason="equip",
                from_=v.zone,
                layout=Moved.CODE_FIRST,
            )
        )
        equip(ctx, v, me, atk=200)
    ctx.emit(Flag(card=me.id, name="hunted", value=None))


register(
    by_name("Sword Hunter").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_PHASE_END,
                trigger_match=_match,
                optional=False,
                condition=_zone_free,
                resolve=_resolve,
            ),
        ),
        watch=_watch,
        watch_on=frozenset({EventKind.DESTROYED}),
    ),
)
