"""The helpers several cards share, part of the card API (``engine.effects.api``, the one module
card modules import from): target lists, costs, negation, battle lookups, the ``left_field``
window, the phase changes a card makes (``go_to_end_phase``, ``start_battle_phase``). It also
hands on what cards need from elsewhere in the engine: ``Ctx``, ``other``, ``Counter``,
``CardFlag`` and the selections made at resolution (``ask_cards``, ``continuation``,
``summon_choosing_position`` ..., from ``choices``; ruling SEL-1). A helper two cards share
lives here (or, for a family of cards with one rule, in ``engine.effects.families``), never in
one card's module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import flow
from ..battle import start_step
from ..chain import once_key_for
from ..counters import Counter
from ..ctx import Ctx
from ..events import GameEvent, LeftCard
from ..facts import DuelEnded, Modifier, Negated, Note, PositionChanged, Used
from ..formats import TextVersion, format_of
from ..ops import (
    banish,
    damage,
    destroy,
    draw,
    move,
    pay_lp,
    pick_at_random,
    reveal_to,
    send_to_grave,
    shuffle_deck,
    take_control,
    to_hand,
    turned_face_down,
)
from ..state import Card, Link, State
from ..stats import atk, can_summon, cannot_normal_summon, def_, is_negated, original, properly_summoned, unaffected
from ..types import MAIN_PHASES, CardFlag, EventKind, LingeringFlag, Phase, Position, Step, Timing, Zone, other
from .base import Effect, effects_of
from .choices import (
    POSITIONS,
    Answer,
    ask_cards,
    ask_option,
    can_summon_from_deck,
    continuation,
    deck_candidates,
    free_monster_zone,
    fusion_deck_candidates,
    summon_all_choosing_positions,
    summon_choosing_position,
    summon_from_deck,
    summon_from_fusion_deck,
    summon_one_of,
    summonable,
)

__all__ = [
    "MAIN_PHASES",
    "POSITIONS",
    "Answer",
    "CardFlag",
    "Counter",
    "Ctx",
    "EventKind",
    "GameEvent",
    "LeftCard",
    "LingeringFlag",
    "Phase",
    "Position",
    "Step",
    "Timing",
    "Zone",
    "ask_cards",
    "ask_option",
    "can_summon_from_deck",
    "continuation",
    "deck_candidates",
    "free_monster_zone",
    "fusion_deck_candidates",
    "other",
    "summon_all_choosing_positions",
    "summon_choosing_position",
    "summon_from_deck",
    "summon_from_fusion_deck",
    "summon_one_of",
    "summonable",
]


def still_face_up(c: Card) -> bool:
    """``c`` is a face-up monster on the field: the "if this card is still face-up on the field"
    check of effects that resolve or trigger later (ruling LF-2: what left the field, or was
    turned face-down, is no longer that card)."""
    return c.zone == Zone.MONSTERS and c.face_up


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


def link_is_card_activation(s: State, link: Link, kind: str) -> bool:
    """The link is the activation of a Spell or Trap *card* (not an effect of a monster)."""
    c = s.cards[link.card]
    effs = effects_of(c)
    eff = effs[link.effect - 1] if 1 <= link.effect <= len(effs) else None
    return eff is not None and eff.kind == kind


def link_is_monster_effect(s: State, link: Link) -> bool:
    c = s.cards[link.card]
    return c.data.is_monster


def activation_answered(s: State, link: Link) -> str | None:
    """What a "when a Spell Card, Trap Card, or monster effect is activated" card sees in
    ``link``: ``spell`` or ``trap`` for the activation of a Spell/Trap *card*, ``monster`` for a
    monster effect, None for an effect of a face-up Spell/Trap that is not the card's activation
    (Spacegate's Special Summon, Domino Effect's trigger): negating activations is not negating
    those effects (ruling CH-8; issue 35, rule 3)."""
    if link_is_monster_effect(s, link):
        return "monster"
    kind = s.cards[link.card].data.kind
    return kind if link_is_card_activation(s, link, kind) else None


def negate_previous(ctx: Ctx, link: Link, then_destroy: bool = True) -> None:
    """Negate the activation of the link this one answered, and if you do, destroy it."""
    s = ctx.s
    prev_n = int(link.data.get("answers", 0))  # 1-based number of the answered link
    if not 1 <= prev_n <= len(s.chain):
        return
    prev = s.chain[prev_n - 1]
    ctx.emit(Negated(link=prev_n, what="activation", card=prev.card, code=s.cards[prev.card].code))
    c = s.cards[prev.card]
    if then_destroy and c.on_field:
        destroy(ctx, c, reason="effect", by=link.card)


def negate_previous_effect(ctx: Ctx, link: Link) -> None:
    """Negate the effect (not the activation, ruling CH-8) of the link this one answered: it
    resolves without effect (Dark Balter the Terrible, Ryu Senshi)."""
    s = ctx.s
    prev_n = int(link.data.get("answers", 0))  # 1-based number of the answered link
    if not 1 <= prev_n <= len(s.chain):
        return
    prev = s.chain[prev_n - 1]
    ctx.emit(Negated(link=prev_n, what="effect", card=prev.card, code=s.cards[prev.card].code))


def answers_card_activation(s: State, kind: str, prop: str) -> bool:
    """The last chain link is the activation of a ``kind`` card (``spell``/``trap``) of Property
    ``prop`` (``normal`` ...): "When a Normal Spell Card is activated" (Dark Balter the
    Terrible), "a Normal Trap Card" (Ryu Senshi)."""
    if not s.chain:
        return False
    top = s.chain[-1]
    c = s.cards[top.card]
    return c.data.kind == kind and c.data.prop == prop and link_is_card_activation(s, top, kind)


def lp_cost(amount: int) -> Callable[[Ctx, Card, int, dict[str, Any]], None]:
    """Cost: pay ``amount`` Life Points (``can_pay_lp`` is its condition)."""

    def cost(ctx: Ctx, card: Card, seat: int, data: dict[str, Any]) -> None:
        pay_lp(ctx, seat, amount)

    return cost


def can_pay_lp(s: State, seat: int, amount: int) -> bool:
    """``seat`` has the Life Points to pay ``amount`` as a cost (all of them at most)."""
    return s.players[seat].lp >= amount


def negate_targeting(kind: str) -> Callable[[Ctx, Card, Link, int], None]:
    """``Script.on_targeted`` of "Negate the effect of a <kind> Card that targets this card and
    destroy it" (Ryu Senshi: Spell; Fiend Skull Dragon: Trap): as such a link starts to resolve,
    while this card is face-up on the field with its effects not negated, the link's effect is
    negated (not its activation, ruling CH-8) and the card is destroyed if it is on the field."""

    def on_targeted(ctx: Ctx, card: Card, link: Link, n: int) -> None:
        s = ctx.s
        src = s.cards[link.card]
        if not still_face_up(card) or is_negated(s, card) or src.data.kind != kind or src.data.is_monster:
            return
        ctx.emit(Negated(link=n, what="effect", card=src.id, code=src.code))
        if src.on_field:
            destroy(ctx, src, reason="effect", by=card.id)

    return on_targeted


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
        if cid is not None and s.cards[cid].controller == seat and s.cards[cid].zone == Zone.MONSTERS:
            return s.cards[cid]
    return None


def gain(ctx: Ctx, card: Card, value: int, until: str, source: int, stat: str = "atk") -> None:
    src = ctx.s.cards.get(source)
    if src is not None and unaffected(ctx.s, card, src):
        return  # "unaffected by Trap effects" (Elemental HERO Wildheart)
    ctx.emit(Modifier(card=card.id, stat=stat, op="add", value=value, until=until, source=source))


def goat_wording(s: State) -> bool:
    """The duel's format plays the cards' Goat-era wordings (``CardData.text_goat``: the Goat
    format): a card whose Goat-era text differs applies that text (ruling FMT-5)."""
    return format_of(s).text is TextVersion.GOAT


def opponent(seat: int) -> int:
    return other(seat)


def hand_candidates(s: State, seat: int, pred: Callable[[Card], bool]) -> list[int]:
    return [cid for cid in s.players[seat].hand if pred(s.cards[cid])]


def mark_proper_summon(ctx: Ctx, c: Card) -> None:
    if not properly_summoned(ctx.s, c):
        ctx.emit(Used(key=f"proper_summon:{c.id}"))


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
        if target_ok(s, t, face_up=True) and c.controller != link.controller and free_monster_zone(s, link.controller):
            take_control(ctx, c, link.controller)


def _destroyed_face_up(s: State, card: Card, ev: GameEvent) -> bool:
    return ev.get("card") == card.id and bool(ev.get("face_up"))


def _burn_controller(ctx: Ctx, link: Link) -> None:
    ev = link.data.get("event", {})
    c = ctx.s.cards[link.card]
    damage(ctx, int(ev.get("controller", link.controller)), original(ctx.s, c, "atk"))


def burn_when_destroyed_face_up() -> Effect:
    """ "If this face-up card is destroyed, inflict damage equal to its original ATK to its
    (current) controller" (Giant Kozaky, Zombie Mammoth)."""
    return Effect(
        kind="trigger",
        speed=1,
        trigger_on=EventKind.DESTROYED,
        trigger_match=_destroyed_face_up,
        optional=False,
        resolve=_burn_controller,
    )


