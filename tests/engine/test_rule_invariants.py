"""The guard of issue 35, part 2: random legal positions built from the whole card pool, played
with random legal actions, with the rules' invariants checked after every action.

- **Activations do something.** An activation whose link, left to resolve with no response,
  changes nothing at all (no fact but notes and bookkeeping) could not have applied its effect
  (issue 35, rule 2). Continuous, Field and Equip Spell/Trap Cards are left out (applying while
  face-up is what they do), and so is an activation whose target the same action moved (a
  self-destruction checked right after it: the chain rules, CH-3, empty that resolution).
- **No effect reads a face-down monster's stats** (rule 5): every card module's ATK/DEF readers
  (``engine.effects.*``: ``atk``, ``def_``, ``stat``, ``atk_def``) are wrapped for the test and
  record any read of a face-down monster on the field.
- **"Unaffected" cards are unaffected** (rule 9): no fact a Trap's resolving link emits touches a
  face-up card unaffected by Trap effects, no Trap's modifier names it, and no Trap's continuous
  effect decides whether it may attack or be destroyed by battle (``stats`` asked with and
  without the Trap sources).
- **Equip Cards need their face-up monster** (rule 8, EQ-2): after each action no Equip Card is
  on the field equipped to a monster that is face-down or gone, and no monster in a Spell & Trap
  Zone with a continuous effect is among the sources of continuous effects (EQ-1).
- **A Continuous card applies once resolved** (rule 6, CH-7): while a Spell/Trap's own
  activation is a link of the chain, no continuous effect of it is among the sources
  (``stats.continuous_sources``), and none of its trigger effects triggers.

The positions: a random turn, phase and turn player; for each side random monsters (face-up or
Set, Xyz Monsters with materials), Set Spells/Traps, face-up Continuous cards, monsters equipped
as Equip Spell Cards, a Field Spell, and a hand, Deck, Graveyard and Extra Deck, all drawn from
the supported cards (``engine.catalog.supported``). From there both players take random legal
actions (mostly activations, attacks and summons).

``DUEL_INVARIANT_EXAMPLES`` sets the number of positions for each invariant (default 25, a
few seconds in ``make test``; ``make invariants`` runs 300) and ``DUEL_INVARIANT_ACTIONS`` the
actions played from each (default 60). A failure prints the seed, the action and what broke; ``explore(seed)``
replays one position and returns every violation it finds.

``test_the_invariants_catch_a_broken_rule`` shows that the checks bite: with rule 6 or rule 8
broken in the engine on purpose, the same positions show it.

The wrappers change module globals of the engine: the test runs only on the Python source
(``pure_engine``)."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Callable
from itertools import count
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine import apply_facts, decide, legal_actions, pending
from engine import ops as engine_ops
from engine import stats as engine_stats
from engine.apply import evolve
from engine.card_data import CardData
from engine.catalog import supported
from engine.effects import common as effects_common
from engine.effects import royal_keeper
from engine.effects.base import effects_of, script_of
from engine.facts import (
    Activated,
    Choice,
    Counters,
    Destroyed,
    Equipped,
    Flag,
    Flipped,
    LinkResolved,
    LinkResolving,
    Modifier,
    Moved,
    Note,
    PositionChanged,
    Triggered,
)
from engine.scenario import start_state
from engine.state import Card, Link, State
from engine.types import CardFlag, Fact, LingeringFlag, WireAction, Zone

EXAMPLES = int(os.environ.get("DUEL_INVARIANT_EXAMPLES", "25"))
ACTIONS = int(os.environ.get("DUEL_INVARIANT_ACTIONS", "60"))

# facts that change nothing a card's text could say (notes, bookkeeping of the chain and of
# questions, priority); any other fact in a link's resolution is a change
NOTHING: frozenset[str] = frozenset(
    {"note", "link_resolving", "link_resolved", "choice", "passed", "priority", "event", "trigger_done", "used", "rng"}
)
# a coin toss or a die roll is what a text that tosses or rolls does, whatever it then leaves
# unchanged (Blowback Dragon's 2 Tails)
RANDOM_RESULTS: frozenset[str] = frozenset({"coin_toss", "die_roll"})


def _random_result(f: Fact) -> bool:
    return isinstance(f, Note) and f.what in RANDOM_RESULTS


# facts that change the card they name
TOUCHES: tuple[type[Fact], ...] = (Moved, Destroyed, PositionChanged, Flipped, Counters, Equipped, Modifier, Flag)
STAT_READERS = ("atk", "def_", "stat", "atk_def")
# the invariants, by name (each a test of its own, so that a failure says which rule broke)
ACTIVATION = "an activation changes something (rule 2)"
FACE_DOWN = "no effect reads a face-down monster's ATK/DEF (rule 5)"
UNAFFECTED = "cards unaffected by Trap effects are unaffected (rule 9)"
EQUIP = "Equip Cards need their face-up monster, equipped monsters have no effects (rule 8: EQ-1, EQ-2)"
CONTINUOUS = "a Continuous card applies only once resolved (rule 6: CH-7)"
INVARIANTS = (ACTIVATION, FACE_DOWN, UNAFFECTED, EQUIP, CONTINUOUS)
# the hooks of a ``Script`` through which a card applies a continuous effect
CONTINUOUS_HOOKS = (
    "stat",
    "can_attack",
    "can_be_attacked",
    "locks",
    "must_attack",
    "direct_attack",
    "banish_instead_of_grave",
    "negates",
    "battle_indestructible",
    "effect_indestructible",
    "cannot_summon",
    "attributes",
)


# ------------------------------------------------------------------ positions


def _pool() -> dict[str, list[CardData]]:
    cards = supported()
    return {
        "main": [c for c in cards if c.is_monster and not c.extra_deck],
        "extra": [c for c in cards if c.extra_deck],
        "spells_traps": [c for c in cards if not c.is_monster and c.prop != "field"],
        "field": [c for c in cards if c.prop == "field"],
        "hand": [c for c in cards if not c.extra_deck],
    }


def random_start(rnd: random.Random) -> dict[str, Any]:
    """A random position (the ``start`` of a scenario) drawn from the whole pool."""
    pool = _pool()
    ids = count()

    def entry(c: CardData, **kw: Any) -> dict[str, Any]:
        return {"card": c.name, "as": f"c{next(ids)}", **kw}

    phase = rnd.choice(["main1", "battle", "battle", "main2"])
    start: dict[str, Any] = {"turn": rnd.randint(2, 7), "turn_player": rnd.choice("AB"), "phase": phase}
    if phase == "battle":
        start["step"] = "battle"
    earthbound = False
    for side in "AB":
        mons: list[dict[str, Any]] = []
        for _ in range(rnd.randint(0, 4)):
            c = rnd.choice(pool["main"] + pool["extra"])
            pos = rnd.choice(["attack", "attack", "defense", "set"])
            if "Earthbound Immortal" in c.name and pos != "set":
                if earthbound:
                    pos = "set"
                earthbound = True
            e = entry(c, position=pos)
            if "xyz" in c.monster_kinds:
                e["materials"] = [rnd.choice(pool["main"]).name for _ in range(rnd.randint(0, 2))]
            mons.append(e)
        st_zone: list[dict[str, Any]] = []
        for _ in range(rnd.randint(0, 3)):
            c = rnd.choice(pool["spells_traps"])
            if c.prop == "continuous" and rnd.random() < 0.4:
                e = entry(c)  # face-up: activated and resolved before
                if c.name == "Spacegate":
                    e["counters"] = {"Gate Counter": rnd.randint(0, 4)}
                st_zone.append(e)
            else:
                st_zone.append(entry(c, set=True))
        face_up = [m for m in mons if m["position"] != "set"]
        if face_up and rnd.random() < 0.35:
            st_zone.append(entry(rnd.choice(pool["main"]), equipped_to=rnd.choice(face_up)["as"]))
        spec: dict[str, Any] = {
            "lp": rnd.choice([8000, 8000, 3000, 900]),
            "monsters": mons,
            "spells_traps": st_zone,
            "hand": [entry(rnd.choice(pool["hand"])) for _ in range(rnd.randint(0, 4))],
            "deck": [entry(rnd.choice(pool["hand"])) for _ in range(rnd.randint(3, 8))],
            "graveyard": [entry(rnd.choice(pool["main"])) for _ in range(rnd.randint(0, 3))],
            "extra": [entry(c) for c in rnd.sample(pool["extra"], min(3, len(pool["extra"])))],
        }
        if pool["field"] and rnd.random() < 0.2:
            spec["field"] = entry(rnd.choice(pool["field"]))
        start[side] = spec
    return start


# ------------------------------------------------------------------ the invariants


def _kind(link: Link, s: State) -> str:
    effs = effects_of(s.cards[link.card])
    return effs[link.effect - 1].kind if 1 <= link.effect <= len(effs) else ""


def activating(s: State) -> set[int]:
    """The test's own reading: Spell/Trap cards whose card activation is a link of the chain."""
    return {link.card for link in s.chain if not link.trigger and _kind(link, s) in ("spell", "trap")}


