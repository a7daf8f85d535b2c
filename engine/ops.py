"""Operations that rules code and card effects perform: move, destroy, send,
banish, draw, inflict damage, Special Summon, put counters. Each emits facts
(and raises the events that trigger effects answer); none mutates state
directly.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, Final

from . import rng
from .counters import Counter
from .ctx import Ctx
from .effects.base import SCRIPTS, Effect, effects_of
from .events import GameEvent
from .facts import (
    ABSENT,
    Absent,
    AttackEnded,
    Counters,
    Delayed,
    Destroyed,
    Drew,
    DuelEnded,
    Equipped,
    Event,
    FixedOutcome,
    Flag,
    Flipped,
    LifePoints,
    Modifier,
    Moved,
    Negated,
    Note,
    PhaseBegan,
    PositionChanged,
    Revealed,
    Rng,
    Shuffled,
    Summoned,
    TokenGone,
    TokenMade,
    TriggerDone,
    Triggered,
    Used,
)
from .kernel import memo
from .state import Card, State
from .stats import (
    activating,
    banish_instead,
    can_summon,
    effect_indestructible,
    equipped_as_spell,
    forbidden_key,
    free_zone_slots,
    has_free_zone,
    is_negated,
    locked_zones,
    needs_proper_summon,
    properly_summoned,
    unaffected,
)
from .types import CardFlag, EventKind, Phase, Step, Zone, other

PUBLIC_ZONES: Final[tuple[Zone, ...]] = (Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD, Zone.GRAVEYARD, Zone.BANISHED)


FIELD_ZONES: Final[tuple[Zone, ...]] = (Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD)


def move(
    ctx: Ctx,
    c: Card,
    to: str,
    *,
    controller: int | Absent = ABSENT,
    position: str | Absent = ABSENT,
    top: bool | Absent = ABSENT,
    reason: str | Absent = ABSENT,
    face_up: bool | Absent = ABSENT,
) -> None:
    """Move a card; its identity is in the fact when the destination is public.

    A monster that leaves the field takes its followers with it (ruling LF-1): its Xyz
    Materials are sent to the Graveyard and the Equip Cards equipped to it are destroyed
    (ruling EQ-2), banished instead under Macro Cosmos, never left behind."""
    leaving = c.on_field and to not in FIELD_ZONES
    as_spell = equipped_as_spell(c)
    if leaving and banished_on_leaving(ctx.s, c):
        to = "banished"  # "banish it when it leaves the field" (Battle Fader, Dark Magician of Chaos)
    if to in (Zone.HAND, Zone.DECK) and c.data.extra_deck:
        to = "extra"  # a Fusion, Synchro or Xyz Monster returns to the Extra Deck
    followers = _followers(ctx, c) if leaving else []
    was_controller = c.controller
    was_equipped_to = c.equipped_to
    shown = to in PUBLIC_ZONES if face_up is ABSENT else face_up
    code: int | Absent = ABSENT
    private: int | Absent = ABSENT
    if to in (Zone.GRAVEYARD, Zone.BANISHED) or (to in PUBLIC_ZONES and shown) or c.face_up:
        code = c.code
    elif to == Zone.HAND and c.zone in (Zone.DECK,):
        code, private = c.code, c.owner
    elif to in PUBLIC_ZONES and not shown and c.zone == Zone.HAND:
        code, private = c.code, c.controller
    properly = c.zone == Zone.MONSTERS and to in (Zone.GRAVEYARD, Zone.BANISHED) and needs_proper_summon(c)
    slot: int | Absent = ABSENT
    if to == Zone.MONSTERS and c.zone != Zone.MONSTERS:
        slot = monster_slot(ctx.s, c.controller if isinstance(controller, Absent) else controller)
    ctx.emit(
        Moved(
            card=c.id,
            to=to,
            from_=c.zone,
            controller=controller,
            position=position,
            top=top,
            reason=reason,
            face_up=face_up,
            slot=slot,
            code=code,
            private=private,
        )
    )
    if properly and not properly_summoned(ctx.s, c):
        # it was on the field, so it was properly Summoned: another effect may Special Summon it
        # now (ruling SUM-1; a scenario's start position places it there directly)
        ctx.emit(Used(key=f"proper_summon:{c.id}"))
    for f in followers:
        if f.zone == Zone.XYZ_MATERIAL:
            send_to_grave(ctx, f, reason="rule")
        elif f.on_field:
            destroy(ctx, f, reason="rule")
    if leaving:
        event: GameEvent = {
            "kind": EventKind.CARD_LEFT_FIELD.value,
            "card": c.id,
            "to": to,
            "controller": was_controller,
        }
        if was_equipped_to is not None:
            event["equipped_to"] = was_equipped_to  # the monster it equipped (Snatch Steal)
        raise_event(ctx, {**event, "equip_spell": True} if as_spell else event)
        if c.data.is_token and c.zone != Zone.GONE:
            ctx.emit(TokenGone(card=c.id))  # a Token that leaves the field ceases to exist


def monster_slot(s: State, seat: int) -> int | Absent:
    """The Monster Zone a monster put on ``seat``'s side goes to when some zones cannot be used
    (Ojama King: the first free one that may be used); ABSENT otherwise (the first free one)."""
    if not locked_zones(s, seat):
        return ABSENT
    slots = free_zone_slots(s, seat)
    return slots[0] if slots else ABSENT


def banished_on_leaving(s: State, c: Card) -> bool:
    """``c``, on the field, is banished whenever it would leave it for another place: "banish it
    when it leaves the field" (Battle Fader, ``banish_when_it_leaves``), or its own "If this
    face-up card would leave the field, banish it instead" while it is face-up and its effects
    apply (Dark Magician of Chaos, ``Script.banished_when_leaving``)."""
    if c.flags.get(CardFlag.BANISH_ON_LEAVE):
        return True
    sc = SCRIPTS.get(c.data.key)
    return (
        sc is not None and sc.banished_when_leaving and c.zone == Zone.MONSTERS and c.face_up and not is_negated(s, c)
    )


def turned_face_down(ctx: Ctx, c: Card) -> None:
    """``c`` was just turned face-down (Book of Moon, Royal Keeper): the Equip Cards equipped to
    it are destroyed (ruling EQ-2; the Official Rulebook: an Equip Card needs a face-up monster)."""
    for e in [e for e in ctx.s.equips_of(c) if e.on_field]:
        destroy(ctx, e, reason="rule")


def _followers(ctx: Ctx, c: Card) -> list[Card]:
    s = ctx.s
    out = [s.cards[m] for m in c.materials if s.cards[m].zone == Zone.XYZ_MATERIAL]
    out += [e for e in s.equips_of(c) if e.on_field]
    return out


def leaving_together(ctx: Ctx, cards: list[Card]) -> dict[int, bool]:
    """Whether each of several cards that leave the field at the same time is banished instead
    of sent to the Graveyard, judged before any of them moves (ruling LF-2): a face-up Macro
    Cosmos leaving with them still banishes the others, but not itself."""
    return {c.id: banish_instead(ctx.s, exclude=c.id) for c in cards}


def send_to_grave(ctx: Ctx, c: Card, reason: str = "effect", by: int | None = None, banish: bool | None = None) -> str:
    """Send a card to the Graveyard (banished instead under Macro Cosmos). Returns where it went.

    "While this card is face-up on the field" effects do not apply to their own card as it
    leaves (ruling LF-2): Macro Cosmos itself goes to the Graveyard. ``banish`` is the decision
    ``leaving_together`` made for cards that leave at the same time."""
    s = ctx.s
    if banish is None:
        banish = banish_instead(s, exclude=c.id)
    to = "banished" if banish and c.zone != Zone.GRAVEYARD else "graveyard"
    if c.on_field and banished_on_leaving(s, c):
        to = "banished"
    was_on_field = c.on_field
    was_in = c.zone
    controller = c.controller
    as_spell = equipped_as_spell(c)
    move(ctx, c, to, reason=reason)
    if to == Zone.GRAVEYARD:
        event: GameEvent = {
            "kind": "sent_to_grave",
            "card": c.id,
            "reason": reason,
            "by": by,
            "from_field": was_on_field,
            "from_zone": str(was_in),
            "controller": controller,
        }
        raise_event(ctx, {**event, "equip_spell": True} if as_spell else event)
    return to


def destroy(ctx: Ctx, c: Card, reason: str = "effect", by: int | None = None, banish: bool | None = None) -> None:
    """Destroy a card on the field: it is sent to the Graveyard (or banished); its Equip Cards
    and Xyz Materials follow it (``move``)."""
    if not c.on_field:
        return
    if reason not in ("battle", "rule") and effect_indestructible(ctx.s, c):
        return  # "cannot be destroyed by card effects" (Tiras)
    if by is not None and by in ctx.s.cards and unaffected(ctx.s, c, ctx.s.cards[by]):
        return  # "unaffected by Trap effects" (Elemental HERO Wildheart)
    controller = c.controller
    face_up = c.face_up  # "If this face-up card is destroyed" (Giant Kozaky, Zombie Mammoth)
    as_spell = equipped_as_spell(c)
    equipped_to = c.equipped_to
    ctx.emit(Destroyed(card=c.id, code=c.code, reason=reason, by=by))
    to = send_to_grave(ctx, c, reason=reason, by=by, banish=banish)
    event: GameEvent = {
        "kind": "destroyed",
        "card": c.id,
        "reason": reason,
        "by": by,
        "to": to,
        "controller": controller,
        "face_up": face_up,
    }
    if equipped_to is not None:
        event["equipped_to"] = equipped_to  # the monster it equipped (Premature Burial)
    raise_event(ctx, {**event, "equip_spell": True} if as_spell else event)


def destroy_all(ctx: Ctx, cards: list[Card], reason: str = "effect", by: int | None = None) -> None:
    """Destroy several cards at the same time (Dark Hole, Mirror Force, Light and Darkness Dragon)."""
    where = leaving_together(ctx, cards)
    for c in cards:
        destroy(ctx, c, reason=reason, by=by, banish=where[c.id])


def send_all_to_grave(ctx: Ctx, cards: list[Card], reason: str = "effect", by: int | None = None) -> None:
    """Send several cards to the Graveyard at the same time (Last Turn), except those unaffected
    by the card that sends them (Elemental HERO Wildheart and a Trap, ruling GEN-3)."""
    src = ctx.s.cards.get(by) if by is not None else None
    if src is not None:
        cards = [c for c in cards if not unaffected(ctx.s, c, src)]
    where = leaving_together(ctx, cards)
    for c in cards:
        send_to_grave(ctx, c, reason=reason, by=by, banish=where[c.id])


def banish(ctx: Ctx, c: Card, reason: str = "effect") -> None:
    move(ctx, c, "banished", reason=reason)


def to_hand(ctx: Ctx, c: Card, reason: str = "effect") -> None:
    move(ctx, c, "hand", reason=reason)


def damage(ctx: Ctx, seat: int, amount: int, reason: str = "effect") -> None:
    if amount <= 0:
        return
    lp = ctx.s.players[seat].lp
    ctx.emit(LifePoints(seat=seat, lp=max(0, lp - amount), delta=-amount, reason=reason))
    if reason == "battle":
        raise_event(ctx, {"kind": "battle_damage", "seat": seat, "amount": amount})
    check_win(ctx)


def damage_both(ctx: Ctx, amount: int, first: int) -> None:
    """Inflict ``amount`` effect damage to both players at the same time (``first``'s LP change
    first): the Duel is judged after both (both at 0 LP: a draw; ruling GEN-2)."""
    if amount <= 0:
        return
    for seat in (first, other(first)):
        lp = ctx.s.players[seat].lp
        ctx.emit(LifePoints(seat=seat, lp=max(0, lp - amount), delta=-amount, reason="effect"))
    check_win(ctx)


def gain_lp(ctx: Ctx, seat: int, amount: int) -> None:
    lp = ctx.s.players[seat].lp
    ctx.emit(LifePoints(seat=seat, lp=lp + amount, delta=amount, reason="effect"))


def pay_lp(ctx: Ctx, seat: int, amount: int) -> None:
    lp = ctx.s.players[seat].lp
    ctx.emit(LifePoints(seat=seat, lp=max(0, lp - amount), delta=-amount, reason="cost"))
    check_win(ctx)


def pay_half_lp(ctx: Ctx, seat: int) -> None:
    """Cost: "Pay half your Life Points" (Solemn Judgment), rounded down."""
    pay_lp(ctx, seat, ctx.s.players[seat].lp // 2)


def negate_summon(ctx: Ctx, c: Card, by: int) -> bool:
    """Negate the Summon of the monster that would be Summoned now (the ``summoning`` window,
    ``main_phase.would_be_summoned``), and destroy it (Solemn Judgment: "negate the Summon ...,
    and if you do, destroy that card"; ruling SUM-3): it was never Summoned, its summon effects do
    not activate; a Normal Summon stays used. False if that Summon is no longer waiting."""
    ev = ctx.s.event
    if ev is None or ev.get("kind") != EventKind.SUMMONING or ev.get("card") != c.id or c.zone != Zone.MONSTERS:
        return False
    ctx.emit(Negated(link=0, what="summon", card=c.id, code=c.code))
    ctx.emit(Event(event=None))
    destroy(ctx, c, reason="effect", by=by)
    return True


def draw(ctx: Ctx, seat: int, n: int = 1) -> None:
    for _ in range(n):
        deck = ctx.s.players[seat].deck
        if not deck:
            if not ctx.s.finished:
                ctx.emit(DuelEnded(winner=other(seat), reason="deck_out"))
            return
        cid = deck[0]
        ctx.emit(Drew(seat=seat, card=cid, code=ctx.s.cards[cid].code, private=seat))


def special_summon(
    ctx: Ctx, c: Card, seat: int, position: str = "attack", face_up: bool = True, how: str = "special"
) -> bool:
    """Special Summon ``c`` to ``seat``'s side by an effect (``how``: "special", or "extra" for a
    Special Summon from the Fusion Deck that counts as its proper Summon, ruling SUM-31); False
    if it may not be Summoned (``stats.can_summon``) or there is no free Monster Zone."""
    s = ctx.s
    if not has_free_zone(s, seat) or not can_summon(s, c, seat, how):
        return False
    came_from = c.zone
    move(ctx, c, "monsters", controller=seat, position=position, face_up=face_up)
    ctx.emit(Summoned(card=c.id, code=c.code, kind="special", seat=seat, layout=Summoned.SEAT_LAST))
    if how == "extra" and not properly_summoned(s, c):
        ctx.emit(Used(key=f"proper_summon:{c.id}"))  # it may be revived later (ruling SUM-1)
    raise_event(ctx, {"kind": "summoned", "card": c.id, "how": "special", "seat": seat, "came_from": came_from})
    return True


def make_token(ctx: Ctx, code: int, seat: int, by: int, position: str = "defense") -> Card | None:
    """Special Summon a Token (``code``: ``engine.cards.TOKENS``) face-up in ``position`` to
    ``seat``'s side of the field, Summoned by ``by`` (Scapegoat, Ojama Trio): a new card of the
    duel, which ceases to exist when it leaves the field (``move``). None without a free Monster
    Zone. Whether it may be Summoned is the caller's to check (``stats.can_summon_token``)."""
    s = ctx.s
    if not has_free_zone(s, seat):
        return None
    cid = max(s.cards, default=0) + 1
    ctx.emit(TokenMade(card=cid, code=code, seat=seat, summoner=by, position=position, slot=monster_slot(s, seat)))
    raise_event(ctx, {"kind": "summoned", "card": cid, "how": "special", "seat": seat, "summoner": by})
    return s.cards[cid]


