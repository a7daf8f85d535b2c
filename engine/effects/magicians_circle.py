"""Magician's Circle: "When a Spellcaster-Type monster declares an attack: Each player
Special Summons 1 Spellcaster-Type monster with 2000 or less ATK from their Deck in Attack
Position." It must answer the declaration at once (seed 002, Examples 3 and 4; ruling CH-4).

Each player picks their own monster as it resolves (rulings SEL-1, SEL-2): the turn player
first, then the other player, each among the eligible monsters of their own Deck (one with no
such monster or no free Monster Zone summons nothing); then both are Special Summoned at the
same time, in face-up Attack Position. It can be activated only while at least one player could
Special Summon such a monster (ruling GEN-4: otherwise it would do nothing)."""

from __future__ import annotations

from typing import Any

from .api import (
    Answer,
    Card,
    Ctx,
    Effect,
    EventKind,
    Link,
    Script,
    State,
    Zone,
    ask_cards,
    by_name,
    continuation,
    deck_candidates,
    free_monster_zone,
    other,
    register,
    special_summon,
    summonable,
)


def _condition(s: State, card: Card, seat: int) -> bool:
    a = s.attack
    if a is None or s.cards[a.attacker].data.type != "Spellcaster":
        return False
    return bool(_candidates(s, seat) or _candidates(s, other(seat)))


def _eligible(c: Card) -> bool:
    return c.data.is_monster and c.data.type == "Spellcaster" and 0 <= c.data.atk <= 2000 and not c.data.extra_deck


def _candidates(s: State, seat: int) -> list[int]:
    return summonable(s, seat, deck_candidates(s, seat, _eligible)) if free_monster_zone(s, seat) else []


def _ask(ctx: Ctx, seat: int, d: dict[str, Any]) -> None:
    s = ctx.s
    cands = _candidates(s, seat)
    ask_cards(ctx, seat, cands, "magicians_circle.pick", {**d, "seat": seat}, source=int(d["source"]))


def _resolve(ctx: Ctx, link: Link) -> None:
    _ask(ctx, ctx.s.turn_player, {"source": link.card, "picked": []})


@continuation("magicians_circle.pick")
def _pick(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    s = ctx.s
    picked = [*d["picked"], *[[seat, cid] for cid in (answer if isinstance(answer, list) else [])]]
    if seat == s.turn_player:
        _ask(ctx, other(seat), {**d, "picked": picked})
        return
    for owner, cid in picked:
        c = s.cards[int(cid)]
        if c.zone == Zone.DECK and c.owner == owner:
            special_summon(ctx, c, int(owner), "attack")


register(
    by_name("Magician's Circle").code,
    Script(
        effects=(Effect(kind="trap", speed=2, event=EventKind.ATTACK_DECLARED, condition=_condition, resolve=_resolve),)
    ),
)
