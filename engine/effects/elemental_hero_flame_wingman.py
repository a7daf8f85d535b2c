"""Elemental HERO Flame Wingman (Fusion): ""Elemental HERO Avian" + "Elemental HERO Burstinatrix".
Must be Fusion Summoned and cannot be Special Summoned by other ways. When this card destroys a
monster by battle and sends it to the Graveyard: Inflict damage to your opponent equal to the
ATK of the destroyed monster." (seed 003, TCG "Substep 7": it activates at the end of the
Damage Step, when the destroyed monster is sent to the Graveyard).

A mandatory trigger. Flame Wingman must still be on the field then (not destroyed in the same
battle), and the monster must really go to the Graveyard (not banished by Macro Cosmos). The
damage is the destroyed monster's ATK as it is in the Graveyard (its printed ATK). Its Fusion
Summon is Polymerization's; "must be Fusion Summoned" is ``stats.needs_proper_summon`` (ruling SUM-1)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    atk,
    by_name,
    damage,
    destroyed_by_this,
    other,
    register,
)


def _match(s: State, card: Card, ev: GameEvent) -> bool:
    return destroyed_by_this(s, card, ev, to_grave=True)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    ev = link.data.get("event", {})
    victim = s.cards.get(int(ev.get("card", -1)))
    if victim is None:
        return
    damage(ctx, other(link.controller), atk(s, victim), reason="effect")


register(
    by_name("Elemental HERO Flame Wingman").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                optional=False,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_match,
                resolve=_resolve,
            ),
        )
    ),
)