def negate_pending_triggers(ctx: Ctx, c: Card) -> None:
    """The effects of ``c`` are negated (Dark Balter the Terrible: "The effect of an Effect
    Monster that this monster destroys as a result of battle is negated"): its trigger effects
    waiting to be activated are dropped (a ``note`` says why)."""
    s = ctx.s
    waiting = [i for i, t in enumerate(s.triggers) if t.card == c.id]
    ctx.emit(Note(what="effects_negated", card=c.id, code=c.code))
    for i in reversed(waiting):
        ctx.emit(TriggerDone(index=i, skipped=True))


def set_counters(ctx: Ctx, c: Card, name: Counter, count: int) -> None:
    ctx.emit(Counters(card=c.id, name=name.value, count=max(0, count)))


def check_win(ctx: Ctx) -> None:
    s = ctx.s
    if s.finished:
        return
    zero = [seat for seat in (0, 1) if s.players[seat].lp <= 0]
    if len(zero) == 2:
        ctx.emit(DuelEnded(winner="draw", reason="lp"))
    elif zero:
        ctx.emit(DuelEnded(winner=other(zero[0]), reason="lp"))


class ScriptTables:
    """What the registered scripts answer, worked out once (again if a script is registered
    later): per event kind the codes whose script watches it (``Script.watch_on``; a script
    with none watches every kind) and the ``roster`` key of those cards; per event kind the
    codes whose trigger or FLIP effects answer it, each with those effects (and their 1-based
    indices); the codes whose script may destroy itself. ``raise_event`` visits only those
    cards and effects instead of every card of the duel three times."""

    def __init__(self) -> None:
        self.count = -1  # ``len(SCRIPTS)`` when worked out
        self.watch_all: frozenset[int] = frozenset()  # scripts that watch every kind
        self.watching: dict[str, frozenset[int]] = {}  # kind -> the scripts that watch it (and all kinds)
        self.watch_keys: dict[str, tuple[str, ...]] = {}  # kind -> its ``roster`` key
        self.answering: dict[str, dict[int, tuple[tuple[int, Effect], ...]]] = {}
        self.self_destroying: frozenset[int] = frozenset()