def light_and_dark_in_grave(s: State, card: Card, seat: int) -> list[list[int]]:
    """The procedure of "Special Summoned (from your hand) by banishing 1 LIGHT and 1 DARK monster
    from your Graveyard" (Chaos Sorcerer, Black Luster Soldier - Envoy of the Beginning): each
    pair of them, while the card is in the hand and a Monster Zone is free (``Script.procedure``)."""
    if card.zone != Zone.HAND or not free_monster_zone(s, seat):
        return []
    grave = [s.cards[cid] for cid in s.players[seat].graveyard]
    light = [c.id for c in grave if c.data.is_monster and c.data.attribute == "LIGHT"]
    dark = [c.id for c in grave if c.data.is_monster and c.data.attribute == "DARK"]
    return [[a, b] for a in light for b in dark]


def banish_procedure_cost(ctx: Ctx, card: Card, seat: int, cost: list[int]) -> None:
    """The cost of a Summon procedure that banishes cards (``Script.procedure_cost``)."""
    for cid in cost:
        banish(ctx, ctx.s.cards[cid], reason="cost")


def used_this_turn(s: State, card: Card, idx: int) -> bool:
    """The once-per-turn effect ``idx`` of ``card`` was used this turn (``Effect.once_per``)."""
    key = once_key_for(card.id, card.code, card.controller, "turn", idx)
    return key is not None and s.used.get(key) == s.turn