def _unaffected_by_traps(s: State, c: Card) -> bool:
    sc = script_of(c)
    return sc is not None and "trap" in sc.unaffected_by and c.zone == Zone.MONSTERS and c.face_up


def _stays_on_field(s: State, c: Card) -> bool:
    sc = script_of(c)
    return c.data.prop in ("continuous", "field", "equip") or (sc is not None and sc.remains_on_field)


class Explorer:
    """Plays one random position and records every broken invariant."""

    def __init__(self, seed: int, reads: list[tuple[int, str]]) -> None:
        self.seed = seed
        self.rnd = random.Random(seed)
        self.reads = reads
        self.found: list[tuple[str, str]] = []
        self.seen: set[str] = set()
        self.where = ""

    def broke(self, invariant: str, what: str) -> None:
        """Record a broken invariant (once per position: the first action that shows it)."""
        if what not in self.seen:
            self.seen.add(what)
            self.found.append((invariant, f"seed {self.seed}, {self.where}: {what}"))

    # -- per fact: the link resolving, Trap effects on unaffected cards, early triggers

    def check_facts(self, s: State, facts: list[Fact]) -> None:
        left_as_spell: set[int] = set()  # monsters that left a Spell & Trap Zone in this action
        for f in facts:
            self.check_equipped_effects(s, f, left_as_spell)
            link = s.chain[s.resolving.started - 1] if s.resolving and 0 < s.resolving.started <= len(s.chain) else None
            source = s.cards[link.card] if link is not None else None
            target = getattr(f, "card", None)
            if isinstance(f, TOUCHES) and isinstance(target, int) and target in s.cards:
                c = s.cards[target]
                by_trap = source is not None and source.data.is_trap and source.id != c.id
                if isinstance(f, Modifier):
                    src = s.cards.get(f.source)
                    by_trap = src is not None and src.data.is_trap
                if by_trap and _unaffected_by_traps(s, c) and not isinstance(f, Flag):
                    trap = source.data.name if source is not None and source.data.is_trap else "a Trap"
                    self.broke(UNAFFECTED, f"{trap}'s effect changed {c.data.name} (unaffected by Traps): {f.t}")
            if isinstance(f, Triggered) and f.card in activating(s):
                self.broke(
                    CONTINUOUS, f"{s.cards[f.card].data.name} triggered while its own activation was on the chain"
                )
            s = evolve(s, f)

    def check_equipped_effects(self, s: State, f: Fact, left_as_spell: set[int]) -> None:
        """A monster in a Spell & Trap Zone (an Equip Spell Card) activates nothing and triggers
        nothing, not even as it leaves the field (EQ-1)."""
        cid = getattr(f, "card", None)
        if not isinstance(cid, int) or cid not in s.cards:
            return
        c = s.cards[cid]
        as_spell = c.data.is_monster and c.zone == Zone.SPELLS_TRAPS
        if isinstance(f, Moved) and as_spell:
            left_as_spell.add(cid)
        elif isinstance(f, Activated | Triggered) and as_spell:
            self.broke(EQUIP, f"{c.data.name}, equipped as an Equip Spell Card, {f.t} a monster effect")
        elif isinstance(f, Triggered) and cid in left_as_spell and f.event.get("card") == cid:
            self.broke(EQUIP, f"{c.data.name} left the field as an Equip Spell Card and its own effect triggered")

    # -- per state: Equip Cards, continuous sources, Trap continuous effects on unaffected cards

    def check_state(self, s: State) -> None:
        sources = engine_stats.continuous_sources(s)
        pending_ids = activating(s)
        for c, sc in sources:
            if not any(getattr(sc, hook) for hook in CONTINUOUS_HOOKS):
                continue  # nothing it could apply
            if c.id in pending_ids:
                self.broke(CONTINUOUS, f"{c.data.name} applies while its own activation is on the chain")
            if c.data.is_monster and c.zone != Zone.MONSTERS:
                self.broke(EQUIP, f"{c.data.name}, equipped as an Equip Spell Card, applies a monster effect")
        for e in s.cards.values():
            if e.equipped_to is not None and e.on_field:
                m = s.cards.get(e.equipped_to)
                if m is None or m.zone != Zone.MONSTERS or not m.face_up:
                    where = "absent" if m is None or m.zone != Zone.MONSTERS else "face-down"
                    self.broke(EQUIP, f"{e.data.name} stays equipped to a {where} monster")
        traps = [(c, sc) for c, sc in sources if c.data.is_trap]
        for sd in (0, 1):
            for m in s.monsters(sd):
                if not _unaffected_by_traps(s, m):
                    continue
                # the engine forbids it to attack, and only Traps' continuous effects would
                if not engine_stats.can_attack(s, m) and m.flags.get(CardFlag.CANNOT_ATTACK_TURN) != s.turn:
                    blockers = [c for c, sc in sources if sc.can_attack is not None and not sc.can_attack(s, c, m)]
                    if blockers and all(c.data.is_trap for c in blockers):
                        self.broke(UNAFFECTED, f"{blockers[0].data.name} (a Trap) keeps {m.data.name} from attacking")
                for src, sc in traps:
                    if sc.stat is not None and sc.stat(s, src, m) != (0, 0):
                        self.broke(UNAFFECTED, f"{src.data.name} (a Trap) changes the ATK/DEF of {m.data.name}")
                flags = [
                    x
                    for x in s.modifiers
                    if x.op == "flag" and x.stat == LingeringFlag.BATTLE_INDESTRUCTIBLE_ALL and x.value == m.controller
                ]
                if flags and all(s.cards[x.source].data.is_trap for x in flags if x.source in s.cards):
                    if engine_stats.battle_indestructible(s, m) and not any(
                        sc.battle_indestructible is not None and sc.battle_indestructible(s, c, m) for c, sc in sources
                    ):
                        trap = s.cards[flags[0].source].data.name
                        self.broke(UNAFFECTED, f"a Trap ({trap}) keeps {m.data.name} from destruction by battle")

    # -- per activation: left to resolve, does it change anything?

    def check_activation(self, s: State, seat: int, a: WireAction, zones: list[Zone]) -> None:
        """``zones``: where the activation's targets were as it was chosen; a target that the
        same action moved (a self-destruction checked right after it) makes its resolution empty
        by chain rules (ruling CH-3), not by an activation that could not apply."""
        top = s.chain[-1] if s.chain else None
        if top is None or top.card != a.get("card"):
            return
        if [s.cards[t].zone for t in top.targets] != zones:
            return
        card = s.cards[top.card]
        if _kind(top, s) in ("spell", "trap") and _stays_on_field(s, card):
            return
        n = len(s.chain)
        changes: list[str] = []
        resolving = False
        sim = s
        for _ in range(60):
            p = pending(sim)
            if p is None or len(sim.chain) < n:
                break
            w = int(p["seat"])
            acts = legal_actions(sim, w)
            passes = [x for x in acts if x["do"] == "pass"]
            if sim.choice is not None and sim.choice.get("kind") in ("cards", "options"):
                picks = [x for x in acts if x.get("cards") or x.get("option") is not None] or acts
                act = picks[0]
            elif passes and not (sim.choice is not None and sim.choice.get("mandatory")):
                act = passes[0]
            else:
                act = acts[0]
            facts = decide(sim, w, act)
            for f in facts:
                if isinstance(f, LinkResolving) and f.link == n:
                    resolving = True
                elif isinstance(f, LinkResolved) and f.link == n and resolving:
                    link = sim.chain[n - 1] if len(sim.chain) >= n else None
                    if link is not None and (link.negated or link.effect_negated):
                        return
                    if not changes:
                        self.broke(
                            ACTIVATION,
                            f"{card.data.name} was activated but, left to resolve, changed nothing",
                        )
                    return
                elif resolving and (f.t not in NOTHING or _random_result(f)) and not isinstance(f, Choice):
                    changes.append(f.t)
                sim = evolve(sim, f)

    def pick(self, acts: list[WireAction]) -> WireAction:
        """Mostly an activation when there is one, else mostly an attack, a summon, a Set or an
        answer; now and then anything (a pass, the next phase)."""
        rnd = self.rnd
        activations = [x for x in acts if x["do"] == "activate"]
        if activations and rnd.random() < 0.6:
            return rnd.choice(activations)
        keen = [x for x in acts if x["do"] in ("attack", "summon", "retarget", "set", "choose", "flip_summon")]
        if keen and rnd.random() < 0.7:
            return rnd.choice(keen)
        return rnd.choice(acts)

    # -- the run

    def run(self) -> list[tuple[str, str]]:
        start = random_start(self.rnd)
        s, _, _ = start_state({"format": 1, "name": "invariants", "start": start})
        self.where = "the start position"
        self.check_state(s)
        for i in range(ACTIONS):
            p = pending(s)
            if p is None:
                break
            seat = int(p["seat"])
            acts = legal_actions(s, seat)
            a = self.pick(acts)
            self.where = f"action {i} ({'AB'[seat]}: {a})"
            self.reads.clear()
            zones = [s.cards[t].zone for t in a.get("target", [])] if a["do"] == "activate" else []
            facts = decide(s, seat, a)
            before_reads = list(self.reads)
            self.check_facts(s, facts)
            s = apply_facts(s, facts)
            self.check_state(s)
            for cid, reader in before_reads:
                self.broke(FACE_DOWN, f"an effect read the {reader} of face-down {s.cards[cid].data.name}")
            if a["do"] == "activate":
                self.reads.clear()
                self.check_activation(s, seat, a, zones)
        return self.found