_TABLES: Final = ScriptTables()


def script_tables() -> ScriptTables:
    """The tables of the scripts registered now."""
    t = _TABLES
    if t.count != len(SCRIPTS):
        answering: dict[str, dict[int, tuple[tuple[int, Effect], ...]]] = {}
        for code, sc in SCRIPTS.items():
            for idx, e in enumerate(sc.effects, start=1):
                if e.kind in ("trigger", "flip") and e.trigger_on:
                    by_code = answering.setdefault(e.trigger_on, {})
                    by_code[code] = (*by_code.get(code, ()), (idx, e))
        watchers = {code: sc.watch_on for code, sc in SCRIPTS.items() if sc.watch is not None}
        t.watch_all = frozenset(code for code, kinds in watchers.items() if not kinds)
        kinds = {k for on in watchers.values() for k in on}
        t.watching = {k: t.watch_all | {code for code, on in watchers.items() if k in on} for k in sorted(kinds)}
        t.watch_keys = {k: (*WATCHING, k) for k in sorted(kinds)}
        t.answering = answering
        t.self_destroying = frozenset(code for code, sc in SCRIPTS.items() if sc.self_destroy is not None)
        t.count = len(SCRIPTS)
    return t


WATCHING: Final[tuple[str, ...]] = ("watching",)
"""The ``roster`` key of the cards whose scripts watch every event kind (event kinds are
strings); ``("watching", kind)``, of those that watch ``kind`` too."""