def mark_used(ctx: Ctx, card: Card, idx: int) -> None:
    """Use the once-per-turn effect ``idx`` of ``card`` now: an effect that shares its limit with it
    (Black Luster Soldier's "activate 1 of these effects") counts as it."""
    key = once_key_for(card.id, card.code, card.controller, "turn", idx)
    if key is not None:
        ctx.emit(Used(key=key))


def can_be_normal_summoned(c: Card) -> bool:
    """A monster that can be Normal Summoned (Monster Gate, Reasoning): not a Fusion Monster, not
    one that "cannot be Normal Summoned" (Chaos Sorcerer), a Tribute Summon monster too."""
    return c.data.is_monster and not c.data.extra_deck and not c.data.is_token and not cannot_normal_summon(c.data)


def excavation(s: State, seat: int) -> tuple[list[int], int | None]:
    """ "Pick up cards from your Deck until you pick up a monster that can be Normal Summoned"
    (Monster Gate, Reasoning): the cards from the top of ``seat``'s Deck down to the first such
    monster (all of them if there is none), and that monster."""
    out: list[int] = []
    for cid in s.players[seat].deck:
        out.append(cid)
        if can_be_normal_summoned(s.cards[cid]):
            return out, cid
    return out, None


def excavate(ctx: Ctx, seat: int) -> tuple[list[int], int | None]:
    """Pick up (excavate) the cards of ``excavation``: each is shown to both players (a public
    ``note``, what ``excavated``); they stay in the Deck until the effect moves them."""
    cards, monster = excavation(ctx.s, seat)
    for cid in cards:
        c = ctx.s.cards[cid]
        ctx.emit(Note(what="excavated", card=cid, code=c.code, seat=seat))
    return cards, monster


# ------------------------------------------------------------------ destroyed by battle


