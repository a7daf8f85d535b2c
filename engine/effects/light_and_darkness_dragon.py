"""Light and Darkness Dragon: "Cannot be Special Summoned. While face-up on the field, this
card is also DARK-Attribute. Once per Chain, during either player's turn, when a Spell Card,
Trap Card, or monster effect is activated: This card loses exactly 500 ATK and DEF and that
activation is negated. When this card is destroyed and sent to the Graveyard: Target 1 monster
in your Graveyard (if possible); destroy all cards you control, then, Special Summon that
target (if any)."

- The negation is compulsory (no "you can"): a mandatory trigger on the ``activated`` event
  that every activation raises (``engine.chain``), for the activation of a Spell or Trap Card
  or of a monster effect only (not an effect of a face-up Spell/Trap such as Spacegate's or
  Domino Effect's: ruling CH-8), once per chain: it does not trigger while it
  is already a link of the chain, nor when its ATK or DEF is below 500 ("exactly 500"). The
  500 ATK/DEF are lost when it activates (cost-like, as the card says "exactly").
- It negates activations, so it answers "during damage calculation" cards too (seed 003,
  TCG "Substep 4": "effects that negate them, such as Counter Trap Cards and the effects of
  cards like Herald of Orange Light and Light and Darkness Dragon").
- Also DARK while face-up (Hoshiningen and Star Boy-like effects see both Attributes).
- "Cannot be Special Summoned": ``Script.cannot_special_summon`` (``stats.can_summon``):
  Monster Reborn cannot target it.
- Destroyed and sent to the Graveyard: a mandatory trigger; its controller targets a monster
  in their Graveyard that may be Special Summoned (ruling SUM-1) as it activates (when there are
  several; none: it still destroys, if they control a card, else it does not activate: GEN-4), then
  everything they control is destroyed at the same time and the target is Special Summoned in
  the face-up position they pick (ruling SEL-3)."""

from __future__ import annotations

from typing import Any

from .api import (
    Card,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Modifier,
    Negated,
    Script,
    State,
    Zone,
    activation_answered,
    atk,
    by_name,
    def_,
    destroy_all,
    free_monster_zone,
    is_negated,
    may_special_summon,
    register,
    still_face_up,
    summon_choosing_position,
)


def _negate_match(s: State, card: Card, ev: GameEvent) -> bool:
    if not still_face_up(card) or is_negated(s, card):
        return False
    if ev.get("card") == card.id or any(link.card == card.id for link in s.chain):
        return False  # once per chain
    n = int(ev.get("link", 0))
    if not 1 <= n <= len(s.chain) or activation_answered(s, s.chain[n - 1]) is None:
        return False  # the effect of a face-up Spell/Trap, not a card's activation (ruling CH-8)
    if any(t.card == card.id and t.effect == 1 for t in s.triggers):
        return False
    return atk(s, card) >= 500 and def_(s, card) >= 500


def _lose(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    ev = data.get("event", {})
    data["answers"] = int(ev.get("link", 0))
    for st in ("atk", "def"):
        ctx.emit(Modifier(card=card.id, stat=st, op="add", value=-500, until="permanent", source=card.id))


def _negate(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    n = int(link.data.get("answers", 0))
    if 1 <= n <= len(s.chain):
        prev = s.chain[n - 1]
        ctx.emit(Negated(link=n, what="activation", card=prev.card, code=s.cards[prev.card].code))


def _sent_match(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and ev.get("to") == Zone.GRAVEYARD and card.zone == Zone.GRAVEYARD


def _grave_targets(s: State, card: Card, seat: int) -> list[list[int]]:
    grave = s.players[seat].graveyard
    mons = [c for c in reversed(grave) if c != card.id and may_special_summon(s, s.cards[c], seat)]
    return [[m] for m in mons] or [[]]


def _wipe_condition(s: State, card: Card, seat: int) -> bool:
    return bool(s.field_cards(seat)) or _grave_targets(s, card, seat) != [[]]


def _wipe(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    seat = link.controller
    destroy_all(ctx, list(s.field_cards(seat)), by=link.card)
    for t in link.targets:
        c = s.cards[t]
        if c.zone == Zone.GRAVEYARD and c.owner == seat and free_monster_zone(s, seat):
            summon_choosing_position(ctx, c.id, seat, source=link.card)


def _also_dark(s: State, card: Card) -> tuple[str, ...]:
    return ("DARK",)


register(
    by_name("Light and Darkness Dragon").code,
    Script(
        effects=(
            Effect(
                kind="trigger",
                speed=2,
                trigger_on=EventKind.ACTIVATED,
                trigger_match=_negate_match,
                optional=False,
                cost=_lose,
                resolve=_negate,
                negates=True,
                label="negate",
            ),
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.DESTROYED,
                trigger_match=_sent_match,
                optional=False,
                condition=_wipe_condition,
                targets=_grave_targets,
                resolve=_wipe,
                label="destroyed",
            ),
        ),
        attributes=_also_dark,
        cannot_special_summon=True,
    ),
)