def roster(s: State, key: str | tuple[str, ...], codes: Collection[int]) -> tuple[Any, ...]:
    """The ids of the cards of ``s`` whose code is in ``codes`` (the codes that answer the
    event kind ``key``, that watch every event, ...: ``script_tables``), in the order of
    ``s.cards`` (worked out once per duel and key). Read only."""
    return memo.roster(s, key, len(SCRIPTS), codes)


def raise_event(ctx: Ctx, event: GameEvent) -> None:
    """Record the trigger effects that ``event`` activates (they go on the chain later).

    Trigger effects answer events by kind (``destroyed``, ``battle_damage``,
    ``flipped``, ``sent_to_grave``...); each card's ``trigger_match`` decides
    whether this one is its event (ruling DS-9; seed 003, end of the Damage Step).
    """
    s = ctx.s
    if s.finished:
        return
    tables = script_tables()
    kind = event["kind"]
    key = tables.watch_keys.get(kind, WATCHING)
    for c in [s.cards[cid] for cid in roster(s, key, tables.watching.get(kind, tables.watch_all))]:
        sc = SCRIPTS[c.data.key]
        if sc.watch is not None and not equipped_as_spell(c):
            sc.watch(ctx, c, event)
    effects = tables.answering.get(kind)
    if effects is None:
        return  # no card of any duel answers this kind of event
    answering = roster(s, kind, effects)
    # a card that left the field as an Equip Spell Card does not answer its own leaving as a
    # monster would (ruling EQ-1)
    was_spell = event.get("card") if event.get("equip_spell") else None
    for seat in (s.turn_player, other(s.turn_player)):
        for cid in answering:
            c = s.cards[cid]
            if c.controller != seat or cid == was_spell:
                continue
            if c.zone == Zone.SPELLS_TRAPS and (c.data.is_monster or (s.chain and cid in activating(s))):
                continue  # an Equip Spell Card that is a monster (EQ-1); a card not yet resolved (CH-7)
            if c.zone == Zone.MONSTERS and c.face_up and is_negated(s, c):
                continue  # a monster whose effects are negated activates none (Blade Knight)
            for idx, eff in effects[c.data.key]:  # its effects that answer this kind, in order
                if eff.trigger_match is not None and not eff.trigger_match(s, c, event):
                    continue
                hidden = c.zone in (Zone.HAND, Zone.DECK, Zone.EXTRA) or (c.on_field and not c.face_up)
                ctx.emit(
                    Triggered(
                        card=c.id,
                        code=c.code,
                        effect=idx,
                        seat=c.controller,
                        event=event,
                        mandatory=not eff.optional,
                        private=c.controller if hidden else ABSENT,
                    )
                )


