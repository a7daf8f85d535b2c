"""Replay and verify a match log, without sockets.

``replay`` folds the logged facts (what happened, as recorded) and prints
them in plain words; ``verify`` re-runs today's rules (``decide``, and
``create`` for the genesis entry) over the logged actions and reports the
first entry where the facts or the state hash differ from the log.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from server import rules
from server.storage.entry import EXTRA_KEY, FORMAT_KEY, LogEntry, first_of

SEAT_NAMES = ("A", "B")


def seat_name(seat: int | None) -> str:
    return "server" if seat is None else SEAT_NAMES[seat]


def _action_text(entry: LogEntry, state: rules.State | None = None) -> str:
    """The action in words (with the names of the cards it names, given the state before it)."""
    action = dict(entry.action)
    if entry.seq == 1 and action.get("do") == "start":
        return "the duel starts (decks shuffled, opening hands drawn)"
    if entry.seq == 1 and action.get("do") == "scenario":
        return f"the duel starts from the position of scenario {action.get('name', '')!r}"
    do = action.pop("do", "?")
    cards = getattr(state, "cards", {}) or {}

    def named(v: object) -> str:
        if isinstance(v, int) and not isinstance(v, bool) and v in cards:
            return f'"{cards[v].data.name}"'
        if isinstance(v, list):
            return "[" + ", ".join(named(x) for x in v) + "]"
        return str(v)

    rest = " ".join(f"{k}={named(v)}" for k, v in action.items())
    return f"{do} {rest}".strip()


OMNISCIENT = "all"


def replay_lines(
    entries: list[LogEntry], *, actions: bool = False, viewer: int | str | None = OMNISCIENT
) -> Iterator[str]:
    """The duel in plain words, entry by entry. ``viewer``: ``"all"`` (the operator: every
    card named), a seat (0/1: only what that player saw), or None (a spectator)."""
    vp = rules.viewpoints(b"replay")  # the narration names cards, never ids: any alias key does
    index = viewer if isinstance(viewer, int) else 2
    for entry in entries:
        if actions:
            yield f"#{entry.seq} {seat_name(entry.seat)}: {_action_text(entry)}"
        seen = vp.apply(entry.facts)
        facts = entry.facts if viewer == OMNISCIENT else seen[index]
        for fact in facts:
            text = rules.describe(fact)
            if text:
                yield text


def fold_log(entries: list[LogEntry]) -> rules.State:
    state = rules.initial()
    for entry in entries:
        state = rules.fold(entry.facts, state)
    return state


def summary_lines(match_id: str, entries: list[LogEntry], state: rules.State) -> list[str]:
    """The final state: LP, winner, and the state hash (as the live server had it)."""
    view: dict[str, Any] = rules.view(state, None)
    players = view.get("players") or []
    lp = ", ".join(f"{SEAT_NAMES[i]} {p.get('lp')}" for i, p in enumerate(players) if isinstance(p, dict) and i < 2)
    winner = rules.winner(state)
    if winner is None:
        result = "none yet (the duel is not over)"
    elif winner == "draw":
        result = "draw"
    else:
        result = seat_name(int(winner))
    reason = view.get("end_reason")
    computed = rules.state_hash(state)
    logged = entries[-1].state_hash if entries else ""
    lines = [
        "",
        f"Final state of match {match_id} after entry {entries[-1].seq if entries else 0}:",
        f"  Turn: {view.get('turn')}",
        f"  LP: {lp}",
        f"  Winner: {result}" + (f" ({reason})" if reason and winner is not None else ""),
        f"  State hash: {computed}",
    ]
    if logged and logged != computed:
        lines.append(f"  WARNING: the log recorded state hash {logged} for this entry")
    return lines


@dataclass(frozen=True, slots=True)
class Divergence:
    """Where today's rules part from a log: entry ``seq``, and how (``kind``: "facts",
    "state_hash", "illegal", "error"), with the action and, in plain words, what the log
    says happened (``then``) and what today's rules make of it (``now``)."""

    seq: int
    kind: str
    detail: str
    action: str = ""
    then: tuple[str, ...] = ()
    now: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        out = [f"DIVERGED at entry {self.seq} ({self.kind}): {self.detail}"]
        if self.action:
            out.append(f"  the action: {self.action}")
        if self.then:
            out.append("  what the log says happened:")
            out.extend(f"    {line.strip()}" for line in self.then)
        if self.now or self.kind == "facts":
            out.append("  what today's rules make of it:")
            out.extend(f"    {line.strip()}" for line in self.now or ("(nothing)",))
        return out


def _story(facts: list[rules.Fact], state: rules.State | None) -> tuple[str, ...]:
    cards = getattr(state, "cards", {}) or {}
    names = {cid: c.data.name for cid, c in cards.items()}
    return tuple(line for f in facts if (line := rules.describe(f, names.get)))


def verify_log(entries: list[LogEntry], *, hashes: bool = True) -> tuple[Divergence | None, rules.State | None]:
    """Re-run the rules over the logged actions; the first divergence, if any. ``hashes``:
    also compare state hashes (False for a log made by other rules code, whose states may be
    represented differently: then the facts alone are compared)."""
    state: rules.State | None = None
    for entry in entries:
        try:
            if entry.seq == 1 and entry.action.get("do") == "scenario":
                facts = rules.scenario_setup(entry.action["scenario"])
            elif entry.seq == 1:
                action = entry.action
                decks, extra = action["decks"], action.get(EXTRA_KEY)
                facts = rules.genesis(
                    int(action["seed"]),
                    (list(decks[0]), list(decks[1])),
                    None if extra is None else (list(extra[0]), list(extra[1])),
                    action.get(FORMAT_KEY),
                    first_of(action),
                )
            else:
                if entry.seat is None:
                    raise ValueError("an entry after genesis has no acting seat")
                if state is None:
                    raise ValueError("an action comes before the genesis entry")
                facts = rules.decide(state, entry.seat, entry.action)
        except rules.IllegalAction as exc:
            then = _story(entry.facts, state)
            reason = f"today's rules refuse the action: {exc.code}: {exc.reason}"
            return Divergence(entry.seq, "illegal", reason, _action_text(entry, state), then), state
        except Exception as exc:  # a crash of the rules is a divergence too
            return Divergence(entry.seq, "error", f"{type(exc).__name__}: {exc}", _action_text(entry, state)), state
        if facts != entry.facts:
            then, now = _story(entry.facts, state), _story(facts, state)
            detail = _first_difference(entry.facts, facts)
            return Divergence(entry.seq, "facts", detail, _action_text(entry, state), then, now), state
        state = rules.fold(entry.facts, state)
        computed = rules.state_hash(state)
        if hashes and computed != entry.state_hash:
            detail = f"logged {entry.state_hash}, computed {computed}"
            return Divergence(entry.seq, "state_hash", detail, _action_text(entry, state)), state
    return None, state


def _first_difference(logged: list[rules.Fact], now: list[rules.Fact]) -> str:
    for i, (a, b) in enumerate(zip(logged, now, strict=False)):
        if a != b:
            return f"fact {i}: logged {a!r}, rules now give {b!r}"
    return f"logged {len(logged)} facts, rules now give {len(now)}"
