"""Chthonian Blast (Normal Trap): "When a face-up monster you control is destroyed and sent to
the Graveyard: Destroy the 1 face-up monster on the field that has the lowest ATK (your choice,
if tied), and if you do, inflict damage to both players equal to half of that monster's ATK."

By ruling it may be activated in the Damage Step, at its end, when the monster destroyed by
battle is sent to the Graveyard (seed 003, TCG "Substep 7": "like Michizure and Chthonian
Blast"; ruling DS-9; the engine's ``left_field`` window). It does not target: the monster is
found as it resolves; on a tie for the lowest ATK its controller selects which one then (ruling
SEL-1, "your choice, if tied"). The damage is half the ATK the monster had on the field
(rounded down), to both players at once.

Outside the Damage Step the same window opens after a chain in which monsters left the field
(``chain.resolve_chain``), so monsters destroyed by card effects are answered too, unless the
turn player acts first."""

from __future__ import annotations

from typing import Any

from .api import (
    END_OF_DS,
    Answer,
    Card,
    Ctx,
    Effect,
    EventKind,
    LifePoints,
    Link,
    Script,
    State,
    Zone,
    ask_cards,
    atk,
    by_name,
    check_win,
    continuation,
    destroy,
    face_up_monsters,
    left_field,
    register,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    mine = any(
        e.get("destroyed") and e.get("face_up") and e.get("to") == Zone.GRAVEYARD and int(e["controller"]) == seat
        for e in left_field(s)
    )
    return mine and bool(face_up_monsters(s))


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    mons = face_up_monsters(s)
    if not mons:
        return
    low = min(atk(s, c) for c in mons)
    tied = [c.id for c in mons if atk(s, c) == low]
    ask_cards(
        ctx, link.controller, tied, "chthonian_blast.destroy", {"source": link.card, "atk": low}, source=link.card
    )


@continuation("chthonian_blast.destroy")
def _destroy(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    s = ctx.s
    if not isinstance(answer, list) or not answer:
        return
    victim = s.cards[answer[0]]
    half = int(d["atk"]) // 2
    destroy(ctx, victim, reason="effect", by=int(d["source"]))
    if victim.zone == Zone.MONSTERS or half <= 0:
        return
    for seat in (0, 1):
        lp = s.players[seat].lp
        ctx.emit(LifePoints(seat=seat, lp=max(0, lp - half), delta=-half, reason="effect"))
    check_win(ctx)


register(
    by_name("Chthonian Blast").code,
    Script(
        effects=(
            Effect(
                kind="trap",
                speed=2,
                event=EventKind.LEFT_FIELD,
                damage_step=END_OF_DS,
                condition=_condition,
                resolve=_resolve,
            ),
        )
    ),
)