def miss_timing(ctx: Ctx, keep: Collection[int] = ()) -> None:
    """Something else happens now: the optional "When ..." triggers waiting for an earlier event
    (``Effect.misses_timing``) miss their timing and leave the list (ruling CH-12). The chain
    calls it before each link after the first it resolves; an effect that goes on after the
    event it caused calls it itself ("Special Summon ..., then equip": Premature Burial).
    ``keep``: indices of pending triggers that wait on purpose (``chain.held_triggers``)."""
    s = ctx.s
    for i in reversed(range(len(s.triggers))):
        t = s.triggers[i]
        if i in keep or t.mandatory:
            continue
        effs = effects_of(s.cards[t.card])
        if 1 <= t.effect <= len(effs) and effs[t.effect - 1].misses_timing:
            ctx.emit(TriggerDone(index=i, skipped=True))


def flip_face_up(ctx: Ctx, c: Card, position: str | None = None, flip_effects: bool = True) -> None:
    """A face-down monster is flipped face-up by an effect; its FLIP effect activates (not when the
    effect says "Flip Effects are not activated": Ceasefire, ``flip_effects=False``)."""
    if c.zone != Zone.MONSTERS or c.face_up:
        return
    ctx.emit(Flipped(card=c.id, code=c.code, position=position or c.position))
    if flip_effects:
        raise_event(ctx, {"kind": "flipped", "card": c.id, "by_attack": False})


