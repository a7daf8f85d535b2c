"""Prohibition (Continuous Spell): "Activate by declaring 1 card name. Cards with that name, and their
effects, cannot be used. Cards already on the field are not affected (including face-down cards)."
(card text; ruling GEN-1).

The name is declared as it is activated (a selection the text makes at activation:
``Effect.choices``, every card name the engine knows; ``{do: activate, card: ..., choose: [NAME]}``).
As it resolves the card keeps the name and the cards of that name then on the field, face-up or
face-down, either player's, which stay free (its ``prohibited`` and ``prohibition_free`` flags).
While it is face-up on the field (ruling CH-7) every other card of that name, wherever it is,
cannot be activated nor have its effects activated (``Script.locks``), cannot be Normal, Flip or
Special Summoned (``Script.cannot_summon``) nor Set (``Script.cannot_set``), and cannot declare an
attack. What "used" covers beyond that (a Tribute, a cost, a Fusion Material) the text does not
say and the engine does not forbid (ruling CARD-4)."""

from __future__ import annotations

from typing import Any, Final

from .api import Card, Ctx, Effect, Flag, Link, Script, State, by_name, card_names, register

NAME: Final = "prohibited"
FREE: Final = "prohibition_free"


def _names(s: State, card: Card, seat: int) -> list[list[Any]]:
    return [[name] for name in card_names()]


def _resolve(ctx: Ctx, link: Link) -> None:
    chosen = link.data.get("choose") or []
    if not chosen:
        return
    name = str(chosen[0])
    free = [c.id for c in ctx.s.field_cards() if c.data.name == name]
    ctx.emit(Flag(card=link.card, name=NAME, value=name))
    ctx.emit(Flag(card=link.card, name=FREE, value=free))


def _banned(src: Card, card: Card) -> bool:
    name = src.flags.get(NAME)
    return name is not None and card.data.name == name and card.id not in (src.flags.get(FREE) or ())


def _locks(s: State, src: Card, card: Card, seat: int) -> bool:
    return _banned(src, card)


def _cannot_summon(s: State, src: Card, monster: Card, seat: int, how: str) -> bool:
    return _banned(src, monster)


def _cannot_set(s: State, src: Card, card: Card, seat: int) -> bool:
    return _banned(src, card)


def _can_attack(s: State, src: Card, attacker: Card) -> bool:
    return not _banned(src, attacker)


register(
    by_name("Prohibition").code,
    Script(
        effects=(Effect(kind="spell", speed=1, choices=_names, resolve=_resolve),),
        locks=_locks,
        cannot_summon=_cannot_summon,
        cannot_set=_cannot_set,
        can_attack=_can_attack,
    ),
)
