"""Destiny HERO - Diamond Dude: "Once per turn: You can excavate the top card of your Deck, and
if it is a Normal Spell Card, send it to the Graveyard, otherwise place it on the bottom of your
Deck. During the Main Phase of your next turn, you can activate the effect of that Spell Card in
your Graveyard (even if you no longer control this face-up card)." (card text; the "Destiny
HERO" of Destiny Signal's scenarios, ruling GEN-1; seed 003.)

An Ignition effect. The excavated card is shown to both players (a ``note`` fact). A Normal
Spell sent to the Graveyard may be activated from there during its owner's next turn
(``ops.allow_activation_from_grave``, any card may use it): in that turn's Main Phase (Spell
Speed 1), and it stays there."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Note,
    Script,
    State,
    Zone,
    allow_activation_from_grave,
    by_name,
    move,
    register,
    send_to_grave,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[seat].deck)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    deck = s.players[link.controller].deck
    if not deck:
        return
    top = s.cards[deck[0]]
    ctx.emit(Note(what="excavated", card=top.id, code=top.code, seat=link.controller))
    if top.data.is_spell and top.data.prop == "normal":
        if send_to_grave(ctx, top, reason="effect") == Zone.GRAVEYARD:
            allow_activation_from_grave(ctx, top, s.turn + 2)
    else:
        move(ctx, top, "deck", top=False, reason="effect")


register(
    by_name("Destiny HERO - Diamond Dude").code,
    Script(effects=(Effect(kind="ignition", speed=1, condition=_condition, resolve=_resolve, once_per="turn"),)),
)