def change_position(ctx: Ctx, c: Card, position: str, face_up: bool = True) -> None:
    """An effect changes a monster's battle position (not the player's once-per-turn change)."""
    if c.zone != Zone.MONSTERS:
        return
    was_down = not c.face_up
    ctx.emit(
        PositionChanged(
            card=c.id,
            code=c.code if face_up or c.face_up else None,
            position=position,
            face_up=face_up,
            by_player=False,
        )
    )
    if was_down and face_up:
        raise_event(ctx, {"kind": "flipped", "card": c.id, "by_attack": False})
    if not was_down and not face_up:
        turned_face_down(ctx, c)


def detach(ctx: Ctx, host: Card, n: int = 1) -> bool:
    """Detach ``n`` Xyz Materials (to the Graveyard). False if it has fewer."""
    if len(host.materials) < n:
        return False
    for mid in list(host.materials)[:n]:
        send_to_grave(ctx, ctx.s.cards[mid], reason="detach")
    return True


def equip(ctx: Ctx, card: Card, to: Card, atk: int = 0) -> None:
    """Equip ``card`` to ``to``; an Equip Card "with this effect" may give it ``atk`` (Sword
    Hunter: 200; ``stats.stat`` adds it while the card is equipped)."""
    ctx.emit(Equipped(card=card.id, to=to.id))
    if atk:
        ctx.emit(Flag(card=card.id, name=CardFlag.EQUIP_ATK, value=atk))


def equip_monster(ctx: Ctx, c: Card, to: Card) -> bool:
    """Equip the monster card ``c`` (from a Monster Zone) to ``to`` as an Equip Card (Thousand-Eyes
    Restrict): it goes face-up to a Spell & Trap Zone of ``to``'s controller, a Spell Card there
    with no monster effects (ruling EQ-1). Leaving its Monster Zone, it takes its followers with
    it (its Equip Cards are destroyed, its Xyz Materials sent: rulings LF-1, EQ-2), and a monster
    that had to be properly Summoned was (SUM-1). False without a free Spell & Trap Zone."""
    s = ctx.s
    seat = to.controller
    if None not in s.players[seat].spells_traps:
        return False
    followers = _followers(ctx, c) if c.zone == Zone.MONSTERS else []
    if c.zone == Zone.MONSTERS and needs_proper_summon(c) and not properly_summoned(s, c):
        ctx.emit(Used(key=f"proper_summon:{c.id}"))
    ctx.emit(
        Moved(
            card=c.id,
            code=c.code,
            to=Zone.SPELLS_TRAPS,
            controller=seat,
            face_up=True,
            reason="equip",
            from_=c.zone,
            layout=Moved.CODE_FIRST,
        )
    )
    equip(ctx, c, to)
    for f in followers:
        if f.zone == Zone.XYZ_MATERIAL:
            send_to_grave(ctx, f, reason="rule")
        elif f.on_field:
            destroy(ctx, f, reason="rule")
    return True


def take_control(ctx: Ctx, c: Card, seat: int) -> None:
    """``seat`` takes control of the monster ``c`` until the End Phase, in its position (Enemy
    Controller, Earthbound Immortal Uru, Brain Control; Mind Control, a face-down one too);
    control returns to its owner when the End Phase starts (``flow``)."""
    control_to(ctx, c, seat, face_up=c.face_up)
    ctx.emit(Flag(card=c.id, name=CardFlag.RETURN_TO, value=c.owner))


