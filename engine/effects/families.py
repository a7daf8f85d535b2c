"""Card families: the rules a family of cards shares, each written once (part of the card API,
``engine.effects.api``): A-Counters of the "Alien" monsters, "Jurrac" and "Gladiator Beast" tag-outs,
the Goat-era "destroy this card when it is targeted" (Spirit Reaper, Reaper on the Nightmare;
ruling CARD-27), Spirit monsters' return to the hand, the recruiters (Giant Rat, Mystic Tomato),
and the FLIP monsters that add a card from the Graveyard (Magician of Faith, Mask of Darkness).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from ..counters import Counter
from ..ctx import Ctx
from ..events import GameEvent
from ..facts import Flag
from ..ops import destroy, move, shuffle_deck, special_summon, to_hand
from ..state import Card, Link, State
from ..stats import is_negated
from ..types import CardFlag, EventKind, Phase, Position, Step, Timing, Zone, other
from .base import Effect, Script
from .choices import (
    Answer,
    ask_cards,
    can_summon_from_deck,
    continuation,
    deck_candidates,
    free_monster_zone,
    summon_one_of,
    summonable,
)
from .common import discard_at_random, grave_targets, inflicted_battle_damage, return_target_to_hand, still_face_up

TARGETED_DOOMED: Final = "reaper_targeted"  # a card's flag: targeted, to be destroyed when it may be


_DOOM_WAITS: Final[frozenset[Timing]] = frozenset({Timing.START, Timing.BEFORE_CALC, Timing.DURING_CALC})


def destroy_when_targeted(ctx: Ctx, card: Card, link: Link) -> None:
    """``Script.after_targeted`` of the Goat-era "Destroy this card when it is targeted by the
    effect of a Spell, Trap or Effect Monster" (Spirit Reaper, Reaper on the Nightmare; ruling
    CARD-27): once the link that targeted it has resolved, if it is a face-up monster whose effects
    apply, it is destroyed at once; targeted by an Equip Spell Card, or in the Damage Step before
    damage calculation, it is flagged and destroys itself when it may (``targeted_doomed``, its
    ``Script.self_destroy``)."""
    s = ctx.s
    if not still_face_up(card) or is_negated(s, card):
        return
    by_equip = s.cards[link.card].data.prop == "equip"
    if by_equip or (s.step == Step.DAMAGE and s.damage_step in _DOOM_WAITS):
        ctx.emit(Flag(card=card.id, name=TARGETED_DOOMED, value=True))
    else:
        destroy(ctx, card, reason="effect", by=card.id)


def targeted_doomed(s: State, card: Card) -> bool:
    """The ``Script.self_destroy`` that goes with ``destroy_when_targeted``."""
    return bool(card.flags.get(TARGETED_DOOMED))


def is_alien(c: Card) -> bool:
    return c.data.is_monster and "Alien" in c.data.name


def a_counter_stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    """A-Counters (the rule printed on Alien Grey), the ``Script.stat`` of every "Alien" monster:
    a monster with A-Counters battling the "Alien" monster ``src`` loses 300 ATK/DEF each, during
    damage calculation only."""
    n = c.counters.get(Counter.A, 0)
    a = s.attack
    if not n or a is None or s.damage_step != Timing.DURING_CALC or not is_alien(src):
        return (0, 0)
    if {c.id, src.id} != {a.attacker, a.target}:
        return (0, 0)
    return (-300 * n, -300 * n)


def is_small_jurrac(c: Card) -> bool:
    """A "Jurrac" monster with 1700 or less ATK (Jurrac Guaiba, Jurrac Velo)."""
    return c.data.is_monster and "Jurrac" in c.data.name and 0 <= c.data.atk <= 1700


def is_gladiator_monster(c: Card) -> bool:
    return c.data.is_monster and c.data.name.startswith("Gladiator Beast")


def summoned_by_gladiator(s: State, card: Card, ev: GameEvent) -> bool:
    """``ev`` is the Special Summon of ``card`` by the effect of a "Gladiator Beast" monster (the
    top chain link)."""
    if ev.get("card") != card.id or ev.get("how") != "special" or not s.chain:
        return False
    return is_gladiator_monster(s.cards[s.chain[-1].card])


def _battled(s: State, card: Card, ev: GameEvent) -> bool:
    return still_face_up(card) and card.flags.get(CardFlag.BATTLED) == [s.turn, s.battle_phases]


def _tag_candidates(s: State, seat: int, name: str) -> list[int]:
    return deck_candidates(s, seat, lambda c: is_gladiator_monster(c) and c.data.name != name)


def _tag_condition(s: State, card: Card, seat: int) -> bool:
    return bool(summonable(s, seat, _tag_candidates(s, seat, card.data.name)))


def _shuffle_in(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
    move(ctx, card, "deck", reason="cost")
    shuffle_deck(ctx, card.owner)


def _tag_resolve(ctx: Ctx, link: Link) -> None:
    name = ctx.s.cards[link.card].data.name
    summon_one_of(ctx, link, _tag_candidates(ctx.s, link.controller, name))


def tag_out() -> Effect:
    """ "At the end of the Battle Phase, if this card attacked or was attacked: You can shuffle
    it into the Deck; Special Summon 1 "Gladiator Beast" monster from your Deck, except <its
    name>" (Bestiari, Laquari). The End Step (ruling ES-1; seed 003, TCG End Step: "The effects
    of Gladiator Beast monsters also take place during the End Step"): an optional trigger when
    the Battle Phase ends, if the monster declared an attack or was chosen as an attack target in
    this Battle Phase (its ``battled`` flag), while another "Gladiator Beast" monster is in the
    Deck. Its cost shuffles it into the Deck; the monster is selected in the Deck as the effect
    resolves (ruling SEL-1) and Summoned in the face-up position its controller picks (SEL-3).
    With several such monsters, their controller chooses which one goes first (CH-5, ES-2)."""
    return Effect(
        kind="trigger",
        speed=1,
        trigger_on=EventKind.BATTLE_PHASE_END,
        trigger_match=_battled,
        condition=_tag_condition,
        cost=_shuffle_in,
        resolve=_tag_resolve,
        label="shuffle into the Deck; Special Summon a Gladiator Beast",
    )


# Spirit monsters ("This card returns to the owner's hand during the End Phase of the turn it is
# Normal Summoned or flipped face-up": Tsukuyomi, Asura Priest). The turn it was Normal (or
# Tribute) Summoned or flipped face-up is the card's own flag (cleared as it leaves the field).
SPIRIT_TURN: Final = "spirit_turn"


SPIRIT_WATCH_ON: Final = frozenset({EventKind.SUMMONED, EventKind.FLIPPED})


def spirit_watch(ctx: Ctx, card: Card, ev: GameEvent) -> None:
    """``Script.watch`` of a Spirit monster: record the turn it is Normal Summoned or flipped
    face-up (a Flip Summon flips it too)."""
    if ev.get("card") != card.id or card.zone != Zone.MONSTERS:
        return
    kind = ev.get("kind")
    if kind == EventKind.FLIPPED or (kind == EventKind.SUMMONED and ev.get("how") in ("normal", "tribute")):
        ctx.emit(Flag(card=card.id, name=SPIRIT_TURN, value=ctx.s.turn))


def _spirit_due(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("phase") == Phase.END and still_face_up(card) and card.flags.get(SPIRIT_TURN) == s.turn


def _spirit_back(ctx: Ctx, link: Link) -> None:
    c = ctx.s.cards[link.card]
    if still_face_up(c):
        to_hand(ctx, c)


def spirit_return() -> Effect:
    """The Spirit monster's return: a mandatory trigger as the End Phase begins, in the turn it
    was Normal Summoned or flipped face-up, if it is still face-up on the field; it goes to its
    owner's hand (ruling GEN-1: the Spirit text; face-down, it activates nothing)."""
    return Effect(
        kind="trigger",
        speed=1,
        trigger_on=EventKind.PHASE_START,
        trigger_match=_spirit_due,
        optional=False,
        resolve=_spirit_back,
        label="return to the hand",
    )


