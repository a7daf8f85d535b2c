"""Computed values: current ATK/DEF and the continuous effects the rules ask about.

Current ATK = original ATK (after changes to the original, e.g. Shrink halves
it), then gains and losses from resolved effects (each with its duration),
then continuous effects of face-up cards. Nothing here is stored: when the
source leaves the field its effect is simply no longer computed (issue 4).
"""

from __future__ import annotations

from typing import Any, Final

from .card_data import CardData
from .effects.base import LINGERING, Script, script_of
from .kernel import memo
from .state import Card, State
from .types import CardFlag, LingeringFlag, Position, Zone


def continuous_sources(s: State) -> list[tuple[Card, Script]]:
    """Face-up cards on the field whose continuous effects apply now, with their scripts, in a
    fixed order: not negated (Jinzo, Spell Canceller); a monster only in a Monster Zone (one
    equipped as an Equip Spell Card is a Spell Card and has no monster effects: Sword Hunter's
    "as an Equip Spell Card(s)", ruling EQ-1); a Continuous Spell/Trap only once its activation
    has resolved, never while that activation is still a link of the chain (ruling CH-7; seed
    003, TCG Substep 7: cards are banished "if Macro Cosmos is active").

    Read only: the list is the state's (worked out once per state or board)."""
    pending = bool(s.chain) and bool(activating(s))
    got: list[tuple[Card, Script]] = memo.sources(s, _continuous_sources, board_ok=not pending)
    return got


def activating(s: State) -> list[int]:
    """The Spell/Trap cards whose own activation is a link of the chain (empty chain: none)."""
    out: list[int] = []
    for link in s.chain:
        if link.trigger:
            continue
        sc = script_of(s.cards[link.card])
        if sc is not None and 1 <= link.effect <= len(sc.effects) and sc.effects[link.effect - 1].kind in _CARD_KINDS:
            out.append(link.card)
    return out


_CARD_KINDS: Final = frozenset({"spell", "trap"})


def _continuous_sources(s: State) -> tuple[list[tuple[Card, Script]], bool]:
    """The sources, and whether they depend on more than the board: a card on the field may
    negate another's effects, or a card on the field is being activated."""
    pending = activating(s) if s.chain else []
    cards = [
        (c, script_of(c))
        for c in s.face_up_field()
        if (c.zone == Zone.MONSTERS or not c.data.is_monster) and c.id not in pending
    ]
    negators = [(c, sc) for c, sc in cards if sc is not None and sc.negates is not None and c.data.is_monster]
    # a Spell/Trap that negates effects (Royal Decree) negates too, unless a monster negates it
    # (Jinzo); two of them negate each other
    negators += [
        (c, sc)
        for c, sc in cards
        if sc is not None and sc.negates is not None and not c.data.is_monster and not _negated_by(s, c, negators)
    ]
    out: list[tuple[Card, Script]] = []
    for c, sc in cards:
        if sc is not None and not _negated_by(s, c, negators):
            out.append((c, sc))
    return out, bool(negators) or bool(pending)


def equipped_as_spell(c: Card) -> bool:
    """A monster card in a Spell & Trap Zone: equipped as an Equip Spell Card (Sword Hunter: "Equip
    all those monsters ... as an Equip Spell Card(s)"), it is a Spell Card and has no monster
    effects (ruling EQ-1). The events of its leaving say so
    (``equip_spell``), and its own trigger effects do not answer them (``ops.raise_event``)."""
    return c.zone == Zone.SPELLS_TRAPS and c.data.is_monster


def is_spell_card(c: Card) -> bool:
    """A Spell Card: a Spell, or a monster equipped as an Equip Spell Card (ruling EQ-1; Spell
    Canceller negates its effects too)."""
    return c.data.is_spell or equipped_as_spell(c)


def _negated_by(s: State, c: Card, negators: list[tuple[Card, Script]]) -> bool:
    return any(src.id != c.id and n.negates is not None and n.negates(s, src, c) for src, n in negators)


def hooks(s: State, name: str) -> list[tuple[Card, Any]]:
    """(source, function) for every active continuous source whose script defines hook ``name``."""
    out: list[tuple[Card, Any]] = []
    for src, sc in continuous_sources(s):
        fn = getattr(sc, name)
        if fn is not None:
            out.append((src, fn))
    return out


