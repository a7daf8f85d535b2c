"""Ojama King (Fusion Monster): ""Ojama Green" + "Ojama Yellow" + "Ojama Black" / Select up to 3 of
your opponent's Monster Card Zones. The selected zones cannot be used." (card text).

- Each time it becomes face-up on the field (Summoned face-up, flipped), up to 3 of the
  opponent's unused Monster Zones are selected, without a chain (rule bookkeeping,
  ``Script.watch``): as many as there are, up to 3 (the reading of the card's Goat-era script,
  ruling CARD-32). No card of the pool reads which zone a monster is in, so the engine selects the
  first ones; what matters is that they cannot be used.
- While it is face-up on the field with its effects not negated, those zones cannot be used
  (``Script.locks_zones``): a monster is put only in another free zone, and an effect that needs a
  free zone of the opponent's (a Summon, a control change back to them) finds fewer. Once it
  leaves the field or is turned face-down, they may be used again.
- Metamorphosis (Level 6) and Cyber-Stein may Special Summon it (ruling SUM-31)."""

from __future__ import annotations

from typing import Final

from .api import Card, Ctx, EventKind, Flag, GameEvent, Script, State, Zone, by_name, other, register

MOST: Final = 3
LOCKED: Final = "locked_zones"


def _locks(s: State, src: Card, seat: int) -> tuple[int, ...]:
    if seat != other(src.controller):
        return ()
    return tuple(int(z) for z in src.flags.get(LOCKED, ()))


def _face_up(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    if ev.get("kind") not in (EventKind.SUMMONED, EventKind.FLIPPED) or ev.get("card") != card.id:
        return
    if card.zone != Zone.MONSTERS or not card.face_up:
        return
    zones = ctx.s.players[other(card.controller)].monsters
    unused = [i for i, c in enumerate(zones) if c is None][:MOST]
    ctx.emit(Flag(card=card.id, name=LOCKED, value=unused))


register(
    by_name("Ojama King").code,
    Script(
        locks_zones=_locks,
        watch=_face_up,
        watch_on=frozenset({EventKind.SUMMONED, EventKind.FLIPPED}),
    ),
)