def _recruit_match(s: State, card: Card, ev: GameEvent) -> bool:
    return (
        ev.get("card") == card.id
        and ev.get("reason") == "battle"
        and ev.get("to") == Zone.GRAVEYARD
        and card.zone == Zone.GRAVEYARD
    )


def _recruitable(attribute: str) -> Callable[[Card], bool]:
    def pred(c: Card) -> bool:
        return c.data.is_monster and c.data.attribute == attribute and 0 <= c.data.atk <= 1500

    return pred


def _recruit(attribute: str) -> Callable[[Ctx, Link], None]:
    def resolve(ctx: Ctx, link: Link) -> None:
        seat = link.controller
        pred = _recruitable(attribute)
        cands = summonable(ctx.s, seat, deck_candidates(ctx.s, seat, pred)) if free_monster_zone(ctx.s, seat) else []
        ask_cards(ctx, seat, cands, "recruiter.summon", {"source": link.card}, source=link.card)

    return resolve


@continuation("recruiter.summon")
def _recruited(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone == Zone.DECK and c.owner == seat:
            special_summon(ctx, c, seat, Position.ATTACK)
    shuffle_deck(ctx, seat)


def recruiter(attribute: str) -> Effect:
    """The recruiter's optional trigger at the end of the Damage Step (ruling DS-9), from the
    Graveyard: not if it was banished instead. It needs such a monster in the Deck and a free
    zone (ruling GEN-4); the monster is selected as it resolves (SEL-1) and Summoned in face-up
    Attack Position, as the text says (not SEL-3's choice); then the Deck is shuffled. An
    optional "When" trigger (ruling CH-12), but the end of the Damage Step is always the last
    thing that happened."""
    return Effect(
        kind="trigger",
        speed=1,
        trigger_on=EventKind.DESTROYED,
        trigger_match=_recruit_match,
        condition=can_summon_from_deck(_recruitable(attribute)),
        resolve=_recruit(attribute),
        misses_timing=True,
        label="Special Summon from the Deck",
    )


# ------------------------------------------------------------------ the Goat-era Reapers


def _itself(s: State, src: Card, c: Card) -> bool:
    return c.id == src.id


def _direct_hit(s: State, card: Card, ev: GameEvent) -> bool:
    return inflicted_battle_damage(s, card, ev, direct=True)


def _opponent_holds(s: State, card: Card, seat: int) -> bool:
    return bool(s.players[other(seat)].hand)


def _random_discard(ctx: Ctx, link: Link) -> None:
    discard_at_random(ctx, other(link.controller), link.card)


def reaper(direct_attack: bool = False) -> Script:
    """The script the Goat-era Reapers share (Spirit Reaper, Reaper on the Nightmare): "This card
    is not destroyed as a result of battle. Destroy this card when it is targeted by the effect of
    a Spell, Trap, or Effect Monster. If this card successfully attacks your opponent's Life
    Points directly, your opponent discards 1 card randomly from his/her hand."

    - Not destroyed by battle (``Script.battle_indestructible``).
    - Targeted by an effect, destroyed once that link has resolved (``destroy_when_targeted``,
      ruling CARD-27).
    - A mandatory trigger after damage calculation of its direct attack that dealt battle damage:
      the opponent discards 1 card at random; with an empty hand it does not activate (GEN-4).
    - ``direct_attack``: it may attack directly while the opponent controls monsters (Reaper on
      the Nightmare)."""
    return Script(
        effects=(
            Effect(
                kind="trigger",
                speed=1,
                trigger_on=EventKind.BATTLE_DAMAGE,
                trigger_match=_direct_hit,
                optional=False,
                condition=_opponent_holds,
                resolve=_random_discard,
                label="random discard",
            ),
        ),
        battle_indestructible=_itself,
        after_targeted=destroy_when_targeted,
        self_destroy=targeted_doomed,
        direct_attack=_itself if direct_attack else None,
    )


# ------------------------------------------------------------------ FLIP: add a card from the Graveyard


def _flipped(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id


def flip_adds_from_graveyard(pick: Callable[[Card], bool], label: str) -> Effect:
    """ "FLIP: Target 1 <kind> Card in your Graveyard; add that target to your hand." (Magician of
    Faith: a Spell; Mask of Darkness: a Trap): a mandatory FLIP effect that targets as it is
    activated; with no such card it does not activate (ruling GEN-4); a target gone from the
    Graveyard when it resolves is not added (ruling CH-3)."""

    def targets(s: State, card: Card, seat: int) -> list[list[int]]:
        return grave_targets(s, seat, pick)

    return Effect(
        kind="flip",
        speed=1,
        trigger_on=EventKind.FLIPPED,
        trigger_match=_flipped,
        optional=False,
        targets=targets,
        resolve=return_target_to_hand,
        label=label,
    )