def control_to(ctx: Ctx, c: Card, seat: int, face_up: bool) -> None:
    """``seat`` now controls the monster ``c`` (it stays in its position)."""
    ctx.emit(
        Moved(
            card=c.id,
            code=c.code,
            to=Zone.MONSTERS,
            controller=seat,
            position=c.position,
            face_up=face_up,
            reason="control",
            slot=monster_slot(ctx.s, seat),
            layout=Moved.CODE_FIRST,
        )
    )


def swap_control(ctx: Ctx, a: Card, b: Card) -> None:
    """Switch control of the monsters ``a`` and ``b`` (of different controllers) at once, each
    into the other's Monster Zone, in its position (Creature Swap): it needs no free zone."""
    slot_a, slot_b = a.slot, b.slot
    seat_a, seat_b = a.controller, b.controller
    for c, seat, slot in ((a, seat_b, slot_b), (b, seat_a, slot_a)):
        ctx.emit(
            Moved(
                card=c.id,
                code=c.code,
                to=Zone.MONSTERS,
                controller=seat,
                position=c.position,
                face_up=c.face_up,
                reason="control",
                slot=slot,
                layout=Moved.CODE_FIRST,
            )
        )


def return_control(ctx: Ctx, c: Card) -> None:
    """Control of the monster ``c`` returns to its owner now (Snatch Steal leaves the field; ruling
    EQ-30), in the position it is in; with no free Monster Zone on the owner's side it is sent to
    the Graveyard."""
    s = ctx.s
    if c.zone != Zone.MONSTERS or c.controller == c.owner:
        return
    if has_free_zone(s, c.owner):
        control_to(ctx, c, c.owner, face_up=c.face_up)
    else:
        send_to_grave(ctx, c, reason="rule")


def banish_when_it_leaves(ctx: Ctx, c: Card) -> None:
    """ "Banish it when it leaves the field" (Battle Fader): ``move`` banishes it whenever it would
    leave the field for any other place."""
    ctx.emit(Flag(card=c.id, name=CardFlag.BANISH_ON_LEAVE, value=True))


def forbid_attack_this_turn(ctx: Ctx, c: Card) -> None:
    """ "It cannot declare an attack this turn" (Jurrac Guaiba; ruling BS-7)."""
    ctx.emit(Flag(card=c.id, name=CardFlag.CANNOT_ATTACK_TURN, value=ctx.s.turn))


def allow_second_attack(ctx: Ctx, c: Card) -> None:
    """ "It can attack once again in a row" (Black Luster Soldier): one more attack in this Battle
    Phase, lost if another monster attacks first (ruling BS-30; ``battle_step.attacks_allowed``)."""
    ctx.emit(Flag(card=c.id, name=CardFlag.EXTRA_ATTACK, value=[ctx.s.turn, ctx.s.battle_phases]))


def forbid_tribute_this_turn(ctx: Ctx, c: Card) -> None:
    """ "It cannot be Tributed" for the rest of this turn (Mind Control; ``stats.tributable``)."""
    ctx.emit(Flag(card=c.id, name=CardFlag.NO_TRIBUTE, value=ctx.s.turn))


def forbid_position_change_this_turn(ctx: Ctx, c: Card) -> None:
    """ "Cannot change their battle positions for the rest of this turn" (Creature Swap;
    ``stats.position_locked``)."""
    ctx.emit(Flag(card=c.id, name=CardFlag.NO_POSITION_CHANGE, value=ctx.s.turn))


def restrict_attack(ctx: Ctx, c: Card, battle_phase: list[int], only: int, must: bool) -> None:
    """In the Battle Phase ``battle_phase`` ([turn, number]) ``c`` may attack only the monster
    ``only`` (never directly), and, if ``must``, must attack it (Last Turn; ruling CARD-1)."""
    if must:
        ctx.emit(Flag(card=c.id, name=CardFlag.MUST_ATTACK, value=list(battle_phase)))
    ctx.emit(Flag(card=c.id, name=CardFlag.ATTACK_ONLY, value=[*battle_phase, only]))


def allow_activation_from_grave(ctx: Ctx, c: Card, turn: int) -> None:
    """During ``turn`` the Spell Card ``c`` may be activated from the Graveyard by its owner, and
    stays there (Destiny HERO - Diamond Dude: "During the Main Phase of your next turn, you can
    activate the effect of that Spell Card in your Graveyard"; ruling GEN-1; ``chain``)."""
    ctx.emit(Flag(card=c.id, name=CardFlag.ACTIVATE_FROM_GRAVE, value=turn))


