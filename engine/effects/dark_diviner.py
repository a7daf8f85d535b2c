"""Dark Diviner: "This card cannot be destroyed by battle. When this card declares an attack, if
the ATK of the attack target is higher than this card: The ATK of the attack target becomes
equal to this face-up card's current ATK. This change lasts until the end of the Battle Phase.
When this card destroys an opponent's monster by battle and sends it to the Graveyard: Send the
top 3 cards of your opponent's Deck to the Graveyard."

- Indestructible by battle (continuous).
- The attack-declaration effect is a mandatory trigger; it does not activate on a face-down
  attack target, whose ATK cannot be compared (ruling DS-13; seed 003, OCG Substep 1); the
  change is a modifier with the duration ``end_of_battle_phase``: it lasts through the End Step
  (ruling ES-1; seed 003 names Dark Diviner among the effects of the End Step) and is gone when
  the Battle Phase is left.
- The mill is a mandatory trigger at the end of the Damage Step."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Modifier,
    Script,
    State,
    Zone,
    atk,
    by_name,
    destroyed_by_this,
    other,
    register,
    send_to_grave,
    shown_atk,
    still_face_up,
)


def _indestructible(s: State, src: Card, c: Card) -> bool:
    return c.id == src.id


def _declare_match(s: State, card: Card, ev: GameEvent) -> bool:
    t = ev.get("target")
    if ev.get("attacker") != card.id or t is None:
        return False
    shown = shown_atk(s, s.cards[t])
    return shown is not None and shown > atk(s, card)


def _equalize(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    t = link.data.get("event", {}).get("target")
    if t is None or not still_face_up(me):
        return
    target = s.cards[t]
    if target.zone != Zone.MONSTERS or target.controller == me.controller:
        return
    mine = atk(s, me)
    shown = shown_atk(s, target)
    if shown is not None and shown > mine:
        ctx.emit(Modifier(card=t, stat="atk", op="set", value=mine, until="end_of_battle_phase", source=me.id))


def _mill_match(s: State, card: Card, ev: GameEvent) -> bool:
    return destroyed_by_this(s, card, ev, to_grave=True)


def _mill(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    opp = other(link.controller)
    for cid in list(s.players[opp].deck[:3]):
        send_to_grave(ctx, s.cards[cid], reason="effect", by=link.card)


def _opponent_has_deck(s: State, card: Card, seat: int) -> bool:
    """The mill's condition: with the opponent's Deck empty it would send nothing, so it does not
    activate (ruling GEN-4)."""
    return bool(s.players[other(seat)].deck)


register(
    by_name("Dark Diviner").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.ATTACK_DECLARED,
                trigger_match=_declare_match,
                optional=False,
                resolve=_equalize,
                label="ATK becomes equal",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_mill_match,
                optional=False,
                condition=_opponent_has_deck,
                resolve=_mill,
                label="send 3 cards",
            ),
        ),
        battle_indestructible=_indestructible,
    ),
)
