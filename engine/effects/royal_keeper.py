"""Royal Keeper: "Once per turn, you can flip this card into face-down Defense Position. When
this card is flipped face-up, it gains 300 ATK and DEF until the end of the turn. (If
attacked, this effect resolves after damage calculation.)"

- Flip face-down: an Ignition effect, once per turn, in its controller's Main Phase.
- Flipped face-up: a mandatory trigger. When it is flipped by an attack, the trigger waits
  until after damage calculation, so the gain does not count in that battle (ruling DS-3; seed 003, TCG
  "Substep 2": flip-triggered effects do not activate when the attacked monster is flipped;
  "Substep 6": "If the flipped monster had a Trigger Effect that activates when the monster
  is flipped face-up (Royal Keeper, Nightmare Penguin, etc.), it will be activated at this
  time")."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Position,
    PositionChanged,
    Script,
    State,
    by_name,
    gain,
    register,
    still_face_up,
    turned_face_down,
)


def _flip_down(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        ctx.emit(PositionChanged(card=c.id, position=Position.DEFENSE, face_up=False, by_player=False))
        turned_face_down(ctx, c)  # its Equip Cards are destroyed (ruling EQ-2)


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and still_face_up(card)


def _gain(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        gain(ctx, c, 300, "turn", c.id, stat="atk")
        gain(ctx, c, 300, "turn", c.id, stat="def")


register(
    by_name("Royal Keeper").code,
    Script(
        effects=(
            Effect(kind="ignition", speed=1, once_per="turn", resolve=_flip_down, label="flip face-down"),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.FLIPPED,
                trigger_match=_flipped,
                optional=False,
                resolve=_gain,
                label="flipped",
            ),
        )
    ),
)
