"""A scenario's start position as one ``setup`` fact (docs/scenario-format.md, "The start position").

``build_setup`` checks every key of the ``start`` map (an unknown key is an error naming it),
gives each card an id, and returns the fact plus the label -> card id map the steps use.
"""

from __future__ import annotations

from typing import Any

from .cards import CARDS_BY_NAME
from .chain import once_key_for
from .effects.base import SCRIPTS
from .facts import ABSENT, Setup
from .formats import DEFAULT, FORMAT_KEY, UnknownFormat, named
from .scenario_keys import (
    COINS,
    PHASE_NAMES,
    PLACED_POSITIONS,
    PLACEMENT_KEYS,
    SIDE_KEYS,
    START_KEYS,
    STEP_NAMES,
    TOP_KEYS,
    ScenarioError,
    check_counter,
    check_keys,
    check_map,
)
from .types import CardFlag, Phase, Step, Zone

SEATS = {"A": 0, "B": 1}
LIST_ZONES = ("hand", "deck", "graveyard", "banished", "extra")


class _Builder:
    def __init__(self, turn: int, battle_phases: int) -> None:
        self.turn = turn
        self.bp = battle_phases
        self.cards: list[dict[str, Any]] = []
        self.labels: dict[str, int] = {}
        self.names: dict[str, list[int]] = {}
        self.used: dict[str, int] = {}
        self.next_id = 1

    def add(self, seat: int, spec: Any, zone: str) -> dict[str, Any]:
        if isinstance(spec, str):
            spec = {"card": spec}
        if not isinstance(spec, dict) or "card" not in spec:
            raise ScenarioError(f"bad card entry {spec!r} (a card name, or a map with 'card')")
        where = f"the card entry {spec!r}"
        check_keys(where, spec, PLACEMENT_KEYS)
        name = spec["card"]
        if name not in CARDS_BY_NAME:
            raise ScenarioError(f"unknown card {name!r}")
        code = CARDS_BY_NAME[name].code
        cid = self.next_id
        self.next_id += 1
        entry: dict[str, Any] = {"id": cid, "code": code, "owner": seat, "controller": seat, "zone": zone, "slot": -1}
        flags: dict[str, Any] = {}
        if zone == Zone.MONSTERS:
            pos = spec.get("position", "attack")
            if pos not in PLACED_POSITIONS:
                raise ScenarioError(f"unknown position {pos!r} in {where} (attack, defense or set)")
            entry["face_up"] = pos != "set"
            entry["position"] = "defense" if pos in ("defense", "set") else "attack"
            entry["slot"] = int(spec["zone"]) - 1 if "zone" in spec else -1
            this_turn = spec.get("summoned") == "this_turn"
            entry["summoned_turn"] = self.turn if this_turn else 0
            entry["position_turn"] = self.turn if this_turn else 0
            if spec.get("attacked"):
                entry["attacks"] = 1
                entry["attacked_turn"] = self.turn
                flags[CardFlag.BATTLED] = [self.turn, self.bp]
            if spec.get("was_attacked"):
                flags[CardFlag.BATTLED] = [self.turn, self.bp]
        elif zone == Zone.SPELLS_TRAPS:
            st = spec.get("set", False)
            entry["face_up"] = not st
            entry["set_turn"] = self.turn if st == "this_turn" else (self.turn - 1 if st else 0)
            entry["slot"] = int(spec["zone"]) - 1 if "zone" in spec else -1
        elif zone == Zone.FIELD:
            entry["face_up"] = not spec.get("set", False)
        else:
            entry["face_up"] = zone in (Zone.GRAVEYARD, Zone.BANISHED)
        if "counters" in spec:
            counters = check_map(f"counters of {where}", spec["counters"])
            entry["counters"] = {check_counter(where, k): int(v) for k, v in counters.items()}
        if "equipped_to" in spec:
            entry["equipped_to_label"] = spec["equipped_to"]
        if "materials" in spec:
            entry["materials_specs"] = list(spec["materials"] or [])
        if "used" in spec:
            self._used(cid, code, seat, spec["used"], where)
        if flags:
            entry["flags"] = flags
        self.cards.append(entry)
        if "as" in spec:
            if spec["as"] in self.labels:
                raise ScenarioError(f"label {spec['as']!r} used twice")
            self.labels[str(spec["as"])] = cid
        self.names.setdefault(name, []).append(cid)
        return entry

    def _used(self, cid: int, code: int, seat: int, value: Any, where: str) -> None:
        """``used: true`` (every once-per-turn / once-per-Duel effect of the card) or a list of
        effect numbers: those effects were already used (this turn, or in this Duel)."""
        sc = SCRIPTS.get(code)
        effects = sc.effects if sc is not None else ()
        wanted = range(1, len(effects) + 1) if value is True else value
        if not isinstance(wanted, list | range):
            raise ScenarioError(f"'used' in {where} is true or a list of effect numbers")
        marked = 0
        for idx in wanted:
            if not isinstance(idx, int) or not 1 <= idx <= len(effects):
                raise ScenarioError(f"'used' in {where}: no effect {idx!r}")
            key = once_key_for(cid, code, seat, effects[idx - 1].once_per, idx)
            if key is not None:
                self.used[key] = self.turn
                marked += 1
        if not marked:
            raise ScenarioError(f"'used' in {where}: the card has no once-per-turn or once-per-Duel effect there")


