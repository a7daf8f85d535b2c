"""PROTOCOL.md section 13 is the whole contract for views, facts and actions: what random duels
actually send (through ``engine.Viewpoints``, as the server does) must all be documented there,
and every documented fact type must be one a client can receive."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from engine import DuelConfig, Viewpoints, apply_facts, create, decide, fold, pending
from engine.redaction import HIDDEN_RULE, RULES
from tests.engine.test_pool_duels import random_deck

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "PROTOCOL.md").read_text()
SECTION = DOC[DOC.index("## 13. Game data") : DOC.index("## 14.")]
NAME = re.compile(r"`([a-z_]+)`")


def table(title: str) -> dict[str, set[str]]:
    """The first column's names -> the names in the second column, of the table after
    ``title``."""
    start = SECTION.index(title)
    rows: dict[str, set[str]] = {}
    in_table = False
    for line in SECTION[start:].splitlines()[1:]:
        if line.startswith("|"):
            in_table = True
            cells = [c.strip() for c in line.strip("|").split("|")]
            if set(cells[0]) <= {"-", " "} or cells[0] in ("key", "`t`", "action"):
                continue
            for name in NAME.findall(cells[0]):
                rows[name] = set(NAME.findall(cells[1])) if len(cells) > 1 else set()
        elif in_table:
            break
    return rows


def observed(duels: int = 6) -> tuple[dict[str, set[str]], dict[str, set[str]], dict[str, set[str]], set[str]]:
    facts: dict[str, set[str]] = defaultdict(set)
    views: dict[str, set[str]] = defaultdict(set)
    actions: dict[str, set[str]] = defaultdict(set)
    kinds: set[str] = set()
    for seed in range(duels):
        rnd = random.Random(seed)
        (d0, e0), (d1, e1) = random_deck(rnd), random_deck(rnd)
        genesis = create(DuelConfig(seed=seed, decks=(d0, d1), extra=(e0, e1)))
        vp = Viewpoints(b"contract-test-key")
        state = fold(genesis)
        seen = vp.apply(genesis)
        for _ in range(500):
            for per in seen:
                for f in per:
                    facts[f["t"]] |= set(f) - {"t"}
            for v in (0, 1, None):
                _view_keys(vp.view(state, v), views)
            owed = pending(state)
            if owed is None:
                break
            seat = int(owed["seat"])
            kinds.add(str(owed["kind"]))
            legal = vp.legal(state, seat)
            for a in legal:
                actions[a["do"]] |= set(a) - {"do"}
            action = rnd.choice(legal)
            facts_ = decide(state, seat, vp.to_engine(seat, action))
            state = apply_facts(state, facts_)
            seen = vp.apply(facts_)
    return facts, views, actions, kinds


def _view_keys(v: dict[str, Any], out: dict[str, set[str]]) -> None:
    out["view"] |= set(v)
    for p in v["players"]:
        out["player"] |= set(p)
        for zone in ("hand", "graveyard", "banished", "monsters", "spells_traps"):
            for c in p[zone]:
                if c is not None:
                    out["card"] |= set(c)
        if p["field"] is not None:
            out["card"] |= set(p["field"])


OBSERVED = observed()


def test_every_fact_type_a_client_can_receive_is_documented_with_its_keys() -> None:
    documented = table("### Facts")
    receivable = {cls.t for cls, rule in RULES.items() if rule is not HIDDEN_RULE}
    assert set(documented) == receivable
    facts, _views, _actions, _kinds = OBSERVED
    assert len(facts) > 20
    for t, keys in facts.items():
        assert keys <= documented[t], (t, keys - documented[t])


def test_every_view_key_is_documented() -> None:
    _facts, views, _actions, _kinds = OBSERVED
    assert views["view"] <= set(table("### The view"))
    players = table("`players[i]`")
    assert views["player"] <= set(players)
    cards = set(table("A card:"))
    assert views["card"] <= cards | {"def"}, views["card"] - cards


def test_every_action_and_its_keys_are_documented() -> None:
    _facts, _views, actions, _kinds = OBSERVED
    documented = table("### Actions")
    for do, keys in actions.items():
        assert do in documented, do
        assert keys <= documented[do], (do, keys - documented[do])


def test_pending_kinds_and_end_reasons_are_documented() -> None:
    _facts, _views, _actions, kinds = OBSERVED
    para = SECTION[SECTION.index("### Pending decisions") : SECTION.index("### Actions")]
    assert kinds <= set(NAME.findall(para)), kinds
    reasons = set(re.findall(r'duel_ended", winner=[^,]+, reason="([a-z_]+)"', _engine_source()))
    reasons |= {"concede"}
    end_row = next(line for line in SECTION.splitlines() if line.startswith("| `end_reason`"))
    assert reasons and reasons <= set(NAME.findall(end_row)), reasons


def _engine_source() -> str:
    return "\n".join(p.read_text() for p in (ROOT / "engine").rglob("*.py"))
