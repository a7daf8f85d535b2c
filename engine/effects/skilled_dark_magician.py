"""Skilled Dark Magician, its Goat wording: "Each time you or your opponent activates 1 Spell Card,
put 1 Spell Counter on this card (max. 3). Tribute this card with 3 Spell Counters on it to
Special Summon 1 "Dark Magician" from your hand, Deck, or Graveyard."

- While it is face-up on the field, each activation of a Spell Card by either player puts a
  Spell Counter on it, up to 3, as the Spell is activated (``watch``: rule bookkeeping, no chain);
  the Goat text counts the activation, so a Spell whose activation is then negated counts too
  (ruling CARD-26). The effect of a face-up Spell that is not its card's activation does not count
  (ruling CH-8).
- An Ignition effect (Spell Speed 1, ruling CH-1) whose cost Tributes it with 3 Spell Counters:
  a "Dark Magician" from its controller's hand, Deck or Graveyard is selected as it resolves
  (ruling SEL-1) and Special Summoned in the position they pick (SEL-3). With none that may be
  Special Summoned it cannot be activated (ruling GEN-4)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Answer,
    Card,
    Counter,
    Ctx,
    Effect,
    EventKind,
    GameEvent,
    Link,
    Script,
    State,
    Zone,
    activation_answered,
    ask_cards,
    by_name,
    continuation,
    free_monster_zone,
    register,
    send_to_grave,
    set_counters,
    still_face_up,
    summon_choosing_position,
    summonable,
)

MAX: Final = 3
DARK_MAGICIAN: Final = "Dark Magician"


def _watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    s = ctx.s
    if ev.get("kind") != EventKind.ACTIVATED or not still_face_up(card):
        return
    n = int(ev.get("link", 0))
    if not 1 <= n <= len(s.chain) or activation_answered(s, s.chain[n - 1]) != "spell":
        return
    count = card.counters.get(Counter.SPELL, 0)
    if count < MAX:
        set_counters(ctx, card, Counter.SPELL, count + 1)


def _dark_magicians(s: State, seat: int) -> list[int]:
    p = s.players[seat]
    found = [cid for cid in (*p.hand, *p.deck, *p.graveyard) if s.cards[cid].data.name == DARK_MAGICIAN]
    return summonable(s, seat, found)


def _condition(s: State, card: Card, seat: int) -> bool:
    return card.counters.get(Counter.SPELL, 0) >= MAX and bool(_dark_magicians(s, seat))


def _tribute_self(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    send_to_grave(ctx, card, reason="tribute")


def _resolve(ctx: Ctx, link: Link) -> None:
    seat = link.controller
    cands = _dark_magicians(ctx.s, seat) if free_monster_zone(ctx.s, seat) else []
    ask_cards(ctx, seat, cands, "skilled_dark_magician.summon", {"source": link.card}, source=link.card)


@continuation("skilled_dark_magician.summon")
def _summon(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone in (Zone.HAND, Zone.DECK, Zone.GRAVEYARD) and c.owner == seat:
            summon_choosing_position(ctx, cid, seat, source=int(d["source"]))


register(
    by_name("Skilled Dark Magician").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                condition=_condition,
                cost=_tribute_self,
                resolve=_resolve,
                label="Tribute: Special Summon Dark Magician",
            ),
        ),
        watch=_watch,
        watch_on=frozenset({EventKind.ACTIVATED}),
        spell_counters=MAX,
    ),
)