def destroyed_by_this(s: State, card: Card, ev: GameEvent, to_grave: bool) -> bool:
    """``ev`` (a ``destroyed`` event) is this card destroying an opponent's monster by battle
    (and sending it to the Graveyard, if ``to_grave``: a monster banished instead does not count;
    without it, a banished one does, ruling DS-9), and this card is still face-up on the field,
    not destroyed in the same battle (ruling DS-14: when both are destroyed it does not
    activate, whichever is sent first). The trigger activates at the end of the Damage Step
    (seed 003, TCG Substep 7). Every "when this card destroys a monster by battle" card reads
    it: Goyo Guardian, Hydrogeddon, Flame Wingman, Dark Diviner, Fenrir, Jurrac Guaiba,
    Timeater, and the records of Sword Hunter and Alien Mother."""
    if ev.get("reason") != "battle" or ev.get("by") != card.id or ev.get("controller") == card.controller:
        return False
    if to_grave and ev.get("to") != Zone.GRAVEYARD:
        return False
    a = s.attack
    return still_face_up(card) and not (a is not None and card.id in a.destroyed)


def left_field(s: State) -> list[LeftCard]:
    """The monsters of the current ``left_field`` window (ruling LF-3): sent at the end of the
    Damage Step, during a chain, or with another event (a summon's Tributes, a cost). "When ...
    is sent to the Graveyard" Traps answer it (``Effect(event=EventKind.LEFT_FIELD)``)."""
    ev = s.event
    if ev is None:
        return []
    if ev.get("kind") == EventKind.LEFT_FIELD:
        return list(ev.get("cards", []))
    return list(ev.get("left", []))


def destroyed_by_battle_to_grave(s: State) -> list[LeftCard]:
    """The monsters of the ``left_field`` window destroyed by battle and sent to the Graveyard
    (not banished instead; ruling DS-9): Time Machine, Destiny Signal."""
    return [
        e for e in left_field(s) if e.get("reason") == "battle" and e.get("destroyed") and e.get("to") == Zone.GRAVEYARD
    ]


# ------------------------------------------------------------------ phase changes


def go_to_end_phase(ctx: Ctx, reason: str) -> None:
    """An effect makes it the End Phase of this turn (Flashbang, Neko Mane King; ruling BP-7)."""
    flow.go_to_end_phase(ctx, reason)


def start_battle_phase(ctx: Ctx) -> None:
    """A Battle Phase begins now, with its Start Step (Last Turn's special Battle Phase; ruling
    CARD-1)."""
    start_step.enter(ctx)


# ------------------------------------------------------------------ Goat monsters' shared rules


def inflicted_battle_damage(s: State, card: Card, ev: GameEvent, direct: bool = False) -> bool:
    """``ev`` (a ``battle_damage`` event) is battle damage ``card`` inflicts on its controller's
    opponent: the damage of the battle it takes part in, to the other player ("When this card
    inflicts battle damage to your opponent": Airknight Parshath, Kycoo the Ghost Destroyer, Don
    Zaloog, Dark Scorpion - Cliff the Trap Remover); ``direct``: by its direct attack (Spirit
    Reaper). Triggered after damage calculation (ruling DS-8)."""
    a = s.attack
    if a is None or ev.get("seat") != other(card.controller) or card.zone != Zone.MONSTERS:
        return False
    if direct:
        return a.target is None and a.attacker == card.id
    return card.id in (a.attacker, a.target)


def mill(ctx: Ctx, seat: int, n: int, by: int) -> None:
    """ "Send the top ``n`` cards of <seat>'s Deck to the Graveyard" (Don Zaloog, Dark Scorpion -
    Cliff the Trap Remover): as many as there are."""
    for cid in list(ctx.s.players[seat].deck[:n]):
        send_to_grave(ctx, ctx.s.cards[cid], reason="effect", by=by)


def reveal(ctx: Ctx, c: Card, seat: int) -> None:
    """``seat`` shows ``c`` to both players ("show it to your opponent": Sangan): a public note
    with its identity, wherever the card is."""
    ctx.emit(Note(what="revealed", card=c.id, code=c.code, seat=seat))


def grave_targets(s: State, seat: int, pred: Callable[[Card], bool]) -> list[list[int]]:
    """One single-target choice per card of ``seat``'s Graveyard that ``pred`` accepts ("Target 1
    Spell Card in your Graveyard": Magician of Faith, Mask of Darkness)."""
    return [[cid] for cid in s.players[seat].graveyard if pred(s.cards[cid])]