def is_negated(s: State, card: Card) -> bool:
    """The card's effects are negated by a continuous effect (Jinzo, Spell Canceller)."""
    for src, sc in continuous_sources(s):
        if src.id != card.id and sc.negates is not None and sc.negates(s, src, card):
            return True
    return False


def attributes(s: State, c: Card) -> tuple[str, ...]:
    out: tuple[str, ...] = (c.data.attribute,)
    sc = script_of(c)
    if sc is not None and sc.attributes is not None and c.face_up and c.zone == Zone.MONSTERS:
        out = out + sc.attributes(s, c)
    return out


def has_flag(s: State, name: str, value: int) -> bool:
    """A lingering flag created by a resolved effect (op "flag"): Kuriboh, Waboku ..."""
    return any(m.op == "flag" and m.stat == name and m.value == value for m in s.modifiers)


def _flag_applies_to(s: State, name: str, c: Card) -> bool:
    """A lingering flag ``name`` for ``c``'s controller holds, set by a card ``c`` is not
    unaffected by (ruling GEN-3: Waboku is a Trap)."""
    for m in s.modifiers:
        if m.op == "flag" and m.stat == name and m.value == c.controller:
            src = s.cards.get(m.source)
            if src is None or not unaffected(s, c, src):
                return True
    return False


def lingering_rules(s: State, seat: int, hook: str) -> list[Any]:
    """The hook ``hook`` of every lingering rule (``Script.lingering``) whose flag holds for
    ``seat`` now, once per flag name (Nutrient Z's ``before_battle_damage``)."""
    out: list[Any] = []
    for rule in LINGERING.values():
        fn = getattr(rule, hook)
        if fn is not None and has_flag(s, rule.name, seat):
            out.append(fn)
    return out


def original(s: State, c: Card, stat: str) -> int:
    base = c.data.atk if stat == "atk" else c.data.def_
    base = max(base, 0)
    if c.flags and c.flags.get(CardFlag.HALVED_ORIGINAL):
        base = (base + 1) // 2  # Summoned without its Tributes (Fusilier Dragon, ``main_phase.summon``)
    if not s.modifiers:  # most of a duel: nothing to walk
        return base
    for m in s.modifiers:
        if m.card == c.id and m.stat == stat and m.op == "set_original":
            base = m.value
    for m in s.modifiers:
        if m.card == c.id and m.stat == stat and m.op == "half_original":
            base = (base + 1) // 2
    return base


def stat(s: State, c: Card, which: str, exclude: int | frozenset[int] | None = None) -> int:
    """Current ATK (``which='atk'``) or DEF of a card.

    ``exclude`` leaves out the continuous effect of a source card, or of a set of them (a card
    whose condition compares ATK values must not count its own bonus).
    """
    a, d = atk_def(s, c, exclude)
    return a if which == "atk" else d


def atk_def(s: State, c: Card, exclude: int | frozenset[int] | None = None) -> tuple[int, int]:
    """Current ATK and DEF of a card (``stat``), both in one walk of the modifiers and the
    continuous effects (a view shows both)."""
    if not c.data.is_monster:
        return 0, 0
    a = original(s, c, "atk")
    d = original(s, c, "def")
    if c.zone != Zone.MONSTERS or not c.face_up:
        return a, d
    cid = c.id
    for m in s.modifiers:
        if m.card == cid and m.op == "add":
            if m.stat == "atk":
                a += m.value
            elif m.stat == "def":
                d += m.value
    for m in s.modifiers:
        if m.card == cid and m.op == "set":
            if m.stat == "atk":
                a = m.value
            elif m.stat == "def":
                d = m.value
    for src, sc in continuous_sources(s):
        if sc.stat is None or src.id == exclude or (isinstance(exclude, frozenset) and src.id in exclude):
            continue
        da, dd = sc.stat(s, src, c)
        a += da
        d += dd
    for e in s.face_up_field():
        # a monster equipped as an Equip Spell "with this effect" (Sword Hunter, ``ops.equip``),
        # unless a continuous effect negates that Spell Card's effects (Spell Canceller, EQ-1)
        if e.equipped_to == cid and e.zone == Zone.SPELLS_TRAPS and not is_negated(s, e):
            a += int(e.flags.get(CardFlag.EQUIP_ATK, 0))
            d += int(e.flags.get(CardFlag.EQUIP_DEF, 0))
    return max(a, 0), max(d, 0)


