"""Scenario files (format 1, docs/scenario-format.md): a position, a script of actions, expectations.

This module is pure: it takes the parsed YAML document (a dict) and runs it against the
engine. Reading files and printing belong to ``server/cli/scenario`` and the pytest collector.
Every key is checked (``scenario_keys``): an unknown one is a ``ScenarioError`` naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .apply import apply_facts
from .battle.battle_step import attacks_remaining
from .cards import CARDS_BY_NAME
from .decide import decide as engine_decide
from .facts import FACTS, TokenMade
from .kernel.hashing import state_hash
from .legal import legal_actions, matches, normalize
from .owed import pending
from .scenario_keys import (
    ACTION_KEYS,
    EXPECT_KEYS,
    HISTORY_KEYS,
    PHASE_NAMES,
    PLACED_POSITIONS,
    STEP_KEYS,
    ZONE_NAMES,
    ScenarioError,
    check_counter,
    check_keys,
    check_map,
    plain_value,
)
from .scenario_questions import answer_step, asked_seat, question_text, resolution_choice_text, step_text
from .scenario_setup import SEATS, build_setup
from .state import State
from .stats import atk, def_
from .types import Fact, IllegalAction, WireAction, Zone

__all__ = ["Failure", "Result", "Runner", "ScenarioError", "build_setup", "run", "start_state", "translate"]

SEAT_NAMES = ("A", "B")
CARD_KEYS = ("card", "with", "target", "cost", "tribute", "cards")
# fact fields that name a card: a ``history`` entry may give a label there
FACT_CARD_FIELDS = ("card", "attacker", "target", "by")
MAX_PASSES = 30


@dataclass
class Failure:
    step: int
    what: str
    expected: Any = None
    actual: Any = None
    # it already says what to write (a misplaced ``choose``): not replaced by the question asked
    says_what_to_write: bool = field(default=False, compare=False)

    def __str__(self) -> str:
        if self.expected is None and self.actual is None:
            return f"step {self.step}: {self.what}"
        return f"step {self.step}: {self.what}: expected {self.expected!r}, got {self.actual!r}"


@dataclass
class Result:
    name: str
    ok: bool
    failure: Failure | None = None
    state: State | None = None
    entries: list[list[Fact]] = field(default_factory=list)


def start_state(doc: dict[str, Any]) -> tuple[State, dict[str, int], Fact]:
    fact, labels = build_setup(doc)
    return apply_facts(State(), [fact]), labels, fact


# ------------------------------------------------------------------ translation


def _resolve(labels: dict[str, int], v: Any) -> Any:
    if isinstance(v, list):
        return [_resolve(labels, x) for x in v]
    if isinstance(v, str):
        if v not in labels:
            if v in CARDS_BY_NAME:
                raise ScenarioError(
                    f"card name {v!r} is not unique in this scenario (or not in it): give it a label with 'as'"
                )
            raise ScenarioError(f"unknown label or card name {v!r}")
        return labels[v]
    return v


def translate(labels: dict[str, int], seat_key: str, body: dict[str, Any]) -> tuple[int, WireAction]:
    """``{A: attack, with: dm, target: bewd}`` -> (0, {"do": "attack", "with": 3, "target": 7})."""
    if seat_key not in SEATS:
        raise ScenarioError(f"unknown player {seat_key!r}")
    do = body[seat_key] if seat_key in body else body.get("do")
    if do not in ACTION_KEYS:
        raise ScenarioError(f"unknown action {do!r}")
    check_keys(f"the {do!r} action {body!r}", (k for k in body if k not in (seat_key, "do")), ACTION_KEYS[do])
    action: WireAction = {"do": do}
    for k, v in body.items():
        if k in (seat_key, "do"):
            continue
        if k in CARD_KEYS:
            action[k] = _resolve(labels, v)
        elif k == "choose":
            items = v if isinstance(v, list) else [v]
            action[k] = [labels[x] if isinstance(x, str) and x in labels else plain_value(x) for x in items]
        elif k == "option":
            action[k] = plain_value(v)
        else:
            action[k] = v
    if do == "activate":
        for k in ("target", "cost"):
            if k in action and not isinstance(action[k], list):
                action[k] = [action[k]]
    if do == "choose" and "cards" in action and not isinstance(action["cards"], list):
        action["cards"] = [action["cards"]]
    if do == "retarget" and "target" in action and isinstance(action["target"], list):
        action["target"] = action["target"][0]
    return SEATS[seat_key], normalize(action)


def _seat_of_step(step: dict[str, Any]) -> str | None:
    keys = [k for k in step if k in SEATS]
    if len(keys) > 1:
        raise ScenarioError(f"a step names one player, not {keys}")
    return str(keys[0]) if keys else None


# ------------------------------------------------------------------ running


class Runner:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.name = str(doc.get("name", "unnamed"))
        self.state, self.labels, setup = start_state(doc)
        self.entries: list[list[Fact]] = [[setup]]
        self.auto = bool(doc.get("auto_pass", False))
        self.current = -1  # the step being run
        self.asked_at: int | None = None  # the step during which the pending question was asked
        self.tokens: dict[str, int] = {}  # Tokens made during the steps, by name (``label_token``)

    def waiting(self) -> int | None:
        p = pending(self.state)
        return None if p is None else p["seat"]

    def act(self, seat: int, action: WireAction) -> None:
        facts = engine_decide(self.state, seat, action)
        self.entries.append(facts)
        was = self.state.choice
        self.state = apply_facts(self.state, facts)
        if self.state.choice is not None and self.state.choice != was:
            self.asked_at = self.current
        for f in facts:
            if isinstance(f, TokenMade):
                self.label_token(f)

    def label_token(self, f: TokenMade) -> None:
        """A Token made during the steps is labelled by its name and its number among the Tokens
        of that name made so far: "Sheep Token 1", "Sheep Token 2" ..."""
        name = self.state.cards[f.card].data.name
        n = self.tokens.get(name, 0) + 1
        self.tokens[name] = n
        self.labels[f"{name} {n}"] = f.card

    def pass_once(self, idx: int) -> Failure | None:
        w = self.waiting()
        if w is None:
            return Failure(idx, "a pass was needed but the duel is over")
        if not any(a["do"] == "pass" for a in legal_actions(self.state, w)):
            return Failure(
                idx,
                f"{SEAT_NAMES[w]} would have to pass, but passing is not legal now",
                "pass",
                self.describe_legal(legal_actions(self.state, w)),
            )
        self.act(w, {"do": "pass"})
        return None

    def auto_pass_before(self, idx: int, seat: int, action: WireAction, only_others: bool = False) -> Failure | None:
        for _ in range(MAX_PASSES + 1):
            w = self.waiting()
            if w is None:
                return None
            if w == seat:
                if only_others or any(matches(action, la) for la in legal_actions(self.state, seat)):
                    return None
                misplaced = self.misplaced_choose(idx, seat, action)
                if misplaced is not None:
                    return misplaced
            f = self.pass_once(idx)
            if f is not None:
                return f
        return Failure(idx, f"auto_pass: more than {MAX_PASSES} passes before the action")

    def run(self) -> Result:
        for idx, step in enumerate(self.doc.get("steps", []) or []):
            self.current = idx
            try:
                f = self.step(idx, step)
            except ScenarioError:
                raise
            except IllegalAction as e:
                f = Failure(idx, f"the engine rejected the action: {e.code}: {e.reason}")
            if f is not None:
                if not f.says_what_to_write:
                    f = self.unanswered(idx, step) or f
                return Result(self.name, False, f, self.state, self.entries)
        return Result(self.name, True, None, self.state, self.entries)

    def unanswered(self, idx: int, step: dict[str, Any]) -> Failure | None:
        """The failure of step ``idx`` when it failed because a question the engine asks is not
        answered: the question in words and the step that answers it, where to add it."""
        seat = asked_seat(self.state)
        if seat is None:
            return None
        who = SEAT_NAMES[seat]
        asked = question_text(self.state, self.labels)
        answer = answer_step(self.state, self.labels)
        if who in step and not any(k in step for k in ("expect", "pass_until", "illegal")):
            return Failure(idx, f"{asked}: step {idx} does not answer it; answer with {answer}")
        k = self.asked_at
        if k is not None and k < idx:
            return Failure(idx, f"{asked}: add {answer} after step {k}")
        if "pass_until" in step:
            return Failure(
                idx,
                f"{asked} while step {idx} passes: end that step at the question "
                f"({{pass_until: {{waiting_for: {who}}}}}) and add {answer} after it",
            )
        return Failure(idx, f"{asked}: add {answer} before step {idx}")

    def misplaced_choose(self, idx: int, seat: int, action: WireAction) -> Failure | None:
        """A ``choose`` on ``activate`` for a selection the card makes as it resolves (ruling
        SEL-1): the activation is legal without it, and offers no ``choose``."""
        if action["do"] != "activate" or not action.get("choose"):
            return None
        bare = {k: v for k, v in action.items() if k != "choose"}
        for la in legal_actions(self.state, seat):
            if not la.get("choose") and matches(bare, la):
                card = self.state.cards[int(la["card"])].data.name
                later = resolution_choice_text(self.state, self.labels, seat, action)
                return Failure(
                    idx,
                    f"{SEAT_NAMES[seat]} is asked nothing when {card} is activated: it selects as it resolves "
                    f"(ruling SEL-1), so remove choose from step {idx} "
                    f"({step_text(self.state, self.labels, seat, action)}) and add {later} after it",
                    says_what_to_write=True,
                )
        return None

    def step(self, idx: int, step: Any) -> Failure | None:
        if not isinstance(step, dict):
            raise ScenarioError(f"step {idx} is not a map")
        special = [k for k in ("expect", "pass_until", "illegal") if k in step]
        if special:
            check_keys(f"step {idx}", step, frozenset({special[0]}))
        if "expect" in step:
            return self.expect(idx, check_map(f"step {idx}: expect", step["expect"]))
        if "pass_until" in step:
            cond = check_map(f"step {idx}: pass_until", step["pass_until"])
            for _ in range(MAX_PASSES + 1):
                if self.expect(idx, cond, quiet=True) is None:
                    return None
                f = self.pass_once(idx)
                if f is not None:
                    return f
            return Failure(idx, f"pass_until: condition not reached after {MAX_PASSES} passes", step["pass_until"])
        if "illegal" in step:
            return self.illegal(idx, check_map(f"step {idx}: illegal", step["illegal"]))
        key = _seat_of_step(step)
        if key is None:
            check_keys(f"step {idx}", step, STEP_KEYS)
            raise ScenarioError(f"step {idx}: no player, expect, illegal or pass_until")
        seat, action = translate(self.labels, key, step)
        if self.auto:
            f = self.auto_pass_before(idx, seat, action)
            if f is not None:
                return f
        w = self.waiting()
        if w != seat and action["do"] != "concede":
            return Failure(idx, f"{key} cannot act: the engine waits for", key, None if w is None else SEAT_NAMES[w])
        misplaced = self.misplaced_choose(idx, seat, action)
        if misplaced is not None:
            return misplaced
        self.act(seat, action)
        return None

    def illegal(self, idx: int, body: dict[str, Any]) -> Failure | None:
        key = _seat_of_step(body)
        if key is None:
            raise ScenarioError(f"step {idx}: illegal needs a player")
        seat, action = translate(self.labels, key, body)
        if self.auto:
            f = self.auto_pass_before(idx, seat, action, only_others=True)
            if f is not None:
                return f
        before = self.state
        digest = state_hash(before)
        try:
            self.act(seat, action)
        except IllegalAction:
            if self.state is not before or state_hash(before) != digest:
                return Failure(idx, "the rejected action changed the state")
            return None
        return Failure(
            idx, f"{key} {action['do']} should be illegal, but the engine accepted it", "illegal", "accepted"
        )

    # -------------------------------------------------------------- expectations

    def expect(self, idx: int, exp: dict[str, Any], quiet: bool = False) -> Failure | None:
        check_keys(f"step {idx}: expect", exp, EXPECT_KEYS)
        s = self.state
        for key, want in exp.items():
            got: Any
            if key == "lp":
                for who, v in check_map("lp", want).items():
                    got = s.players[self.seat(who)].lp
                    if got != v:
                        return Failure(idx, f"lp of {who}", v, got)
                continue
            if key in ("zone", "controller", "position", "atk", "def", "attacks_remaining", "counters"):
                for label, v in check_map(key, want).items():
                    f = self.card_expectation(idx, key, label, v)
                    if f is not None:
                        return f
                continue
            if key in ("hand_count", "deck_count"):
                for who, v in check_map(key, want).items():
                    p = s.players[self.seat(who)]
                    got = len(p.hand if key == "hand_count" else p.deck)
                    if got != v:
                        return Failure(idx, f"{key} of {who}", v, got)
                continue
            if key in ("legal", "illegal"):
                f = self.legality(idx, key, check_map(key, want))
                if f is not None:
                    return f
                continue
            if key == "history":
                f = self.history(idx, check_map("history", want))
                if f is not None:
                    return f
                continue
            got = self.simple(key)
            if key == "chain":
                want = [_resolve(self.labels, x) for x in want]
            if got != want:
                if key == "chain":
                    inv = {v: k for k, v in self.labels.items()}
                    got = [inv.get(x, x) for x in got]
                    want = exp[key]
                return Failure(idx, key, want, got)
        return None

    def seat(self, who: Any) -> int:
        if who not in SEATS:
            raise ScenarioError(f"unknown player {who!r} (A or B)")
        return SEATS[who]

    def card_expectation(self, idx: int, key: str, label: str, want: Any) -> Failure | None:
        s = self.state
        c = s.cards[_resolve(self.labels, label)]
        got: Any
        if key == "zone":
            if want not in ZONE_NAMES:
                raise ScenarioError(f"unknown zone {want!r} in expect.zone (known: {', '.join(sorted(ZONE_NAMES))})")
            got = c.zone
        elif key == "controller":
            got = SEAT_NAMES[c.controller]
        elif key == "position":
            if want not in PLACED_POSITIONS:
                raise ScenarioError(f"unknown position {want!r} in expect.position (attack, defense or set)")
            got = "set" if c.zone == Zone.MONSTERS and not c.face_up else c.position
        elif key == "atk":
            got = atk(s, c)
        elif key == "def":
            got = def_(s, c)
        elif key == "counters":
            wanted = check_map(f"counters of {label}", want)
            for name, n in wanted.items():
                check_counter(f"expect.counters of {label}", name)
                got = c.counters.get(name, 0)
                if got != n:
                    return Failure(idx, f"{name} on {label}", n, got)
            return None
        else:
            got = attacks_remaining(s, c)
        if got != want:
            return Failure(idx, f"{key} of {label}", want, got)
        return None

    def legality(self, idx: int, key: str, want: dict[str, Any]) -> Failure | None:
        for who, entries in want.items():
            seat = self.seat(who)
            acts = legal_actions(self.state, seat)
            for e in entries:
                if not isinstance(e, dict) or "do" not in e:
                    raise ScenarioError(f"{key}: each entry is an action map with 'do', got {e!r}")
                _, a = translate(self.labels, "A", {"A": e["do"], **{k: v for k, v in e.items() if k != "do"}})
                ok = any(matches(a, la) for la in acts)
                if key == "legal" and not ok:
                    return Failure(idx, f"legal for {who}: {e}", "legal", self.describe_legal(acts))
                if key == "illegal" and ok:
                    return Failure(idx, f"illegal for {who}: {e}", "illegal", "legal")
        return None

    # -------------------------------------------------------------- history

    def facts_so_far(self) -> list[Fact]:
        return [f for entry in self.entries[1:] for f in entry]

    def fact_pattern(self, entry: Any) -> dict[str, Any]:
        pat = {"t": entry} if isinstance(entry, str) else check_map("a history fact", entry)
        if pat.get("t") not in FACTS:
            raise ScenarioError(f"unknown fact type {pat.get('t')!r} in history (known: {', '.join(sorted(FACTS))})")
        return {
            k: (_resolve(self.labels, v) if k in FACT_CARD_FIELDS and isinstance(v, str) else v) for k, v in pat.items()
        }

    def history(self, idx: int, want: dict[str, Any]) -> Failure | None:
        check_keys(f"step {idx}: expect.history", want, HISTORY_KEYS)
        facts = self.facts_so_far()
        for key in ("no_fact", "fact"):
            if key not in want:
                continue
            entries = want[key] if isinstance(want[key], list) else [want[key]]
            for e in entries:
                pat = self.fact_pattern(e)
                found = [f for f in facts if all(f.get(k) == v for k, v in pat.items())]
                if key == "no_fact" and found:
                    return Failure(idx, f"history: no fact {e!r}", "none", found[0].to_wire())
                if key == "fact" and not found:
                    return Failure(idx, f"history: a fact {e!r}", e, "none")
        if "phases_visited" in want:
            for p in want["phases_visited"]:
                if p not in PHASE_NAMES:
                    raise ScenarioError(f"unknown phase {p!r} in history.phases_visited")
            got = [f["phase"] for f in facts if f["t"] == "phase" and f.get("step") in (None, "start")]
            if got != list(want["phases_visited"]):
                return Failure(idx, "history: phases visited", want["phases_visited"], got)
        return None

    def simple(self, key: str) -> Any:
        s = self.state
        if key == "turn":
            return s.turn
        if key == "turn_player":
            return SEAT_NAMES[s.turn_player]
        if key == "phase":
            return s.phase
        if key == "step":
            return s.step
        if key == "damage_step":
            return s.damage_step
        if key == "waiting_for":
            w = self.waiting()
            return None if w is None else SEAT_NAMES[w]
        if key == "chain":
            return [link.card for link in s.chain]
        if key == "battle_phases_this_turn":
            return s.battle_phases
        if key == "winner":
            return None if s.winner is None else ("draw" if s.winner == "draw" else SEAT_NAMES[int(s.winner)])
        raise ScenarioError(f"unknown expect key {key!r}")

    def describe_legal(self, acts: list[WireAction]) -> list[dict[str, Any]]:
        inv = {v: k for k, v in self.labels.items()}
        out = []
        for a in acts:
            d = {}
            for k, v in a.items():
                if k in (*CARD_KEYS, "choose"):
                    d[k] = [inv.get(x, x) for x in v] if isinstance(v, list) else inv.get(v, v)
                else:
                    d[k] = v
            out.append(d)
        return out


def run(doc: dict[str, Any]) -> Result:
    """Run one parsed scenario document."""
    if not isinstance(doc, dict) or doc.get("format") != 1:
        raise ScenarioError("only scenario format 1 is supported")
    return Runner(doc).run()