def return_target_to_hand(ctx: Ctx, link: Link, zone: Zone = Zone.GRAVEYARD) -> None:
    """Add each target still in ``zone`` to its owner's hand (ruling CH-3: a target that left
    resolves without effect)."""
    for t in link.targets:
        if target_ok(ctx.s, t, zone):
            to_hand(ctx, ctx.s.cards[t])


# "When this card is destroyed as a result of battle and sent to the Graveyard, you can Special
# Summon 1 <Attribute> monster with an ATK of 1500 or less in face-up Attack Position from your
# Deck. Then shuffle your Deck." (Giant Rat, Mystic Tomato, their Goat wording)


def each_player_draws(ctx: Ctx, counts: dict[int, int]) -> None:
    """Both players draw at the same time, ``counts[seat]`` cards each (Morphing Jar's 5 each;
    Card Destruction's as many as each discarded). A player who cannot draw them all loses; when
    neither can, the Duel is a draw (ruling GEN-2: both lose at once)."""
    s = ctx.s
    short = [seat for seat, n in counts.items() if n > len(s.players[seat].deck)]
    if len(short) == 2:
        ctx.emit(DuelEnded(winner="draw", reason="deck_out"))
        return
    for seat in (s.turn_player, other(s.turn_player)):
        if counts.get(seat, 0) and not s.finished:
            draw(ctx, seat, counts[seat])


def flip_face_down(ctx: Ctx, t: int) -> None:
    """Change the target ``t``, if it is still a face-up monster, to face-down Defense Position
    (Book of Moon, Tsukuyomi); its Equip Cards are destroyed (ruling EQ-2)."""
    if target_ok(ctx.s, t, face_up=True):
        ctx.emit(PositionChanged(card=t, position=Position.DEFENSE, face_up=False, by_player=False))
        turned_face_down(ctx, ctx.s.cards[t])


def in_random_order(ctx: Ctx, ids: list[int]) -> list[int]:
    """``ids`` in an order drawn with the duel's PRNG: face-down cards placed on the field in it
    tell nobody which is which (Cyber Jar's face-down Summons, after their cards were shown)."""
    left = list(ids)
    out: list[int] = []
    while left:
        cid = pick_at_random(ctx, left)
        assert cid is not None
        left.remove(cid)
        out.append(cid)
    return out


# ------------------------------------------------------------------ Spell and Trap Cards on the field


def spells_traps_on_field(s: State, but: int | None = None) -> list[Card]:
    """Every Spell and Trap Card on the field (the Spell & Trap Zones and the Field Zones of both
    players, face-up or face-down, a monster equipped as an Equip Spell Card among them), the turn
    player's first, except the card ``but`` (the card whose effect this is: Giant Trunade and
    Heavy Storm do not count themselves)."""
    out: list[Card] = []
    for seat in (s.turn_player, other(s.turn_player)):
        for c in s.field_cards(seat):
            if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD) and c.id != but:
                out.append(c)
    return out


def discard(ctx: Ctx, cards: list[int]) -> None:
    """Discard these cards from the hand to the Graveyard, at the same time (an effect's discard,
    not a cost: Graceful Charity, Card Destruction, Delinquent Duo)."""
    for cid in cards:
        c = ctx.s.cards[cid]
        if c.zone == Zone.HAND:
            send_to_grave(ctx, c, reason="discard")


def banish_copies_from_decks(ctx: Ctx, name: str, pred: Callable[[Card], bool], reveal_decks: bool) -> None:
    """Both players banish every card named ``name`` (of the kind ``pred`` accepts) from their
    Deck, then shuffle it (Nobleman of Crossout, Nobleman of Extermination). The Goat-era texts
    have "both players check their respective Decks": each looks at their own; today's texts have
    each player reveal their Main Deck (``reveal_decks``: shown to both players, ``ops.reveal_to``,
    then shuffled, so the order shown tells nothing). What is banished is public."""
    s = ctx.s
    for seat in (s.turn_player, other(s.turn_player)):
        if reveal_decks:
            reveal_to(ctx, seat, list(s.players[seat].deck), to=None)
        for cid in list(s.players[seat].deck):
            c = s.cards[cid]
            if c.data.name == name and pred(c):
                move(ctx, c, "banished", reason="effect")
        shuffle_deck(ctx, seat)