def atk(s: State, c: Card, exclude: int | frozenset[int] | None = None) -> int:
    return stat(s, c, "atk", exclude)


def def_(s: State, c: Card, exclude: int | frozenset[int] | None = None) -> int:
    return stat(s, c, "def", exclude)


def shown_atk(s: State, c: Card) -> int | None:
    """The ATK an effect may read or copy: None for a face-down monster on the field, which shows
    no ATK/DEF until it is flipped (ruling DS-13; seed 003, OCG Substep 1: the attack target is
    still face-down at the start of the Damage Step). Honest, Dark Diviner, Prideful Roar and
    Skyscraper compare or copy through this."""
    if c.zone == Zone.MONSTERS and not c.face_up:
        return None
    return stat(s, c, "atk")


def can_attack(s: State, attacker: Card) -> bool:
    """The monster may declare an attack: no "cannot declare an attack this turn" flag, and no
    continuous effect forbids it, except one from a card kind it is unaffected by (Gravity Bind
    does not stop Elemental HERO Wildheart, ruling GEN-3)."""
    if attacker.flags.get(CardFlag.CANNOT_ATTACK_TURN) == s.turn:
        return False
    if _flag_applies_to(s, LingeringFlag.NO_ATTACK_DECLARATION, attacker):
        return False  # "Your opponent cannot declare an attack this turn" (Threatening Roar)
    for src, sc in continuous_sources(s):
        if sc.can_attack is not None and not sc.can_attack(s, src, attacker) and not unaffected(s, attacker, src):
            return False
    return True


def attack_forbidden(s: State, attacker: Card) -> bool:
    """A continuous effect that says the monster "cannot attack" (``Script.stops_attacks``:
    Gravity Bind) now applies to it: an attack it already declared stops (ruling BS-8; seed
    003, Battle Step: play goes on to the Damage Step only as long as the attack can continue).
    "Cannot declare an attack" (Swords of Revealing Light, Jurrac Guaiba's Summon) and attack
    costs (Dark Elf) only forbid the declaration."""
    for src, sc in continuous_sources(s):
        if (
            sc.stops_attacks
            and sc.can_attack is not None
            and not sc.can_attack(s, src, attacker)
            and not unaffected(s, attacker, src)
        ):
            return True
    return False


def can_be_attacked(s: State, target: Card, attacker: Card) -> bool:
    only = attacker.flags.get(CardFlag.ATTACK_ONLY)
    if only is not None and only[:2] == [s.turn, s.battle_phases] and target.id != only[2]:
        return False  # in this Battle Phase it may attack only that monster (Last Turn, ``ops.restrict_attack``)
    return all(fn(s, src, target, attacker) for src, fn in hooks(s, "can_be_attacked"))


def attack_restricted(s: State, attacker: Card) -> bool:
    """In this Battle Phase it may attack only one given monster (Last Turn): never directly."""
    only = attacker.flags.get(CardFlag.ATTACK_ONLY)
    return only is not None and only[:2] == [s.turn, s.battle_phases]


def may_attack_directly(s: State, attacker: Card) -> bool:
    return any(fn(s, src, attacker) for src, fn in hooks(s, "direct_attack"))


def forced_to_defense(s: State, c: Card) -> bool:
    """The face-up monster must be in Defense Position (``Script.forces_defense``: Level Limit -
    Area B)."""
    return c.zone == Zone.MONSTERS and c.face_up and any(fn(s, src, c) for src, fn in hooks(s, "forces_defense"))


def forbidden_key(seat: int, name: str) -> str:
    """The ``State.used`` key saying that ``seat`` may not activate cards named ``name`` for the
    rest of the Duel (``ops.forbid_activation``)."""
    return f"forbidden:{seat}:{name}"


def activation_locked(s: State, card: Card, seat: int) -> bool:
    """Jinzo, Spell Canceller and friends: True when ``card`` cannot be activated; also a name
    forbidden to ``seat`` for the rest of the Duel (Cursed Seal of the Forbidden Spell)."""
    if s.used and forbidden_key(seat, card.data.name) in s.used:
        return True
    return any(fn(s, src, card, seat) for src, fn in hooks(s, "locks"))


