"""Call of the Haunted (Continuous Trap): "Activate this card by targeting 1 monster in your
Graveyard; Special Summon that target in Attack Position. When this card leaves the field,
destroy that target. When that target is destroyed, destroy this card." (card text).

- It targets a monster of its controller's Graveyard that may be Special Summoned (not a Fusion
  Monster never properly Summoned, ruling SUM-1), with a free Monster Zone (ruling GEN-4). As it
  resolves, if it is still on the field and the target still in the Graveyard, the target is
  Special Summoned in face-up Attack Position; if not, the card stays on the field with no
  monster.
- The two are linked while both are on the field (a flag on each): when this card leaves the
  field, that monster is destroyed; when that monster is destroyed, this card is destroyed. Both
  at once, without a chain (rule bookkeeping, ``Script.watch``). The monster leaving the field
  in another way (banished, returned) leaves this card on the field."""

from __future__ import annotations

from typing import Final

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    Flag,
    GameEvent,
    Link,
    Position,
    Script,
    State,
    Zone,
    by_name,
    destroy,
    free_monster_zone,
    may_special_summon,
    register,
    special_summon,
)

HAUNTED: Final = "haunted"  # on this card: the monster it Summoned
HAUNTED_BY: Final = "haunted_by"  # on that monster: this card


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    if not free_monster_zone(s, seat):
        return []
    cards = s.cards
    return [[cid] for cid in s.players[seat].graveyard if may_special_summon(s, cards[cid], seat)]


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    for t in link.targets:
        target = s.cards[t]
        if not me.on_field or target.zone != Zone.GRAVEYARD:
            continue
        if special_summon(ctx, target, link.controller, Position.ATTACK):
            ctx.emit(Flag(card=me.id, name=HAUNTED, value=target.id))
            ctx.emit(Flag(card=target.id, name=HAUNTED_BY, value=me.id))


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    s = ctx.s
    kind = ev.get("kind")
    if kind == EventKind.CARD_LEFT_FIELD and ev.get("card") == card.id:
        # this card left the field: its flags are gone, the monster still names it
        for sd in (0, 1):
            for m in s.monsters(sd):
                if m.flags.get(HAUNTED_BY) == card.id:
                    destroy(ctx, m, by=card.id)
    elif kind == EventKind.DESTROYED and card.on_field and ev.get("card") == card.flags.get(HAUNTED):
        destroy(ctx, card, by=card.id)


register(
    by_name("Call of the Haunted").code,
    Script(
        effects=(Effect(kind="trap", speed=2, targets=_targets, resolve=_resolve),),
        watch=_watch,
        watch_on=frozenset({EventKind.CARD_LEFT_FIELD, EventKind.DESTROYED}),
    ),
)
