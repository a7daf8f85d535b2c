"""Michizure (Normal Trap): "Activate only when a monster is sent from the field to your
Graveyard. Select and destroy 1 monster on the field. (You can activate this card during the
Damage Step.)"

By its own text and by seed 003 (TCG "Substep 7" gives it a specific allowance in the Damage
Step; ruling DS-9) it answers the monsters destroyed by battle and sent to the Graveyard at the
end of the Damage Step (the engine's ``left_field`` window): a monster of its owner's must have
gone to his or her Graveyard (not banished).

"Select and destroy 1 monster on the field" is the old wording of a target (the OCG text reads
"select" as targeting, and today's text says "Target 1 monster on the field; destroy that
target"): the monster is targeted at activation (ruling SEL-1); if it has left the field by
then, nothing is destroyed.

The same window opens after a chain in which monsters left the field (``chain.resolve_chain``),
after a Tribute Summon, and after a cost that sent a monster from the field (ruling LF-3):
Michizure may answer it, unless the turn player acts first."""

from __future__ import annotations

from .api import (
    END_OF_DS,
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    Zone,
    by_name,
    destroy,
    left_field,
    register,
    target_ok,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return any(e.get("to") == Zone.GRAVEYARD and int(e["owner"]) == seat for e in left_field(s))


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[c.id] for sd in (1 - seat, seat) for c in s.monsters(sd)]


def _resolve(ctx: Ctx, link: Link) -> None:
    for t in link.targets:
        if target_ok(ctx.s, t):
            destroy(ctx, ctx.s.cards[t], reason="effect", by=link.card)


register(
    by_name("Michizure").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                event=EventKind.LEFT_FIELD,
                damage_step=END_OF_DS,
                condition=_condition,
                targets=_targets,
                resolve=_resolve,
            ),
        )
    ),
)