def must_attack(s: State, attacker: Card) -> bool:
    if attacker.flags.get(CardFlag.MUST_ATTACK) == [s.turn, s.battle_phases]:
        return True  # an obligation for this Battle Phase set by a resolved effect (Last Turn, ``ops.restrict_attack``)
    return any(fn(s, src, attacker) for src, fn in hooks(s, "must_attack"))


def banish_instead(s: State, exclude: int | None = None) -> bool:
    """Macro Cosmos: cards that would be sent to the Graveyard are banished. ``exclude``: the
    card being sent, whose own "while face-up" effect no longer applies as it leaves (LF-2)."""
    return any(sc.banish_instead_of_grave for src, sc in continuous_sources(s) if src.id != exclude)


def no_battle_damage(s: State, seat: int) -> bool:
    """ "You take no battle damage" effects: lingering (Kuriboh, Waboku, Last Turn); and a battling
    monster of ``seat`` that makes its controller's battle damage 0 (Dark Flare Knight:
    ``Script.shields_controller``, while face-up with its effects not negated)."""
    if has_flag(s, LingeringFlag.NO_BATTLE_DAMAGE, seat):
        return True
    a = s.attack
    if a is None:
        return False
    for cid in (a.attacker, a.target):
        c = s.cards[cid] if cid is not None else None
        sc = script_of(c) if c is not None else None
        if c is not None and sc is not None and sc.shields_controller and c.controller == seat:
            if c.zone == Zone.MONSTERS and c.face_up and not is_negated(s, c):
                return True
    return False


SPECIAL_SUMMONS: Final[tuple[str, ...]] = ("special", "fusion", "procedure", "extra")


def summoned_only_its_own_way(data: CardData) -> bool:
    """A Nomi monster: "Must be Fusion Summoned and cannot be Special Summoned by other ways"
    (Wildedge, Flame Wingman). No other Special Summon, ever: not a revival from the Graveyard or
    banished either, even after a proper Summon (ruling SUM-1)."""
    return "cannot be Special Summoned by other ways" in data.text


def cannot_normal_summon(data: CardData) -> bool:
    """ "Cannot be Normal Summoned/Set" (Chaos Sorcerer, Black Luster Soldier - Envoy of the
    Beginning; Fenrir's kind says it): only a Special Summon puts it on the field."""
    return "special-summon" in data.monster_kinds or "annot be Normal Summoned" in data.text


def needs_proper_summon(c: Card) -> bool:
    """A monster that "can only be Special Summoned by" its own procedure (Fenrir: a Special
    Summon-only monster; "Must first be Special Summoned": Chaos Sorcerer), or a Fusion, Synchro
    or Xyz Monster with no other summoning condition (Goyo Guardian, Dark Diviner, Tiras, Photon
    Strike Bounzer): another effect may Special Summon
    it only from the Graveyard or banished, after it was properly Summoned (ruling SUM-1;
    ``ops.move`` records that as it leaves the field)."""
    text = c.data.text
    return c.data.extra_deck or "can only be Special Summoned by" in text or "Must first be Special Summoned" in text


def properly_summoned(s: State, c: Card) -> bool:
    return f"proper_summon:{c.id}" in s.used


def _not_revivable(s: State, c: Card) -> bool:
    return needs_proper_summon(c) and not (c.zone in _REVIVAL_ZONES and properly_summoned(s, c))


_REVIVAL_ZONES: Final = frozenset({Zone.GRAVEYARD, Zone.BANISHED})


def locked_zones(s: State, seat: int) -> frozenset[int]:
    """The Monster Zones (slots) of ``seat`` that cannot be used now (Ojama King:
    ``Script.locks_zones``); empty in most duels."""
    out: set[int] = set()
    for src, fn in hooks(s, "locks_zones"):
        out.update(fn(s, src, seat))
    return frozenset(out)


def free_zone_slots(s: State, seat: int) -> list[int]:
    """The empty Monster Zones (slots) of ``seat`` that may be used (not locked, ``locked_zones``)."""
    zones = s.players[seat].monsters
    locked = locked_zones(s, seat) if _any_zone_lock(s) else frozenset()
    return [i for i, c in enumerate(zones) if c is None and i not in locked]


def _any_zone_lock(s: State) -> bool:
    return any(sc.locks_zones is not None for _src, sc in continuous_sources(s))


def free_zones(s: State, seat: int) -> int:
    """How many Monster Zones ``seat`` may put a monster in now (``free_zone_slots``)."""
    return len(free_zone_slots(s, seat))


