"""Small pieces card modules share: target lists, costs, negation, battle lookups."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ctx import Ctx
from ..ops import damage, destroy, send_to_grave
from ..state import Card, Link, State
from ..stats import can_summon, original, properly_summoned, unaffected
from ..types import other
from .base import Effect, effects_of


def face_up_monsters(s: State, seat: int | None = None) -> list[Card]:
    seats = (0, 1) if seat is None else (seat,)
    return [c for sd in seats for c in s.monsters(sd) if c.face_up]


def each(cards: list[Card]) -> list[list[int]]:
    """One single-target choice per card."""
    return [[c.id] for c in cards]


def target_ok(s: State, cid: int, zone: str = "monsters", face_up: bool | None = None) -> bool:
    """A target is still where it was chosen (ruling CH-3; seed 002, Example 4: otherwise no effect)."""
    c = s.cards[cid]
    if c.zone != zone:
        return False
    return face_up is None or c.face_up == face_up


def discard_options(s: State, card: Card, seat: int) -> list[list[int]]:
    return [[h] for h in s.players[seat].hand if h != card.id]


def discard_cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    for cid in data.get("cost", []):
        send_to_grave(ctx, ctx.s.cards[cid], reason="discard")


def send_self_cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    """Cost: send this card (from the hand) to the Graveyard."""
    send_to_grave(ctx, card, reason="cost")


def previous_link(s: State, card: Card) -> Link | None:
    """The chain link the card being activated now would respond to."""
    return s.chain[-1] if s.chain else None


def link_is_card_activation(s: State, link: Link, kind: str) -> bool:
    """The link is the activation of a Spell or Trap *card* (not an effect of a monster)."""
    c = s.cards[link.card]
    effs = effects_of(c)
    eff = effs[link.effect - 1] if 1 <= link.effect <= len(effs) else None
    return eff is not None and eff.kind == kind


def link_is_monster_effect(s: State, link: Link) -> bool:
    c = s.cards[link.card]
    return c.data.is_monster


def negate_previous(ctx: Ctx, link: Link, then_destroy: bool = True) -> None:
    """Negate the activation of the link this one answered, and if you do, destroy it."""
    s = ctx.s
    prev_n = int(link.data.get("answers", 0))  # 1-based number of the answered link
    if not 1 <= prev_n <= len(s.chain):
        return
    prev = s.chain[prev_n - 1]
    ctx.emit("negated", link=prev_n, what="activation", card=prev.card, code=s.cards[prev.card].code)
    c = s.cards[prev.card]
    if then_destroy and c.on_field:
        destroy(ctx, c, reason="effect", by=link.card)


def battling_opponent(s: State, card: Card) -> Card | None:
    """The opponent's monster ``card`` is battling, if it is in the current battle."""
    a = s.attack
    if a is None or a.target is None:
        return None
    if card.id == a.attacker:
        return s.cards[a.target]
    if card.id == a.target:
        return s.cards[a.attacker]
    return None


def in_battle(s: State, card: Card) -> bool:
    a = s.attack
    return a is not None and card.id in (a.attacker, a.target)


def my_battling_monster(s: State, seat: int) -> Card | None:
    a = s.attack
    if a is None:
        return None
    for cid in (a.attacker, a.target):
        if cid is not None and s.cards[cid].controller == seat and s.cards[cid].zone == "monsters":
            return s.cards[cid]
    return None


def gain(ctx: Ctx, card: Card, value: int, until: str, source: int, stat: str = "atk") -> None:
    src = ctx.s.cards.get(source)
    if src is not None and unaffected(ctx.s, card, src):
        return  # "unaffected by Trap effects" (Elemental HERO Wildheart)
    ctx.emit("modifier", card=card.id, stat=stat, op="add", value=value, until=until, source=source)


def opponent(seat: int) -> int:
    return other(seat)


def free_monster_zone(s: State, seat: int) -> bool:
    return None in s.players[seat].monsters


def deck_candidates(s: State, seat: int, pred: Callable[[Card], bool]) -> list[int]:
    """"... 1 ... from your Deck": one candidate per different card (by passcode) in ``seat``'s
    Deck that ``pred`` accepts, the copy nearest the top (copies are alike)."""
    seen: set[int] = set()
    out: list[int] = []
    for cid in s.players[seat].deck:
        c = s.cards[cid]
        if c.code not in seen and pred(c):
            seen.add(c.code)
            out.append(cid)
    return out


def hand_candidates(s: State, seat: int, pred: Callable[[Card], bool]) -> list[int]:
    return [cid for cid in s.players[seat].hand if pred(s.cards[cid])]


def mark_proper_summon(ctx: Ctx, c: Card) -> None:
    if not properly_summoned(ctx.s, c):
        ctx.emit("used", key=f"proper_summon:{c.id}")


def may_special_summon(s: State, c: Card, seat: int | None = None) -> bool:
    """Whether an effect (Monster Reborn, Time Machine) may Special Summon ``c`` (for ``seat``,
    default its owner): ``stats.can_summon`` with how="special" (rulings SUM-1, SUM-2)."""
    return c.data.is_monster and can_summon(s, c, c.owner if seat is None else seat, "special")


def tribute_cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    """Cost: Tribute the monsters chosen as ``cost``."""
    for cid in data.get("cost", []):
        send_to_grave(ctx, ctx.s.cards[cid], reason="tribute")


def take_control_until_end_phase(ctx: Ctx, link: Link) -> None:
    """Take control of each still-valid face-up target until the End Phase (Enemy Controller,
    Earthbound Immortal Uru); ``flow`` gives it back when the End Phase starts."""
    s = ctx.s
    for t in link.targets:
        c = s.cards[t]
        if target_ok(s, t, face_up=True) and c.controller != link.controller and None in s.players[link.controller].monsters:
            ctx.emit("moved", card=t, code=c.code, to="monsters", controller=link.controller, position=c.position, face_up=True, reason="control")
            ctx.emit("flag", card=t, name="return_to", value=c.owner)


def _destroyed_face_up(s: State, card: Card, ev: dict[str, Any]) -> bool:
    return ev.get("card") == card.id and bool(ev.get("face_up"))


def _burn_controller(ctx: Ctx, link: Link) -> None:
    ev = link.data.get("event", {})
    c = ctx.s.cards[link.card]
    damage(ctx, int(ev.get("controller", link.controller)), original(ctx.s, c, "atk"))


def burn_when_destroyed_face_up() -> Effect:
    """"If this face-up card is destroyed, inflict damage equal to its original ATK to its
    (current) controller" (Giant Kozaky, Zombie Mammoth)."""
    return Effect(kind="trigger", speed=1, trigger_on="destroyed", trigger_match=_destroyed_face_up, optional=False, resolve=_burn_controller)
