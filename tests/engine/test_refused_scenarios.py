"""The guard of issue 35: every card of the pool has a scenario in which it is refused.

Besides its positive scenarios, each card of ``engine/data/cards.json`` needs at least one
scenario under ``tests/scenarios/`` (which pytest runs, so it passes) that shows the engine
refusing it. How a scenario counts as refusing a card ``X``, read from the YAML alone (never
from the file's name):

1. **An activation of X is refused**: an ``illegal`` step, or an ``illegal`` expectation, whose
   action is ``activate`` with ``card`` naming X (by its label from the start position, or by
   its card name). This is the rule for every card with an effect a player activates (Spells,
   Traps, ignition and quick effects) and for optional trigger effects, which the engine offers
   to their controller as ``activate`` actions (ruling GEN-4: a card cannot be activated when
   its effect could not be applied).
2. **A trigger of X does not activate**: a ``history: {no_fact: ...}`` entry ``{t: activated,
   card: X}``. Mandatory trigger and FLIP effects go on the chain by themselves (no action
   offers them), so the scenario shows that they never did.
3. **A Summon of X is refused**, for cards whose Summon the rules restrict (a summoning
   condition: "Cannot be Special Summoned", "Must be ... Summoned and cannot be Special Summoned
   by other ways", "can only be Special Summoned by", "There can only be 1 face-up ...", a
   Summon procedure; ruling SUM-1, SUM-2): an ``illegal`` step or expectation whose action is
   ``summon``, ``set`` or ``flip_summon`` of X, or an ``activate`` (of any card) whose
   ``target`` names X (Monster Reborn cannot target it). Such a card needs this kind of refusal
   even when rule 1 or 2 already covers its effects.

A card with no effect that activates and no summoning condition has nothing to refuse: a Normal
Monster, or a monster whose effects are all continuous (they apply while it is face-up, without
an activation). Those are exempt, each listed in ``EXEMPT`` with the reason; the test checks that
the list is exactly the cards of that kind, so a card gaining an activated effect or a summoning
condition leaves it and needs a refused scenario."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

import engine.effects  # noqa: F401  (registers every card script)
from engine.cards import CARDS_BY_NAME
from engine.catalog import supported
from engine.effects.base import SCRIPTS
from engine.stats import summoned_only_its_own_way

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = ROOT / "tests" / "scenarios"
ZONES = ("hand", "deck", "extra", "graveyard", "banished", "monsters", "spells_traps")

_CONTINUOUS = "its effects are continuous: they apply while it is face-up, with no activation to refuse"
_NORMAL = "a Normal Monster: no effect and no summoning condition"
_FUSION = "a Fusion Monster with no effect: nothing activates, and its Summon follows SUM-1 and SUM-31"
EXEMPT: dict[str, str] = {
    "Berserk Gorilla": _CONTINUOUS,
    "Blade Knight": _CONTINUOUS + " (the FLIP effects it negates are refused in morphing_jar_refused.yaml)",
    "Command Knight": _CONTINUOUS,
    "Dark Elf": _CONTINUOUS + " (its attack cost is paid as it attacks)",
    "Elemental HERO Bladedge": _CONTINUOUS,
    "Elemental HERO Wildheart": _CONTINUOUS,
    "Ojama King": _CONTINUOUS + " (the zones are selected as it becomes face-up, without an activation)",
    "Fiend Skull Dragon": _CONTINUOUS + " (it negates a Trap that targets it as that Trap resolves)",
    "Fusilier Dragon, the Dual-Mode Beast": "a summoning rule of its own (Summoned without Tributes), no activation",
    "Gyaku-Gire Panda": _CONTINUOUS,
    "Helios - The Primordial Sun": _CONTINUOUS,
    "Hoshiningen": _CONTINUOUS,
    "Jinzo": _CONTINUOUS,
    "Spell Canceller": _CONTINUOUS,
    "Star Boy": _CONTINUOUS,
    "Thunder Nyan Nyan": _CONTINUOUS,
    **{
        name: _FUSION
        for name in (
            "Darkfire Dragon",
            "Dragoness the Wicked Knight",
            "Flame Ghost",
            "Giltia the D. Knight",
            "Master of Oz",
            "Thousand Dragon",
        )
    },
    **{
        name: _NORMAL
        for name in (
            "Alexandrite Dragon",
            "Archfiend Soldier",
            "Armored Zombie",
            "Battle Ox",
            "Beaver Warrior",
            "Blue-Eyes White Dragon",
            "Celtic Guardian",
            "Dark Magician",
            "Elemental HERO Avian",
            "Elemental HERO Burstinatrix",
            "Elemental HERO Clayman",
            "Elemental HERO Sparkman",
            "Feral Imp",
            "Gemini Elf",
            "Gene-Warped Warwolf",
            "Giant Soldier of Stone",
            "Gladiator Beast Andal",
            "Kozaky",
            "La Jinn the Mystical Genie of the Lamp",
            "Luster Dragon",
            "Mad Dog of Darkness",
            "Mystical Elf",
            "Neo the Magic Swordsman",
            "Silver Fang",
            "Summoned Skull",
            "Vorse Raider",
        )
    },
}


def has_summon_condition(name: str) -> bool:
    """The card's Summon is restricted by its own text or script (rule 3 of the docstring)."""
    data = CARDS_BY_NAME[name]
    sc = SCRIPTS.get(data.code)
    if summoned_only_its_own_way(data):
        return True
    return sc is not None and (sc.cannot_special_summon or sc.procedure is not None or sc.unique_face_up is not None)