def has_free_zone(s: State, seat: int) -> bool:
    """``seat`` has a Monster Zone to put a monster in (empty, not locked: ``free_zone_slots``)."""
    if None not in s.players[seat].monsters:
        return False
    return bool(free_zone_slots(s, seat))


def summons_locked(s: State, seat: int, exclude: int | None = None) -> bool:
    """``seat`` may not Normal Summon, Set, Flip Summon or Special Summon a monster this turn
    (Scapegoat's Goat text: a lingering flag ``NO_SUMMONS``); ``exclude``: a flag set by that card
    does not count (Scapegoat's own Sheep Tokens are Summoned after its activation locked)."""
    return any(
        m.op == "flag" and m.stat == LingeringFlag.NO_SUMMONS and m.value == seat and m.source != exclude
        for m in s.modifiers
    )


def summoned_this_turn(s: State, seat: int) -> bool:
    """``seat`` Normal Summoned or Set a monster this turn, or Summoned one that it owns (a
    card keeps the turn of its last Summon, ``Card.summoned_turn``; a Token is owned by the
    player on whose side it was made)."""
    if s.players[seat].normal_summoned:
        return True
    return any(c.summoned_turn == s.turn and c.owner == seat for c in s.cards.values())


def tributable_for_summon(s: State, c: Card) -> bool:
    """``c`` may be Tributed for a Tribute Summon (or a Tribute Set): not a Token that "cannot be
    Tributed for a Tribute Summon" (Sheep Token), not a monster that cannot be Tributed this
    turn (Mind Control)."""
    sc = script_of(c)
    return not (sc is not None and sc.no_tribute_summon) and tributable(s, c)


def tributable(s: State, c: Card) -> bool:
    """``c`` may be Tributed (for a cost too): not a monster that "cannot be Tributed" this turn
    (Mind Control, ``CardFlag.NO_TRIBUTE``)."""
    return c.flags.get(CardFlag.NO_TRIBUTE) != s.turn


def can_summon_token(s: State, code: int, seat: int, source: int, summoner: int | None = None) -> bool:
    """A Token of ``code`` may be Special Summoned to ``seat``'s side by ``summoner`` (default
    ``seat``; Ojama Trio Summons to the opponent's side) with the effect of ``source``: no
    continuous lock forbids it (The Last Warrior from Another Planet), nor a summon lock of the
    summoner by another card (Scapegoat's own lock does not stop its Tokens)."""
    token = Card(id=-1, code=code, owner=seat, controller=seat, zone=Zone.MONSTERS)
    if summons_locked(s, seat if summoner is None else summoner, exclude=source):
        return False
    return not any(fn(s, src, token, seat, "special") for src, fn in hooks(s, "cannot_summon"))


def can_summon(s: State, monster: Card, seat: int, how: str) -> bool:
    """False if ``seat`` may not Summon ``monster`` now. ``how``: "normal", "flip", "special"
    (by another card's effect), "fusion" (Polymerization), "procedure" (its own, Fenrir) or
    "extra" (a Special Summon from the Fusion Deck by an effect that names it so: Metamorphosis,
    Cyber-Stein; ruling SUM-31).

    - "Cannot be Special Summoned" (Light and Darkness Dragon).
    - "Must be Fusion Summoned and cannot be Special Summoned by other ways" (Wildedge, Flame
      Wingman): no Special Summon by another effect, revivals included (ruling SUM-1,
      ``summoned_only_its_own_way``).
    - "Can only be Special Summoned by" (Fenrir) and other Extra Deck monsters: by another effect
      only from the Graveyard or banished, once properly Summoned (ruling SUM-1).
    - "There can only be 1 face-up ..." (Earthbound Immortals, ``Script.unique_face_up``): not
      face-up while another is face-up on the field (ruling SUM-2).
    - continuous locks (``Script.cannot_summon``): Tualatin, Miracle Flipper.
    - a lock for the turn (``summons_locked``: Scapegoat).
    - a Token is never Summoned again once it has left the field."""
    if monster.data.is_token or summons_locked(s, seat):
        return False
    own = script_of(monster)
    if how in SPECIAL_SUMMONS and own is not None and own.cannot_special_summon:
        return False
    if how == "special" and (summoned_only_its_own_way(monster.data) or _not_revivable(s, monster)):
        return False
    if how == "extra" and (not monster.data.extra_deck or summoned_only_its_own_way(monster.data)):
        return False
    unique = own.unique_face_up if own is not None else None
    if unique and any(unique in c.data.name and c.id != monster.id for c in face_up_monsters_on_field(s)):
        return False
    return not any(fn(s, src, monster, seat, how) for src, fn in hooks(s, "cannot_summon"))


