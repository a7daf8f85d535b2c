"""The browser's narration (web/src/describe.ts) tells the same story as the
terminal's (engine/describe.py): both run over the same facts (the golden
duels' logs and one fact of every kind the narration words) and must print
the same lines.  When engine/describe.py changes, this test says so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from browser_env import REPO, in_ci

from engine import CARDS, describe

WEB = REPO / "web"
HARNESS = """
import { readFileSync } from "node:fs";
import { describe } from "./describe.mjs";
const input = JSON.parse(readFileSync(0, "utf-8"));
const names = new Map(Object.entries(input.names).map(([k, v]) => [Number(k), v]));
const out = input.facts.map((f) => describe(f, (c) => names.get(c)));
process.stdout.write(JSON.stringify(out));
"""

# one of every fact the narration words, with the variants it distinguishes
HONEST, BEWD = 37742478, 89631139
SYNTHETIC: list[dict[str, Any]] = [
    {"t": "duel_started", "first": 1, "lp": 4000},
    {"t": "turn", "turn": 2, "player": 1},
    {"t": "phase", "phase": "battle", "step": "damage"},
    {"t": "phase", "phase": "main2"},
    {"t": "damage_step", "timing": "before_damage_calculation"},
    {"t": "drew", "seat": 0, "code": HONEST},
    {"t": "drew", "seat": 1},
    {"t": "summoned", "seat": 0, "kind": "set"},
    {"t": "summoned", "seat": 1, "kind": "tribute", "code": BEWD},
    {"t": "summoned", "seat": 1, "code": 1},
    {"t": "activated", "seat": 0, "code": HONEST, "link": 2},
    {"t": "attack_declared", "seat": 0, "code": BEWD, "target": None},
    {"t": "attack_declared", "seat": 0, "code": BEWD, "target": 7, "target_code": HONEST},
    {"t": "attack_declared", "seat": 1, "code": BEWD, "target": 7},
    {"t": "attack_retargeted", "target": None},
    {"t": "attack_retargeted", "target": 3, "target_code": BEWD},
    {"t": "attack_ended", "reason": "cancelled"},
    {"t": "attack_ended", "reason": "damage_step_over"},
    {"t": "battle", "attacker_atk": 3000, "target": 3, "target_atk": 1100},
    {"t": "battle", "attacker_atk": 3000, "target": 3, "target_def": 1900},
    {"t": "battle", "attacker_atk": 3000, "target": None},
    {"t": "lp", "seat": 1, "delta": -1500, "reason": "battle", "lp": 0},
    {"t": "lp", "seat": 0, "delta": 500, "reason": "effect", "lp": 8500},
    {"t": "lp", "seat": 0, "delta": -1000, "reason": "cost", "lp": 7000},
    {"t": "lp", "seat": 0, "delta": -1, "reason": "other", "lp": 6999},
    {"t": "destroyed", "code": BEWD, "reason": "battle"},
    {"t": "moved", "code": HONEST, "to": "graveyard", "reason": "cost"},
    {"t": "moved", "code": HONEST, "to": "graveyard", "reason": "tribute"},
    {"t": "moved", "code": HONEST, "to": "banished", "reason": "cost"},
    {"t": "moved", "code": HONEST, "to": "graveyard", "reason": "rule"},
    {"t": "moved", "code": HONEST, "to": "graveyard", "reason": "battle"},
    {"t": "moved", "code": HONEST, "to": "banished", "reason": "effect"},
    {"t": "moved", "code": HONEST, "to": "hand", "from": "monsters"},
    {"t": "moved", "code": HONEST, "to": "hand", "from": "deck"},
    {"t": "position_changed", "code": BEWD, "position": "defense"},
    {"t": "flipped", "code": BEWD},
    {"t": "negated", "link": 1},
    {"t": "negated", "link": 2, "what": "effect"},
    {"t": "duel_ended", "winner": 0, "reason": "lp"},
    {"t": "duel_ended", "winner": "draw", "reason": "deck_out"},
    {"t": "priority", "seat": 0, "passes": 1},
]


def facts_to_compare() -> list[dict[str, Any]]:
    facts = list(SYNTHETIC)
    for path in sorted((REPO / "tests" / "golden").glob("*.json")):
        doc = json.loads(path.read_text("utf-8"))
        facts.extend(doc["genesis"])
        for entry in doc["log"]:
            facts.extend(entry["facts"])
    return facts


def test_the_browser_narrates_like_the_terminal(tmp_path: Path) -> None:
    node = shutil.which("node")
    esbuild = WEB / "node_modules" / ".bin" / "esbuild"
    if node is None or not esbuild.exists():
        if in_ci():
            pytest.fail("CI=true: node and web/node_modules are needed (make test installs them)")
        pytest.skip("skipped outside CI: node or web/node_modules missing (make web); with CI=true this fails")
    subprocess.run(
        [str(esbuild), str(WEB / "src" / "describe.ts"), "--bundle", "--format=esm", "--platform=node",
         f"--outfile={tmp_path / 'describe.mjs'}", "--log-level=warning"],
        check=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    (tmp_path / "harness.mjs").write_text(HARNESS)
    facts = facts_to_compare()
    names = {str(code): c.name for code, c in CARDS.items()}
    # JSON has no 64-bit integers: PRNG states (never narrated) travel as strings
    wire = json.dumps({"names": names, "facts": facts}, default=str)
    wire = json.dumps(json.loads(wire, parse_int=lambda s: int(s) if len(s) < 16 else s))
    out = subprocess.run([node, str(tmp_path / "harness.mjs")], input=wire, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    want = [describe(f) for f in facts]
    assert len(got) == len(want)
    diffs = [(f, w, g) for f, w, g in zip(facts, want, got, strict=True) if w != g]
    assert diffs == [], diffs[:5]
    assert sum(1 for w in want if w) > 100  # it compared real narration, not just Nones
