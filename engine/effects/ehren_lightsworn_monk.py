"""Ehren, Lightsworn Monk: "If this card attacks a Defense Position monster, before damage
calculation: Shuffle that monster into the Deck. During each of your End Phases: Send the top
3 cards of your Deck to the Graveyard."

- The first is a mandatory trigger at "before damage calculation", after a face-down target
  has been flipped; with the target gone, damage calculation is skipped (ruling DS-4; seed 003, TCG
  "Substep 3": "Drillroid and Ehren, Lightsworn Monk ... without applying damage
  calculation").
- The second is a mandatory trigger at the start of each of its controller's End Phases; with
  an empty Deck it would send nothing, so it does not activate (ruling GEN-4).
The deck is shuffled with the duel's own PRNG (``ops.shuffle_deck``)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Phase,
    Position,
    Script,
    State,
    Zone,
    by_name,
    move,
    register,
    send_to_grave,
    shuffle_deck,
    still_face_up,
    target_ok,
)


def _attack_match(s: State, card: Card, ev: GameEvent) -> bool:
    t = ev.get("target")
    if ev.get("attacker") != card.id or t is None or not still_face_up(card):
        return False
    target = s.cards[t]
    return target.zone == Zone.MONSTERS and target.position == Position.DEFENSE


def _shuffle_in(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    t = link.data.get("event", {}).get("target")
    if t is None or not target_ok(s, int(t)):
        return
    c = s.cards[int(t)]
    owner = c.owner
    if c.data.extra_deck:
        move(ctx, c, "extra", reason="effect", face_up=False)  # a Fusion Monster goes back to the Extra Deck
        return
    move(ctx, c, "deck", reason="effect", face_up=False)
    shuffle_deck(ctx, owner)


def _end_match(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("phase") == Phase.END and ev.get("seat") == card.controller and still_face_up(card)


def _has_deck(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[seat].deck)


def _mill(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    for cid in list(s.players[link.controller].deck[:3]):
        send_to_grave(ctx, s.cards[cid], reason="effect")


register(
    by_name("Ehren, Lightsworn Monk").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BEFORE_DAMAGE_CALCULATION,
                trigger_match=_attack_match,
                optional=False,
                resolve=_shuffle_in,
                label="shuffle",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.PHASE_START,
                trigger_match=_end_match,
                optional=False,
                condition=_has_deck,
                resolve=_mill,
                label="mill",
            ),
        )
    ),
)