def record_stat_reads(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    """Wrap the ATK/DEF readers every card module imported (``engine.effects.*``) so that each
    read of a face-down monster on the field is recorded, as (card id, what was read)."""
    reads: list[tuple[int, str]] = []

    def wrap(fn: Callable[..., Any], name: str, module: str) -> Callable[..., Any]:
        what = "ATK/DEF" if name in ("atk_def", "stat") else name.rstrip("_").upper()

        def reader(s: State, c: Card, *args: Any, **kw: Any) -> Any:
            if c.zone == Zone.MONSTERS and not c.face_up:
                reads.append((c.id, f"{what} (read by {module})"))
            return fn(s, c, *args, **kw)

        return reader

    for mod_name, mod in list(sys.modules.items()):
        if not mod_name.startswith("engine.effects.") or mod is None:
            continue
        for name in STAT_READERS:
            fn = getattr(mod, name, None)
            if fn is not None and fn is getattr(engine_stats, name):
                monkeypatch.setattr(mod, name, wrap(fn, name, mod_name))
    return reads


def explore(seed: int) -> list[tuple[str, str]]:
    """Every violation one position finds (to report or debug one seed)."""
    mp = pytest.MonkeyPatch()
    try:
        return Explorer(seed, record_stat_reads(mp)).run()
    finally:
        mp.undo()


@pytest.mark.pure_engine
@pytest.mark.parametrize("invariant", INVARIANTS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32))
@example(seed=99999999)  # a Continuous Spell applied under a later link of its own activation's chain (CH-7)
def test_rule_invariants_hold_in_random_positions(invariant: str, seed: int) -> None:
    found = [what for which, what in explore(seed) if which == invariant]
    assert not found, "\n".join(found)


def _sabotage_resolution_wait(mp: pytest.MonkeyPatch) -> None:
    """Continuous cards apply while their activation is still on the chain (CH-7 broken)."""
    mp.setattr(engine_stats, "activating", lambda s: [])


def _sabotage_face_down_equips(mp: pytest.MonkeyPatch) -> None:
    """Equip Cards stay on a monster turned face-down (EQ-2 broken)."""
    for mod in (engine_ops, effects_common, royal_keeper):  # Book of Moon and Tsukuyomi: common.flip_face_down
        mp.setattr(mod, "turned_face_down", lambda ctx, c: None)


@pytest.mark.pure_engine
@pytest.mark.parametrize(
    ("invariant", "sabotage"), [(CONTINUOUS, _sabotage_resolution_wait), (EQUIP, _sabotage_face_down_equips)]
)
def test_the_invariants_catch_a_broken_rule(
    invariant: str, sabotage: Callable[[pytest.MonkeyPatch], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checks are real: with the rule broken in the engine, the same positions show it."""
    sabotage(monkeypatch)
    found = [what for seed in range(200) for which, what in Explorer(seed, []).run() if which == invariant]
    assert found