def can_set(s: State, card: Card, seat: int) -> bool:
    """False if a continuous effect forbids ``seat`` to Set ``card`` (``Script.cannot_set``:
    Prohibition)."""
    return not any(fn(s, src, card, seat) for src, fn in hooks(s, "cannot_set"))


def position_locked(s: State, c: Card) -> bool:
    """``c``'s controller may not change its battle position (nor Flip Summon it) now: "cannot
    change its battle position for the rest of this turn" (Creature Swap, ``CardFlag.
    NO_POSITION_CHANGE``), or a continuous effect (Thousand-Eyes Restrict, ``Script.
    no_position_change``). Card effects may still change it."""
    if c.flags.get(CardFlag.NO_POSITION_CHANGE) == s.turn:
        return True
    if any(fn(s, src, c) for src, fn in hooks(s, "no_position_change")):
        return True
    # nor to Attack Position one that must be in Defense Position (Level Limit - Area B)
    return c.position == Position.DEFENSE and forced_to_defense(s, c)


def target_filter(s: State, card: Card, seat: int) -> list[tuple[Card, Any]]:
    """The continuous effects that forbid some targets to ``seat``'s effect of ``card``
    (``Script.untargetable``: King Dragun), for ``can_target``; empty in most duels."""
    return hooks(s, "untargetable")


def can_target(s: State, target: Card, card: Card, seat: int, rules: list[tuple[Card, Any]]) -> bool:
    """``seat`` may target ``target`` with an effect of ``card`` under ``rules``
    (``target_filter``)."""
    return not any(fn(s, src, target, card, seat) for src, fn in rules)


def face_up_monsters_on_field(s: State) -> list[Card]:
    return [c for sd in (0, 1) for c in s.monsters(sd) if c.face_up]


def effect_indestructible(s: State, c: Card) -> bool:
    """ "This card cannot be destroyed by card effects" (Tiras, Keeper of Genesis)."""
    return any(fn(s, src, c) for src, fn in hooks(s, "effect_indestructible"))


def unaffected(s: State, c: Card, source: Card) -> bool:
    """ "This card is unaffected by Trap effects" (Elemental HERO Wildheart): the script's
    ``unaffected_by`` names the card kinds (``trap``, ``spell``, ``monster``) whose
    effects do not apply to it while it is face-up on the field (ruling GEN-3): checked by
    ``ops.destroy``, ``ops.send_all_to_grave``, ``common.gain``, ``can_attack``,
    ``attack_forbidden`` and ``battle_indestructible``. Effects that apply to a player (no
    battle damage, Life Points) still apply."""
    sc = script_of(c)
    if sc is None or source.id == c.id or c.zone != Zone.MONSTERS or not c.face_up:
        return False
    return source.data.kind in sc.unaffected_by and not is_negated(s, c)


def battle_indestructible(s: State, c: Card) -> bool:
    """ "Cannot be destroyed by battle": a lingering flag for its controller's monsters (Waboku),
    unless the card is unaffected by the kind of card that set it (Waboku does not protect
    Elemental HERO Wildheart, ruling GEN-3), or a continuous effect (B.E.S. Big Core)."""
    if _flag_applies_to(s, LingeringFlag.BATTLE_INDESTRUCTIBLE_ALL, c):
        return True
    for src, sc in continuous_sources(s):
        if sc.battle_indestructible is not None and sc.battle_indestructible(s, src, c):
            return True
    return False


def may_banish_from_grave(s: State, seat: int) -> bool:
    """``seat`` may banish cards from either player's Graveyard: no face-up card forbids it
    ("Your opponent cannot banish cards from either player's Graveyard": Kycoo the Ghost
    Destroyer, ``Script.forbids_banish_from_grave``). Costs and effects that banish from a
    Graveyard ask this (Black Luster Soldier, Chaos Sorcerer)."""
    return not any(fn(s, src, seat) for src, fn in hooks(s, "forbids_banish_from_grave"))
