"""Chains, priority and Spell Speeds (seeds 002 and 003).

- Spell Speed 1 (Normal/Continuous/Field/Equip Spells, Ignition effects): only
  the turn player, in their Main Phase, on an empty chain in an open game state.
- Spell Speed 2 (Quick-Play Spells, Normal and Continuous Traps, Quick and
  Trigger effects) and Spell Speed 3 (Counter Traps): whenever that player has
  priority; a chain link must be of equal or higher Spell Speed than the link
  it responds to.
- Set Traps and Set Quick-Play Spells cannot be activated the turn they were
  Set; Quick-Play Spells from the hand only during your own turn.
- "When ..." cards answer an event only in the chain that answers it: once that
  chain resolves (or both players pass) the event is gone (002, Examples 1-3).
- Costs are paid and targets chosen at activation; the chain resolves last in,
  first out; each effect checks its targets as it resolves (002, Example 4).
- In the Damage Step only the cards that say so may be activated, each in its
  timings; during damage calculation only those that say "during damage
  calculation" and cards that negate them, one chain only (003, 004).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from .battle.damage_step import one_chain_only
from .ctx import Ctx
from .effects.base import SCRIPTS, Effect, effects_of, script_of
from .effects.choices import Answer, ask_cards, continuation
from .events import GameEvent, LeftCard
from .facts import (
    ABSENT,
    Activated,
    ChainResolved,
    ChainResolving,
    Event,
    Flag,
    LinkResolved,
    LinkResolving,
    Moved,
    Note,
    Targeted,
    TriggerDone,
)
from .formats import format_of, rules_of
from .kernel.caches import held_ids
from .ops import destroy, miss_timing, raise_event, send_to_grave
from .state import Card, Link, State
from .stats import activation_locked, can_target, is_negated, target_filter, tributable_for_summon
from .types import MAIN_PHASES, CardFlag, ChoiceKind, EventKind, Step, WireAction, Zone, other


def link_speed(s: State, link: Link) -> int:
    card = s.cards[link.card]
    effs = effects_of(card)
    if 1 <= link.effect <= len(effs):
        return effs[link.effect - 1].speed
    return 2


def event_blocks(s: State) -> bool:
    """An event is waiting for its answer (an attack declaration, a summon). A "soft" event
    (monsters that just left the field) may be answered by "When ..." cards, but does not stop
    the turn player from acting: if they act first, the timing is gone."""
    return s.event is not None and not s.event.get("soft")


def event_kinds(ev: GameEvent | None) -> set[str]:
    """The kinds of event a "When ..." card may answer now: the event itself, and "left_field"
    when monsters were also sent from the field with it (the Tributes of a summon, a cost)."""
    if ev is None:
        return set()
    kinds = {str(ev.get("kind"))}
    if ev.get("left"):
        kinds.add(EventKind.LEFT_FIELD.value)
    return kinds


def field_snapshot(s: State) -> list[list[Any]]:
    """[card, controller, position, face_up] of each monster on the field (to see what left it)."""
    return [[c.id, c.controller, c.position, c.face_up] for sd in (0, 1) for c in s.monsters(sd)]


def note_left_field(ctx: Ctx, was: list[list[Any]], reason: str) -> None:
    """Monsters of ``was`` that a summon's Tributes or an activation's cost sent from the field
    open a "when ... sent to the Graveyard" window (ruling LF-3): Michizure may answer it in the
    chain that follows, along with the event it came with."""
    s = ctx.s
    left = _left_field(s, was, set(), reason)
    if not left:
        return
    ev = s.event
    if ev is None:
        ctx.emit(Event(event={"kind": EventKind.LEFT_FIELD.value, "cards": left}))
    elif ev.get("kind") == EventKind.LEFT_FIELD:
        ctx.emit(Event(event={**ev, "cards": [*ev.get("cards", []), *left]}))
    else:
        ctx.emit(Event(event={**ev, "left": [*ev.get("left", []), *left]}))


def summons_negatable(s: State) -> bool:
    """The duel's format has a card that negates a Summon (Solemn Judgment in Goat): without one
    in its pool, no player could ever use the window in which a monster would be Summoned."""
    return any(
        e.negates_summon for code in format_of(s).pool if (sc := SCRIPTS.get(code)) is not None for e in sc.effects
    )


def chain_summons_answerable(s: State) -> bool:
    """The duel's format has a card that answers a Special Summon made while a chain resolved
    (``Effect.answers_chain_summons``: Torrential Tribute in Goat): without one in its pool, the
    window after that chain (ruling SUM-4) is never opened."""
    return any(
        e.answers_chain_summons
        for code in format_of(s).pool
        if (sc := SCRIPTS.get(code)) is not None
        for e in sc.effects
    )


def may_answer_summon(s: State, seat: int) -> bool:
    """Whether ``seat`` is given the window in which a monster would be Summoned (ruling SUM-3),
    judged from what both players can see, so that being asked betrays nothing: the duel's format
    has a card that negates a Summon (``summons_negatable``), and the player has a face-down Spell
    or Trap Card it Set before this turn (any of them may be that Counter Trap), or a face-up card
    of its own with an effect that negates a Summon, or, while any card's effect that negates a
    Summon is activated from the hand, a card in its hand."""
    might = any(
        (c.zone in _SPELL_ZONES and not c.face_up and c.set_turn < s.turn)
        or (c.face_up and any(e.negates_summon for e in effects_of(c)))
        for c in s.field_cards(seat)
    ) or (
        bool(s.players[seat].hand)
        and any(e.negates_summon and e.from_hand for sc in SCRIPTS.values() for e in sc.effects)
    )
    return might and summons_negatable(s)


def summon_window_skips(s: State) -> bool:
    """The player with priority in the ``summoning`` window, before any chain, is not given it
    (``may_answer_summon``): the rules pass for them."""
    ev = s.event
    return (
        ev is not None
        and ev.get("kind") == EventKind.SUMMONING
        and not s.chain
        and s.choice is None
        and not may_answer_summon(s, s.priority)
    )


def open_state(s: State) -> bool:
    """An open game state: empty chain, no event waiting for an answer."""
    return not s.chain and not event_blocks(s) and s.choice is None


_SPELL_ZONES: Final = frozenset({Zone.SPELLS_TRAPS, Zone.FIELD})
_ON_FIELD: Final = frozenset({Zone.MONSTERS, Zone.SPELLS_TRAPS, Zone.FIELD})
_CARD_ACTIVATIONS: Final = frozenset({"spell", "trap"})


def _from_where_ok(s: State, card: Card, eff: Effect, seat: int) -> bool:
    """May ``seat`` activate ``eff`` of ``card`` from where the card is now?"""
    zone = card.zone
    if eff.kind in _CARD_ACTIVATIONS:
        if zone == Zone.HAND:
            return _from_hand_ok(s, card, seat)
        if card.controller != seat:
            return False
        if zone in _SPELL_ZONES:
            if card.face_up:
                # a face-up Continuous card's own later effects use kind "quick"/"ignition"
                return False
            data = card.data
            if data.is_trap or data.prop == "quick-play":
                return card.set_turn < s.turn
            return True
        if zone == Zone.GRAVEYARD:
            # a Spell whose activation an effect allowed from the Graveyard this turn; it stays there
            # (``ops.allow_activation_from_grave``: Destiny HERO - Diamond Dude, ruling GEN-1)
            return card.owner == seat and card.flags.get(CardFlag.ACTIVATE_FROM_GRAVE) == s.turn and card.data.is_spell
        return False
    if eff.from_hand:
        return zone == Zone.HAND and card.owner == seat
    if eff.from_grave:
        return zone == Zone.GRAVEYARD and card.owner == seat
    # effects of a face-up card on the field; a monster's only from a Monster Zone (one equipped
    # as an Equip Spell Card is a Spell Card: no monster effects, ruling EQ-1)
    if card.data.is_monster:
        return zone == Zone.MONSTERS and card.face_up and card.controller == seat
    return zone in _ON_FIELD and card.face_up and card.controller == seat


def _from_hand_ok(s: State, card: Card, seat: int) -> bool:
    """May ``seat`` activate the Spell ``card`` from its hand (placing it on the field)?"""
    data = card.data
    if card.owner != seat or data.is_trap:
        return False
    if data.prop == "field":
        return True
    if None not in s.players[seat].spells_traps:
        return False
    if data.prop == "quick-play":
        return s.turn_player == seat
    return True


def _timing_ok(s: State, card: Card, eff: Effect, seat: int) -> bool:
    speed = eff.speed
    if s.choice is not None or s.finished:
        return False
    if not s.chain and s.event is not None and s.event.get("kind") == EventKind.SUMMONING and not eff.negates_summon:
        return False  # a monster would be Summoned: only an effect that negates the Summon starts a chain
    if s.chain:
        top = link_speed(s, s.chain[-1])
        if speed < 2 or speed < top:
            return False
    if speed == 1:
        return seat == s.turn_player and s.phase in MAIN_PHASES and (open_state(s) or _ignition_priority(s, card, eff))
    if eff.event is not None and eff.event not in event_kinds(s.event):
        return False
    if eff.only_in_damage_step and s.step != Step.DAMAGE:
        return False
    if s.step == Step.DAMAGE:
        timing = s.damage_step or ""
        if one_chain_only(s):
            if s.chains_in_timing > 0:
                return False
            if timing in eff.damage_step:
                return True
            return bool(s.chain) and eff.negates
        if timing in eff.damage_step:
            return True
        return bool(s.chain) and card.data.prop == "counter"
    if s.attack is not None and s.attack.replay:
        return False
    return True


def _ignition_priority(s: State, card: Card, eff: Effect) -> bool:
    """Goat priority (rulings PRI-1, PRI-2; docs/adr/0010-goat-ignition-priority.md): right after
    the turn player's Summon, before anyone has passed or responded, the turn player may also
    activate the Ignition effect of a monster on the field. It starts the chain that answers the
    Summon, so "When ... Summoned" cards may still be chained to it. Spell Speed 1 Spells still
    need an open game state. Only in a format whose rules say so (``Rules.ignition_priority``)."""
    ev = s.event
    return (
        ev is not None
        and ev.get("kind") == EventKind.SUMMONED
        and eff.kind == "ignition"
        and card.zone == Zone.MONSTERS
        and not s.chain
        and s.passes == 0
        and rules_of(s).ignition_priority
    )


def once_key_for(card_id: int, code: int, controller: int, once_per: str | None, idx: int) -> str | None:
    """The ``State.used`` key of a once-per-turn or once-per-Duel effect (None for others)."""
    if once_per == "turn":
        # "Once per turn": each copy once (a hard "only once per turn" by name is "name_turn")
        return f"{card_id}:{idx}:turn"
    if once_per == "name_turn":
        return f"{code}:{idx}:turn:{controller}"
    if once_per == "duel":
        return f"{code}:{idx}:duel:{controller}"
    return None


def once_key(card: Card, eff: Effect, idx: int, s: State) -> str | None:
    if eff.once_per == "battle" and s.attack is not None:
        return f"{card.id}:{idx}:battle:{s.turn}:{s.attack.attacker}:{s.battle_phases}:{s.attack.target}"
    if eff.once_per == "chain":
        return f"{card.id}:{idx}:chain:{s.chain_no}"
    return once_key_for(card.id, card.code, card.controller, eff.once_per, idx)


def can_activate(s: State, card: Card, idx: int, eff: Effect, seat: int) -> bool:
    """May ``seat`` activate ``eff`` of ``card`` now: where the card is first (most cards are
    where their effects cannot be activated from), then the timing, locks, once-per limits and
    the condition."""
    if eff.kind in ("trigger", "flip") or not _from_where_ok(s, card, eff, seat):
        return False
    if not _timing_ok(s, card, eff, seat):
        return False
    if activation_locked(s, card, seat):
        return False
    key = once_key(card, eff, idx, s)
    if key is not None and key in s.used and (eff.once_per in ("duel", "chain", "battle") or s.used[key] == s.turn):
        return False
    if any(link.card == card.id for link in s.chain):
        return False
    return eff.condition(s, card, seat)


def activation_actions(s: State, seat: int) -> list[WireAction]:
    """Every legal activation for ``seat`` now, fully specified."""
    out: list[WireAction] = []
    if s.priority != seat or s.choice is not None:
        return out
    scripts = SCRIPTS
    for card in _candidate_cards(s, seat):
        sc = scripts.get(card.data.key)
        if sc is None:
            continue
        for idx, eff in sc.activatable:  # trigger and FLIP effects are never activated by a player
            if can_activate(s, card, idx, eff, seat):
                out.extend(_options(s, card, idx, eff, seat))
    return out


def _options(s: State, card: Card, idx: int, eff: Effect, seat: int) -> list[WireAction]:
    """Every fully specified activation of one effect: targets x costs x choices."""
    out: list[WireAction] = []
    costs = eff.cost_options(s, card, seat) if eff.cost_options else [[]]
    rules = target_filter(s, card, seat)  # targets that may not be chosen (King Dragun's Dragons)
    if eff.modes is not None:
        # each (targets, choose): the choice decides what it targets (Cliff the Trap Remover)
        for tg, ch in eff.modes(s, card, seat):
            if rules and not _may_target(s, card, seat, tg, rules):
                continue
            for cost in costs:
                out.append(_activation(card, idx, tg, cost, ch))
        return out
    choices: list[list[Any]] = eff.choices(s, card, seat) if eff.choices else [[]]
    fits = eff.fits
    for tg in eff.targets(s, card, seat):
        if rules and not _may_target(s, card, seat, tg, rules):
            continue  # the choice names a target that may not be chosen: it is left out
        for cost in costs:
            if fits is not None and not fits(s, card, seat, tg, cost):
                continue
            for ch in choices:
                out.append(_activation(card, idx, tg, cost, ch))
    return out


def _may_target(s: State, card: Card, seat: int, tg: list[int], rules: list[tuple[Card, Any]]) -> bool:
    cards = s.cards
    return all(can_target(s, cards[t], card, seat, rules) for t in tg)


def _activation(card: Card, idx: int, tg: list[int], cost: list[int], ch: list[Any]) -> WireAction:
    a: WireAction = {"do": "activate", "card": card.id, "effect": idx}
    if tg:
        a["target"] = list(tg)
    if cost:
        a["cost"] = list(cost)
    if ch:
        a["choose"] = list(ch)
    return a


def trigger_actions(s: State, index: int) -> list[WireAction]:
    """The ways to activate a pending trigger effect (its targets, costs and choices); none when
    its ``condition`` fails (an effect that selects at resolution needs something to select:
    "Special Summon 1 ... from your Deck" with no such monster, or no free zone)."""
    trig = s.triggers[index]
    card = s.cards[trig.card]
    eff = effects_of(card)[trig.effect - 1]
    if not eff.condition(s, card, trig.controller):
        return []
    return _options(s, card, trig.effect, eff, trig.controller)


def _candidate_cards(s: State, seat: int) -> list[Card]:
    """The cards ``seat`` might activate something of: its hand and Graveyard, every field card."""
    cards = s.cards
    p = s.players[seat]
    out = [cards[c] for c in held_ids(p.hand)]
    out += [cards[c] for c in held_ids(p.graveyard)]
    for sd in (0, 1):
        q = s.players[sd]
        out += [cards[c] for c in q.monsters if c is not None]
        out += [cards[c] for c in q.spells_traps if c is not None]
        if q.field_zone is not None:
            out.append(cards[q.field_zone])
    return out


def activate(
    ctx: Ctx, seat: int, card: Card, idx: int, targets: list[int], cost: list[int], choose: list[Any] | None = None
) -> None:
    """Activate: place the card, pay the cost, choose targets, add the chain link."""
    s = ctx.s
    eff = effects_of(card)[idx - 1]
    if eff.kind in ("spell", "trap") and card.zone == Zone.HAND:
        zone = "field" if card.data.prop == "field" else "spells_traps"
        if zone == "field":
            _clear_field_zone(ctx, seat)
        ctx.emit(
            Moved(card=card.id, to=zone, face_up=True, code=card.code, from_="hand", layout=Moved.FROM_HAND_TO_ACTIVATE)
        )
    if eff.kind == "spell" and card.zone == Zone.GRAVEYARD and card.flags.get(CardFlag.ACTIVATE_FROM_GRAVE) is not None:
        ctx.emit(Flag(card=card.id, name=CardFlag.ACTIVATE_FROM_GRAVE, value=None))  # used
    data: dict[str, Any] = {"answers": len(s.chain)}
    if s.choice is not None and s.choice.get("kind") == ChoiceKind.AHEAD:
        data["ahead"] = list(s.choice["kinds"])  # activated ahead of these triggers (DS-8)
    if cost:
        data["cost"] = list(cost)
    if choose:
        data["choose"] = list(choose)
    was = field_snapshot(s)
    if eff.cost is not None:
        eff.cost(ctx, card, seat, data)
    key = once_key(card, eff, idx, s)
    ctx.emit(
        Activated(
            seat=seat,
            card=card.id,
            code=card.code,
            effect=idx,
            link=len(s.chain) + 1,
            targets=list(targets),
            data=data,
            once=key if key else ABSENT,
        )
    )
    note_left_field(ctx, was, "cost")
    _activation_event(ctx, card, seat)
    if eff.more_targets > 0 and targets and s.choice is None:
        _more_targets(ctx, seat, {"link": len(s.chain), "left": eff.more_targets})


def _more_targets(ctx: Ctx, seat: int, d: dict[str, Any]) -> None:
    """ "Target up to N": its player may pick one more target among those still possible (or
    stop: an empty answer), until ``left`` more were picked (``Effect.more_targets``)."""
    s = ctx.s
    link = s.chain[int(d["link"]) - 1]
    card = s.cards[link.card]
    eff = effects_of(card)[link.effect - 1]
    taken = set(link.targets)
    more = [t[0] for t in eff.targets(s, card, seat) if len(t) == 1 and t[0] not in taken]
    if int(d["left"]) > 0 and more and not s.finished:
        ask_cards(ctx, seat, more, "chain.more_targets", d, optional=True, source=card.id)


@continuation("chain.more_targets")
def _another_target(ctx: Ctx, seat: int, answer: Answer, d: dict[str, Any]) -> None:
    picked = answer if isinstance(answer, list) else []
    if not picked:
        return
    for cid in picked:
        ctx.emit(Targeted(link=int(d["link"]), card=cid, code=ctx.s.cards[cid].code))
    _more_targets(ctx, seat, {**d, "left": int(d["left"]) - len(picked)})


def activate_trigger(ctx: Ctx, index: int, choice: WireAction | None = None) -> None:
    """Put a pending trigger on the chain; ``choice`` is one of ``trigger_actions`` (default: the
    first, for a mandatory trigger with a single way to activate)."""
    s = ctx.s
    trig = s.triggers[index]
    card = s.cards[trig.card]
    eff = effects_of(card)[trig.effect - 1]
    if choice is None:
        opts = trigger_actions(s, index)
        choice = opts[0] if opts else {}
    targets = list(choice.get("target", []))
    data: dict[str, Any] = {"event": trig.event}
    if choice.get("cost"):
        data["cost"] = list(choice["cost"])
    if choice.get("choose"):
        data["choose"] = list(choice["choose"])
    ctx.emit(TriggerDone(index=index))
    was = field_snapshot(s)
    if eff.cost is not None:
        eff.cost(ctx, card, trig.controller, data)
    ctx.emit(
        Activated(
            seat=trig.controller,
            card=card.id,
            code=card.code,
            effect=trig.effect,
            link=len(s.chain) + 1,
            targets=list(targets),
            data=data,
            trigger=True,
        )
    )
    note_left_field(ctx, was, "cost")
    _activation_event(ctx, card, trig.controller)


def _activation_event(ctx: Ctx, card: Card, seat: int) -> None:
    """Every activation is an event that trigger effects may answer: Light and Darkness Dragon
    ("when a Spell Card, Trap Card, or monster effect is activated: ... that activation is
    negated", compulsory; ruling DS-5; seed 003 names it among the cards that negate during damage
    calculation)."""
    raise_event(ctx, {"kind": "activated", "link": len(ctx.s.chain), "card": card.id, "seat": seat})


def resolve_chain(ctx: Ctx) -> bool:
    """Resolve the links, last in first out; True once the whole chain has resolved.

    A link whose effect asks for a selection at resolution (ruling SEL-1) leaves a pending
    ``State.choice``: resolution stops there (False) and goes on, from the rest of that link,
    once the player has answered (``State.resolving`` says where it was).

    Monsters that left the field while it resolved open a (soft) ``left_field`` window that
    "When a monster is sent from the field to the Graveyard ..." cards answer (Michizure,
    Chthonian Blast; ruling LF-3)."""
    s = ctx.s
    # a link of this chain has begun to resolve already (resuming after a selection)
    one_resolved = s.resolving is not None
    if s.resolving is None:
        ctx.emit(ChainResolving(was=field_snapshot(s)))
    while s.chain and not s.finished:
        n = len(s.chain)
        link = s.chain[-1]
        assert s.resolving is not None
        if s.resolving.started != n:
            if one_resolved:
                # a later link resolved before this one: the optional "When ..." triggers it
                # caused miss their timing (ruling CH-12)
                miss_timing(ctx, held_triggers(s))
            ctx.emit(LinkResolving(link=n))
            _resolve_link(ctx, link, n)
            if s.choice is not None:
                return False
        _finish_link(ctx, link, n)
        one_resolved = True
    resolving = s.resolving
    ctx.emit(ChainResolved())
    was = resolving.was if resolving else []
    left = _left_field(s, was, set(resolving.destroyed) if resolving else set())
    summoned = _summoned_meanwhile(s, was)
    if summoned and not chain_summons_answerable(s):
        summoned = []
    if summoned and not s.finished and s.step != Step.DAMAGE:
        # "When a monster is Summoned" cards may answer a Special Summon made while the chain
        # resolved, in the chain that follows (ruling SUM-4), with those that answer what left
        ev: GameEvent = {"kind": EventKind.SUMMONED.value, "card": summoned[0], "how": "special", "soft": True}
        ctx.emit(Event(event={**ev, "left": left} if left else ev))
    elif left and not s.finished and s.step != Step.DAMAGE:
        ctx.emit(Event(event={"kind": EventKind.LEFT_FIELD.value, "cards": left, "soft": True}))
    if not s.finished:
        # effects that wait for the whole chain (Last Turn's Special Summon) watch this
        raise_event(ctx, {"kind": "chain_resolved"})
    return True


def _resolve_link(ctx: Ctx, link: Link, n: int) -> None:
    s = ctx.s
    card = s.cards[link.card]
    effs = effects_of(card)
    eff = effs[link.effect - 1] if 1 <= link.effect <= len(effs) else None
    if not link.negated and not link.effect_negated:
        # a targeted card may react as the effect resolves (Desrook Archfiend)
        for t in list(link.targets):
            tc = s.cards.get(t)
            tsc = script_of(tc) if tc is not None else None
            if tc is not None and tsc is not None and tsc.on_targeted is not None:
                tsc.on_targeted(ctx, tc, link, n)
    if link.negated or link.effect_negated or eff is None or _negated_on_field(s, card):
        ctx.emit(Note(what="no_effect", link=n, card=card.id, code=card.code))
    else:
        eff.resolve(ctx, link)


def _negated_on_field(s: State, card: Card) -> bool:
    """A Spell/Trap on the field whose effects a continuous effect negates as its link resolves
    (Jinzo: "Negate all Trap Card effects on the field", Summoned face-up by a link above it): its
    effect does nothing, though its activation was not negated (ruling CH-8). So does the effect
    of a face-up monster whose effects are negated then (Fiend Skull Dragon: "Negate the effects
    of Flip Effect Monsters")."""
    if card.data.is_monster:
        return card.zone == Zone.MONSTERS and card.face_up and is_negated(s, card)
    return card.on_field and is_negated(s, card)


def _finish_link(ctx: Ctx, link: Link, n: int) -> None:
    """A Normal Spell/Trap (or a negated card) leaves the field once its link has resolved."""
    s = ctx.s
    card = s.cards[link.card]
    if not link.negated:
        # a targeted card may react once the link has resolved (Spirit Reaper)
        for t in list(link.targets):
            tc = s.cards.get(t)
            tsc = script_of(tc) if tc is not None else None
            if tc is not None and tsc is not None and tsc.after_targeted is not None:
                tsc.after_targeted(ctx, tc, link)
    effs = effects_of(card)
    eff = effs[link.effect - 1] if 1 <= link.effect <= len(effs) else None
    if eff is not None and eff.kind in ("spell", "trap") and card.on_field:
        sc_ = script_of(card)
        # "After this card's activation, it remains on the field" (Swords of Revealing Light)
        remains = sc_ is not None and sc_.remains_on_field
        stays = (card.data.prop in ("field", "equip", "continuous") or remains) and not link.negated
        if stays and card.data.prop == "equip" and card.equipped_to is None:
            stays = False  # an Equip Spell that equipped no monster goes to the Graveyard (ruling EQ-30)
        if not stays:
            send_to_grave(ctx, card, reason="rule")
        elif eff.kind == "spell" and card.data.prop == "field" and rules_of(s).one_field_spell:
            _one_field_spell(ctx, card)
    ctx.emit(LinkResolved(link=n))


def _clear_field_zone(ctx: Ctx, seat: int) -> None:
    """A Field Spell is placed in the Field Zone of a player who has one there: the old one
    leaves first (ruling FMT-2). Today's rules send it to the Graveyard (it is not destroyed);
    under one face-up Field Spell between both players (Goat) it is destroyed."""
    s = ctx.s
    old = s.players[seat].field_zone
    if old is None:
        return
    card = s.cards[old]
    if rules_of(s).one_field_spell:
        destroy(ctx, card, reason="rule")
    else:
        send_to_grave(ctx, card, reason="rule")


def _one_field_spell(ctx: Ctx, card: Card) -> None:
    """Goat (``Rules.one_field_spell``, ruling FMT-2): the activation of a Field Spell has
    resolved with the card face-up in its Field Zone: the other player's face-up Field Spell is
    destroyed. Until then the old one stays and applies (it may answer the new one); a Field
    Spell destroyed or negated before it resolves destroys nothing."""
    s = ctx.s
    if card.zone != Zone.FIELD or not card.face_up:
        return
    for p in s.players:
        fid = p.field_zone
        if fid is not None and fid != card.id and s.cards[fid].face_up:
            destroy(ctx, s.cards[fid], reason="rule", by=card.id)


def _summoned_meanwhile(s: State, was: list[list[Any]]) -> list[int]:
    """The monsters on the field now that were not there when the chain began to resolve: Special
    Summoned while it resolved (Monster Reborn, Polymerization; face-down too)."""
    before = {row[0] for row in was}
    return [c.id for sd in (s.turn_player, other(s.turn_player)) for c in s.monsters(sd) if c.id not in before]


def _left_field(s: State, was: list[list[Any]], destroyed: set[int], reason: str = "effect") -> list[LeftCard]:
    out: list[LeftCard] = []
    for cid, controller, position, face_up in was:
        c = s.cards[cid]
        if c.zone in (Zone.GRAVEYARD, Zone.BANISHED):
            out.append(
                {
                    "card": cid,
                    "controller": controller,
                    "owner": c.owner,
                    "to": c.zone,
                    "position": position,
                    "face_up": face_up,
                    "reason": reason,
                    "destroyed": cid in destroyed,
                }
            )
    return out


def held_triggers(s: State) -> set[int]:
    """Pending triggers that wait while a card activated ahead of them is on the chain (ruling
    DS-8: Flashbang before "when battle damage is inflicted" effects)."""
    kinds = {k for link in s.chain for k in link.data.get("ahead", [])}
    return {i for i, t in enumerate(s.triggers) if t.event.get("kind") in kinds}


def ahead_actions(s: State, seat: int, kinds: list[str]) -> list[WireAction]:
    """Activations ``seat`` may make ahead of pending triggers of ``kinds`` (their window)."""
    import copy

    view = copy.copy(s)
    view.choice = None
    view.priority = seat
    out: list[WireAction] = []
    for a in activation_actions(view, seat):
        effs = effects_of(s.cards[a["card"]])
        if set(effs[int(a.get("effect", 1)) - 1].ahead_of) & set(kinds):
            out.append(a)
    return out


def trigger_group(s: State) -> list[int]:
    """The pending triggers that go on the chain next (ruling CH-5, SEGOC): the turn player's
    mandatory ones, then their optional ones, then the other player's mandatory ones, then
    their optional ones. Within the group its controller decides the order (the engine does not
    fix it by card id or zone): with more than one, they are asked which goes first."""
    tp = s.turn_player
    held = held_triggers(s)
    for seat, mandatory in ((tp, True), (tp, False), (1 - tp, True), (1 - tp, False)):
        group = [
            i for i, t in enumerate(s.triggers) if t.controller == seat and t.mandatory == mandatory and i not in held
        ]
        if group:
            return group
    return []


def tribute_options(s: State, seat: int, n: int) -> list[list[int]]:
    """The sets of ``n`` monsters ``seat`` may Tribute for a Tribute Summon or Set (not a Sheep
    Token, ``stats.tributable_for_summon``)."""
    cards = s.cards
    mons = [c for c in s.players[seat].monsters if c is not None and tributable_for_summon(s, cards[c])]
    return [list(combo) for combo in combinations(mons, n)]


def last_activator(s: State) -> int:
    return s.chain[-1].controller if s.chain else s.turn_player


__all__ = [
    "activate",
    "activate_trigger",
    "activation_actions",
    "can_activate",
    "last_activator",
    "open_state",
    "other",
    "resolve_chain",
    "trigger_actions",
    "trigger_group",
]