def has_activated_effect(name: str) -> bool:
    sc = SCRIPTS.get(CARDS_BY_NAME[name].code)
    return sc is not None and bool(sc.effects)


def _entries(node: Any) -> Iterator[dict[str, Any]]:
    """The action entries of an ``illegal`` expectation ({A: [...], B: [...]})."""
    if isinstance(node, dict):
        for value in node.values():
            for entry in value if isinstance(value, list) else [value]:
                if isinstance(entry, dict):
                    yield entry


def _names(value: Any, labels: dict[str, str]) -> set[str]:
    items = value if isinstance(value, list) else [value]
    return {labels.get(str(v), str(v)) for v in items if v is not None}


def _labels(doc: dict[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}

    def visit(entry: Any) -> None:
        if isinstance(entry, dict) and "card" in entry:
            if "as" in entry:
                out[str(entry["as"])] = str(entry["card"])
            for m in entry.get("materials", []) or []:
                visit(m)

    start = doc.get("start") or {}
    for side in ("A", "B"):
        sd = start.get(side) or {}
        for zone in ZONES:
            for entry in sd.get(zone, []) or []:
                visit(entry)
        visit(sd.get("field"))
    return out


def _refusals(doc: dict[str, Any]) -> tuple[set[str], set[str]]:
    """(cards whose activation or trigger is refused, cards whose Summon is refused) in one
    scenario, by card name."""
    labels = _labels(doc)
    activations: set[str] = set()
    summons: set[str] = set()

    def refused(action: str, entry: dict[str, Any]) -> None:
        if action == "activate":
            activations.update(_names(entry.get("card"), labels))
            summons.update(_names(entry.get("target"), labels))
        elif action in ("summon", "set", "flip_summon"):
            summons.update(_names(entry.get("card"), labels))

    for step in doc.get("steps", []) or []:
        if not isinstance(step, dict):
            continue
        if isinstance(step.get("illegal"), dict):
            for player in ("A", "B"):
                if player in step["illegal"]:
                    refused(str(step["illegal"][player]), step["illegal"])
        expect = step.get("expect") or step.get("pass_until")
        if not isinstance(expect, dict):
            continue
        for entry in _entries(expect.get("illegal")):
            refused(str(entry.get("do")), entry)
        history = expect.get("history") or {}
        no_fact = history.get("no_fact", []) if isinstance(history, dict) else []
        for fact in no_fact if isinstance(no_fact, list) else [no_fact]:
            if isinstance(fact, dict) and fact.get("t") == "activated":
                activations.update(_names(fact.get("card"), labels))
    return activations, summons


def refused_cards() -> tuple[set[str], set[str]]:
    activations: set[str] = set()
    summons: set[str] = set()
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text("utf-8"))
        a, s = _refusals(doc)
        activations |= a
        summons |= s
    return activations, summons


def test_the_exempt_cards_are_exactly_those_with_nothing_to_refuse() -> None:
    nothing = {c.name for c in supported() if not has_activated_effect(c.name) and not has_summon_condition(c.name)}
    assert set(EXEMPT) == nothing, (
        f"not exempt but nothing to refuse: {sorted(nothing - set(EXEMPT))}; "
        f"exempt but refusable: {sorted(set(EXEMPT) - nothing)}"
    )


def test_every_card_has_a_refused_scenario() -> None:
    activations, summons = refused_cards()
    lacking = []
    for card in supported():  # a card not yet scripted is in no deck a duel may use
        name = card.name
        if name in EXEMPT:
            continue
        if has_activated_effect(name) and name not in activations:
            lacking.append(f"{name}: no scenario refuses its activation")
        if has_summon_condition(name) and name not in summons:
            lacking.append(f"{name}: no scenario refuses its Summon")
    assert not lacking, "cards without a refused scenario:\n" + "\n".join(lacking)


def test_the_reading_of_a_scenario() -> None:
    """The rules above on a small document: labels, names, illegal steps and expectations,
    history, and what does not count (a legal expectation, a passed step)."""
    doc = {
        "start": {
            "A": {"hand": [{"card": "Monster Reborn", "as": "reborn"}], "monsters": ["Kozaky"]},
            "B": {
                "graveyard": [{"card": "Elemental HERO Wildedge", "as": "edge"}],
                "monsters": [{"card": "Cipher Soldier", "as": "cs"}],
            },
        },
        "steps": [
            {"illegal": {"B": "activate", "card": "Book of Moon"}},
            {"expect": {"illegal": {"A": [{"do": "activate", "card": "reborn", "target": "edge"}]}}},
            {"expect": {"legal": {"A": [{"do": "activate", "card": "Dark Hole"}]}}},
            {"expect": {"history": {"no_fact": [{"t": "activated", "card": "cs"}, "battle"]}}},
            {"A": "activate", "card": "Pot of Greed"},
        ],
    }
    assert _refusals(doc) == (
        {"Book of Moon", "Monster Reborn", "Cipher Soldier"},
        {"Elemental HERO Wildedge"},
    )
