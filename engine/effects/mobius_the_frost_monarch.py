"""Mobius the Frost Monarch: "When this card is Tribute Summoned: You can target up to 2
Spell/Trap Cards on the field; destroy those targets."

An optional trigger on its Tribute Summon (not a Special Summon, nor a Set), targeting 1 or 2
Spell/Trap Cards on either side of the field, face-up or face-down, as it is activated; those still
on the field are destroyed together (ruling CH-3). With none on the field it is not offered
(ruling GEN-4). A "When ... You can" trigger (ruling CH-12): a Tribute Summon is always the last
thing that happened when it activates."""

from __future__ import annotations

from itertools import combinations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    by_name,
    destroy_all,
    register,
    still_face_up,
)


def _tribute_summoned(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("how") == "tribute" and still_face_up(card)


def _spell_traps(s: State) -> list[int]:
    return [c.id for c in s.field_cards() if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD)]


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    cards = _spell_traps(s)
    return [[c] for c in cards] + [list(pair) for pair in combinations(cards, 2)]


def _destroy(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    still = [s.cards[t] for t in link.targets if s.cards[t].zone in (Zone.SPELLS_TRAPS, Zone.FIELD)]
    destroy_all(ctx, still, reason="effect", by=link.card)


register(
    by_name("Mobius the Frost Monarch").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.SUMMONED,
                trigger_match=_tribute_summoned,
                targets=_targets,
                resolve=_destroy,
                misses_timing=True,
                label="destroy up to 2 Spells/Traps",
            ),
        )
    ),
)
