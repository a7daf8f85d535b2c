"""Reasoning (Normal Spell), its Goat text: "Your opponent declares a monster Level. Then pick up
cards from the top of your Deck until a monster that can be Normal Summoned is picked up. If
that monster is the same Level as the one declared by your opponent, send all picked up cards to
the Graveyard. If not, Special Summon the picked up monster and send the remaining cards to the
Graveyard."

- It needs a monster that can be Normal Summoned in its controller's Deck and a free Monster Zone
  (ruling GEN-4).
- As it resolves, the opponent declares a Level, 1 to 12 (a selection made at resolution, ruling
  SEL-1: ``{B: choose, option: "4"}``); then the cards are picked up from the top of the Deck
  down to the first monster that can be Normal Summoned, each shown to both players (ruling
  CARD-31). The same Level: all of them go to the Graveyard. Another Level: the others go to the
  Graveyard and the monster is Special Summoned face-up in the position its controller picks
  (SEL-3; to the Graveyard if it cannot be Special Summoned)."""

from __future__ import annotations

from typing import Any, Final

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    ask_option,
    by_name,
    continuation,
    excavate,
    excavation,
    free_monster_zone,
    may_special_summon,
    other,
    register,
    send_all_to_grave,
    summon_choosing_position,
)

LEVELS: Final = [str(n) for n in range(1, 13)]


def _condition(s: State, card: Card, seat: int) -> bool:
    return free_monster_zone(s, seat) and excavation(s, seat)[1] is not None


def _resolve(ctx: Ctx, link: Link) -> None:
    d = {"source": link.card, "seat": link.controller}
    ask_option(ctx, other(link.controller), LEVELS, "reasoning.level", d, source=link.card)


@continuation("reasoning.level")
def _declared(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    s = ctx.s
    me = int(d["seat"])
    cards, monster = excavate(ctx, me)
    level = int(str(answer))
    m = s.cards[monster] if monster is not None else None
    if m is None or m.data.level == level or not (may_special_summon(s, m, me) and free_monster_zone(s, me)):
        send_all_to_grave(ctx, [s.cards[cid] for cid in cards], reason="effect")
        return
    send_all_to_grave(ctx, [s.cards[cid] for cid in cards if cid != m.id], reason="effect")
    summon_choosing_position(ctx, m.id, me, source=int(d["source"]))


register(
    by_name("Reasoning").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