def shuffle_deck(ctx: Ctx, seat: int) -> None:
    """Shuffle ``seat``'s Deck with the duel's PRNG (the order and the new PRNG state are a fact)."""
    s = ctx.s
    new, order = rng.shuffled(s.rng, list(s.players[seat].deck))
    ctx.emit(Shuffled(seat=seat, order=order, rng=new))


def negate_attack(ctx: Ctx) -> None:
    """Negate the attack: it ends (it still counts as declared)."""
    if ctx.s.attack is not None:
        ctx.emit(AttackEnded(reason="negated"))


def end_battle_phase(ctx: Ctx, reason: str) -> None:
    """An effect ends the Battle Phase: it becomes the End Step at once (ruling BP-7; seed 000)."""
    s = ctx.s
    if s.phase != Phase.BATTLE or s.step == Step.END:
        return  # already the End Step: the Battle Phase is ending (its effects do not happen twice)
    if s.attack is not None:
        ctx.emit(AttackEnded(reason=reason))
    ctx.emit(PhaseBegan(phase=Phase.BATTLE, step=Step.END, reason=reason))
    raise_event(ctx, {"kind": "battle_phase_end", "seat": s.turn_player})


def delay(ctx: Ctx, seat: int, **effect: Any) -> None:
    """Something for ``seat``'s next turn: ``skip="main1"``, ``extra_battle_phases=1``."""
    ctx.emit(Delayed(seat=seat, effect=effect))


def lingering_flag(ctx: Ctx, name: str, value: int, until: str, source: int) -> None:
    """A lingering rule flag (no battle damage for a seat, a card indestructible by battle ...)."""
    ctx.emit(Modifier(card=-1, stat=name, op="flag", value=value, until=until, source=source))


def _fixed(ctx: Ctx, what: str) -> object | None:
    """The next outcome a scenario fixed in advance (``dice:`` / ``coins:``), if any; using it
    is a fact, so the fold removes it from the list."""
    fixed = ctx.s.options.get(what)
    if not fixed:
        return None
    ctx.emit(FixedOutcome(what=what))
    first: object = fixed[0]
    return first


def reveal_to(ctx: Ctx, seat: int, cards: list[int], to: int | None) -> None:
    """Show ``seat``'s cards (of its hand or Deck) to the player ``to`` (None: to both players, so
    to everyone): "look at your opponent's hand" (Trap Dustshoot), "both players reveal their
    hands" (Dragged Down into the Grave). Only those the text shows them to see which cards they
    are (``redaction``); the cards stay where they are. (``common.reveal`` shows one card to both
    players as a public note: Sangan.)"""
    if cards:
        ctx.emit(Revealed(seat=seat, shown_to=to, cards=list(cards), codes=[ctx.s.cards[c].code for c in cards]))


def forbid_activation(ctx: Ctx, seat: int, name: str) -> None:
    """For the rest of the Duel ``seat`` cannot activate cards named ``name`` (Cursed Seal of the
    Forbidden Spell: "your opponent cannot activate Spell Cards with that name for the rest of this
    Duel"); ``stats.activation_locked`` reads it."""
    ctx.emit(Used(key=forbidden_key(seat, name)))


def roll_die(ctx: Ctx, card: Card) -> int:
    """Roll a six-sided die for ``card``'s controller with the duel's PRNG (or the result a
    scenario fixed); the PRNG state and the public result are facts."""
    value = _fixed(ctx, "dice")
    if value is None:
        new, n = rng.below(ctx.s.rng, 6)
        ctx.emit(Rng(rng=new))
        value = n + 1
    result = int(str(value))
    ctx.emit(Note(what="die_roll", card=card.id, code=card.code, seat=card.controller, result=result))
    return result


def toss_coin(ctx: Ctx, card: Card) -> str:
    """Toss a coin for ``card``'s controller: "heads" or "tails" (PRNG, or fixed by a scenario)."""
    value = _fixed(ctx, "coins")
    if value is None:
        new, n = rng.below(ctx.s.rng, 2)
        ctx.emit(Rng(rng=new))
        value = ("heads", "tails")[n]
    result = str(value)
    ctx.emit(Note(what="coin_toss", card=card.id, code=card.code, seat=card.controller, result=result))
    return result


def pick_at_random(ctx: Ctx, ids: list[int]) -> int | None:
    """One of ``ids`` at random, with the duel's PRNG ("discard 1 random card": Don Zaloog,
    Spirit Reaper); the new PRNG state is a hidden fact. None when ``ids`` is empty."""
    if not ids:
        return None
    new, n = rng.below(ctx.s.rng, len(ids))
    ctx.emit(Rng(rng=new))
    return ids[n]