def destroy_and_banish(ctx: Ctx, c: Card, by: int) -> bool:
    """ "Destroy ... and remove it from play" (Nobleman of Crossout, Nobleman of Extermination):
    destroy the card, and if it was destroyed, banish it from the Graveyard (it is banished at
    once when an effect banishes it instead). True if it was destroyed."""
    destroy(ctx, c, reason="effect", by=by)
    if c.zone == Zone.GRAVEYARD:
        move(ctx, c, "banished", reason="effect")
        return True
    return c.zone == Zone.BANISHED


def discard_at_random(ctx: Ctx, seat: int, by: int) -> int | None:
    """``seat`` discards 1 card of its hand picked at random with the duel's PRNG (Delinquent Duo,
    Don Zaloog, Spirit Reaper: no player chooses it); the card picked is noted (``random_discard``)
    as it goes to the Graveyard. None if the hand is empty."""
    hand = list(ctx.s.players[seat].hand)
    if not hand:
        return None
    cid = pick_at_random(ctx, hand)
    if cid is None:
        return None
    c = ctx.s.cards[cid]
    ctx.emit(Note(what="random_discard", card=cid, code=c.code, seat=seat))
    send_to_grave(ctx, c, reason="discard", by=by)
    return cid


def settable_spells_traps(s: State, seat: int) -> list[int]:
    """The Spell and Trap Cards in ``seat``'s hand it could Set now: a free Spell & Trap Zone
    (a Field Spell is not Set by an effect here; Dust Tornado)."""
    if None not in s.players[seat].spells_traps:
        return []
    return hand_candidates(s, seat, lambda c: c.data.is_trap or (c.data.is_spell and c.data.prop != "field"))


def set_from_hand(ctx: Ctx, c: Card) -> None:
    """Set a Spell or Trap Card from the hand by an effect: face-down in a Spell & Trap Zone, Set
    this turn (it cannot be activated before the next, ruling CH-2); unseen by the opponent."""
    if c.zone == Zone.HAND and None in ctx.s.players[c.controller].spells_traps:
        move(ctx, c, "spells_traps", face_up=False, reason="set")


def opponents_cards(s: State, seat: int, spells_traps_only: bool = False) -> list[Card]:
    """The cards ``seat``'s opponent controls on the field (only its Spell and Trap Cards: those of
    its Spell & Trap Zones and Field Zone)."""
    cards = s.field_cards(other(seat))
    if spells_traps_only:
        return [c for c in cards if c.zone in (Zone.SPELLS_TRAPS, Zone.FIELD)]
    return cards


def destroy_the_highest(ctx: Ctx, link: Link, cards: list[Card], stat: str) -> None:
    """ "Destroy the 1 ... with the highest ATK (DEF). (If it's a tie, you get to choose.)" (Smashing
    Ground, Widespread Ruin): not a target; the monsters are compared as it resolves and, on a tie,
    its controller selects one of the tied (ruling SEL-1)."""
    if not cards:
        return
    values = {c.id: (atk(ctx.s, c) if stat == "atk" else def_(ctx.s, c)) for c in cards}
    top = max(values.values())
    tied = [cid for cid, v in values.items() if v == top]
    ask_cards(ctx, link.controller, tied, "common.destroy_the_highest", {"by": link.card}, source=link.card)


@continuation("common.destroy_the_highest")
def _destroy_picked(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        destroy(ctx, ctx.s.cards[cid], reason="effect", by=int(d["by"]))


def search_deck(ctx: Ctx, link: Link, pred: Callable[[Card], bool]) -> None:
    """ "Add 1 ... from your Deck to your hand": ``link``'s controller selects the card in the Deck
    as the effect resolves (ruling SEL-1), shows it to the opponent (``ops.reveal_to``), adds it and
    shuffles the Deck (Reinforcement of the Army)."""
    seat = link.controller
    ask_cards(ctx, seat, deck_candidates(ctx.s, seat, pred), "common.search_deck", source=link.card)


@continuation("common.search_deck")
def _searched(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    for cid in answer if isinstance(answer, list) else []:
        c = ctx.s.cards[cid]
        if c.zone == Zone.DECK and c.owner == seat:
            reveal_to(ctx, seat, [cid], to=other(seat))
            move(ctx, c, "hand", reason="effect")
    shuffle_deck(ctx, seat)