def _side(b: _Builder, seat: int, side: dict[str, Any], key: str) -> None:
    check_keys(f"start.{key}", side, SIDE_KEYS)
    for zone in LIST_ZONES:
        for spec in side.get(zone, []) or []:
            b.add(seat, spec, zone)
    for spec in side.get("monsters", []) or []:
        b.add(seat, spec, "monsters")
    for spec in side.get("spells_traps", []) or []:
        b.add(seat, spec, "spells_traps")
    if side.get("field"):
        b.add(seat, side["field"], "field")


def _label(b: _Builder, v: Any, where: str) -> int:
    if isinstance(v, str) and v in b.labels:
        return b.labels[v]
    raise ScenarioError(f"unknown label or card name {v!r} in {where}")


def duel_format(doc: dict[str, Any]) -> str:
    """The name of the format the scenario's duel is played under (``duel_format``; absent:
    the default, ``current``). The start position is not checked against the format's card
    pool: a rulings case may place any card."""
    name = doc.get("duel_format")
    if name is None:
        return DEFAULT.name
    try:
        return named(str(name)).name
    except UnknownFormat as exc:
        raise ScenarioError(f"duel_format: {exc}") from None


def build_setup(doc: dict[str, Any]) -> tuple[Setup, dict[str, int]]:
    """The ``setup`` fact for a scenario's start position, and its label -> card id map."""
    check_keys("the scenario", doc, TOP_KEYS)
    start = check_map("start", doc.get("start"))
    check_keys("start", start, START_KEYS)
    turn = int(start.get("turn", 3))
    phase = start.get("phase", "main1")
    if phase not in PHASE_NAMES:
        raise ScenarioError(f"unknown phase {phase!r} in start")
    step = start.get("step", "battle" if phase == Phase.BATTLE else None)
    if phase != Phase.BATTLE:
        step = None
    elif step not in STEP_NAMES:
        raise ScenarioError(f"unknown step {step!r} in start")
    if step == Step.DAMAGE:
        raise ScenarioError("a scenario cannot start inside the Damage Step; start in the Battle Step")
    battle_phases = int(start.get("battle_phases", 1 if phase in (Phase.BATTLE, Phase.MAIN2) else 0))
    b = _Builder(turn, battle_phases)
    lp = [8000, 8000]
    sides: dict[int, dict[str, Any]] = {}
    for key, seat in SEATS.items():
        side = check_map(f"start.{key}", start.get(key))
        sides[seat] = side
        lp[seat] = int(side.get("lp", 8000))
        _side(b, seat, side, key)
    # materials become their own cards, attached to the monster
    for entry in list(b.cards):
        for mspec in entry.pop("materials_specs", []):
            m = b.add(entry["owner"], mspec, "xyz_material")
            entry.setdefault("materials", []).append(m["id"])
    for name, ids in b.names.items():
        if len(ids) == 1 and name not in b.labels:
            b.labels[name] = ids[0]
    by_id = {e["id"]: e for e in b.cards}
    for entry in b.cards:
        label = entry.pop("equipped_to_label", None)
        if label is not None:
            entry["equipped_to"] = _label(b, label, "equipped_to")
    start_step: list[list[int]] = [[], []]
    for seat, side in sides.items():
        for label in side.get("start_step_monsters", []) or []:
            cid = _label(b, label, f"start_step_monsters of {'AB'[seat]}")
            e = by_id[cid]
            if e["owner"] != seat or e["zone"] not in (Zone.MONSTERS, Zone.GRAVEYARD):
                raise ScenarioError(
                    f"start_step_monsters: {label!r} is not a monster or Graveyard card of {'AB'[seat]}"
                )
            start_step[seat].append(cid)
            if e["zone"] == Zone.GRAVEYARD:
                # one of them already destroyed by battle and sent to the Graveyard this Battle Phase
                e.setdefault("flags", {})["battle_sent"] = [turn, battle_phases]
    options: dict[str, Any] = {"scenario": True}
    fmt = duel_format(doc)
    if fmt != DEFAULT.name:
        options[FORMAT_KEY] = fmt  # a duel of the default format names none, as a file without the key
    dice = doc.get("dice")
    if dice is not None:
        if not isinstance(dice, list) or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise ScenarioError("dice: a list of die results, 1 to 6")
        options["dice"] = list(dice)
    coins = doc.get("coins")
    if coins is not None:
        if not isinstance(coins, list) or not all(c in COINS for c in coins):
            raise ScenarioError("coins: a list of heads / tails")
        options["coins"] = list(coins)
    tp = start.get("turn_player", "A")
    if tp not in SEATS:
        raise ScenarioError(f"unknown turn_player {tp!r} (A or B)")
    summoned = [bool(sides[s].get("normal_summoned", False)) for s in (0, 1)]
    fact = Setup(
        cards=b.cards,
        lp=lp,
        turn=turn,
        turn_player=SEATS[tp],
        phase=phase,
        step=step,
        rng=int(doc.get("seed", 0) or 0),
        options=options,
        battle_phases=battle_phases,
        extra_battle_phases=int(start["extra_battle_phases"]) if start.get("extra_battle_phases") else ABSENT,
        used=dict(b.used) if b.used else ABSENT,
        normal_summoned=summoned if any(summoned) else ABSENT,
        start_step_monsters=start_step if any(start_step) else ABSENT,
    )
    return fact, b.labels
