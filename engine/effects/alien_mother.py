"""Alien Mother: "If this card destroys a monster with an A-Counter by battle and sends it to
the Graveyard, Special Summon the destroyed monster to your side of the field at the end of the
Battle Phase. When this card is removed from the field, all monsters that were Special Summoned
by this card's effect are destroyed."

- A-Counters (the rule printed on Alien Grey): a monster with A-Counters that battles an "Alien"
  monster loses 300 ATK and DEF per A-Counter during damage calculation only. ``families.a_counter_stat``
  is the continuous effect every "Alien" monster module applies as a face-up source.
- The monsters it destroys by battle that had an A-Counter at damage calculation and went to the
  Graveyard are recorded on it (rule bookkeeping in ``watch``: flags ``am_marked`` at damage
  calculation, ``am_victims`` when they are sent).
- "At the end of the Battle Phase" is the End Step (seed 003, TCG End Step, names Alien Mother):
  a mandatory trigger when the Battle Phase ends Special Summons them to its side, at the same
  time, each in the face-up position its controller picks (ruling SEL-3); they carry the
  ``alien_mother`` flag.
- When it leaves the field, whichever way (destroyed, banished, returned to the hand: the
  ``EventKind.CARD_LEFT_FIELD`` event ``ops.move`` raises; ruling LF-2, an effect tied to the card's stay on
  the field ends as it leaves), a mandatory trigger destroys them; with none of them on the field
  it does not activate, nor does the Summon with no free Monster Zone or nothing it may Special
  Summon (ruling GEN-4)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Counter,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    a_counter_stat,
    by_name,
    continuation,
    destroy,
    destroyed_by_this,
    free_monster_zone,
    register,
    still_face_up,
    summon_all_choosing_positions,
    summonable,
)


def _key(s: State) -> list[int]:
    return [s.turn, s.battle_phases]


def _ids(card: Card, name: str, key: list[int]) -> list[int]:
    rec = card.flags.get(name)
    return list(rec[2]) if isinstance(rec, list) and rec[:2] == key else []


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    s = ctx.s
    kind = ev.get("kind")
    if card.zone != Zone.MONSTERS:
        return
    key = _key(s)
    if kind == EventKind.AFTER_DAMAGE_CALCULATION:
        a = s.attack
        if a is None or card.id not in (a.attacker, a.target):
            return
        marked = [
            cid for cid in ev.get("destroyed", []) if cid != card.id and s.cards[cid].counters.get(Counter.A, 0) > 0
        ]
        if marked:
            ctx.emit(Flag(card=card.id, name="am_marked", value=[*key, _ids(card, "am_marked", key) + marked]))
    elif kind == EventKind.DESTROYED and destroyed_by_this(s, card, ev, to_grave=True):
        if ev.get("card") in _ids(card, "am_marked", key):
            ctx.emit(Flag(card=card.id, name="am_victims", value=[*key, [*_ids(card, "am_victims", key), ev["card"]]]))


def _victims(s: State, card: Card) -> list[Card]:
    return [s.cards[c] for c in _ids(card, "am_victims", _key(s)) if s.cards[c].zone == Zone.GRAVEYARD]


def _end_match(s: State, card: Card, ev: GameEvent) -> bool:
    return still_face_up(card) and bool(_victims(s, card))


def _can_summon(s: State, card: Card, seat: int) -> bool:
    return free_monster_zone(s, seat) and bool(summonable(s, seat, [v.id for v in _victims(s, card)]))


def _summon(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    victims = [v.id for v in _victims(s, me)]
    ctx.emit(Flag(card=me.id, name="am_victims", value=None))
    summon_all_choosing_positions(ctx, victims, link.controller, then="alien_mother.taken", data={"mother": me.id})


@continuation("alien_mother.taken")
def _taken(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        ctx.emit(Flag(card=cid, name="alien_mother", value=int(d["mother"])))


def _left_match(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def _has_taken(s: State, card: Card, seat: int) -> bool:
    return any(c.flags.get("alien_mother") == card.id for sd in (0, 1) for c in s.monsters(sd))


def _destroy_taken(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    for c in list(s.cards.values()):
        if c.zone == Zone.MONSTERS and c.flags.get("alien_mother") == link.card:
            destroy(ctx, c, reason="effect", by=link.card)


register(
    by_name("Alien Mother").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_PHASE_END,
                trigger_match=_end_match,
                optional=False,
                condition=_can_summon,
                resolve=_summon,
                label="Special Summon",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.CARD_LEFT_FIELD,
                trigger_match=_left_match,
                optional=False,
                condition=_has_taken,
                resolve=_destroy_taken,
                label="destroy",
            ),
        ),
        stat=a_counter_stat,
        watch=_watch,
        watch_on=frozenset({EventKind.AFTER_DAMAGE_CALCULATION, EventKind.DESTROYED}),
    ),
)
