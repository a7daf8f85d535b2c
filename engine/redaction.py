"""What each viewer may see of each fact (docs/adr/0005, DESIGN invariant 5).

One rule per fact type turns a full fact into what seat 0, seat 1 and a
spectator receive: card ids become that viewer's aliases (``engine.aliases``),
a card's identity (``code``) appears only where the viewer knows the card,
and bookkeeping that could link a card across hidden places is dropped
(flags, once-per keys, pending-trigger bookkeeping, the PRNG, Deck orders).
The table is a whitelist: a fact type without a rule reaches nobody, and a
test checks that every fact type the engine emits has one.

Each rule also moves the alias book on by the fact (``AliasBook.follow``), at
the point where the rule needs it: a card that moves is named by its alias on
the side of the move the viewer can track.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .aliases import VIEWERS, AliasBook, Sight, Viewer
from .types import Fact

Seen = list[Fact | None]
"""A fact as seat 0, seat 1 and a spectator see it (None: not at all)."""

Rule = Callable[[AliasBook, Fact], Seen]


def _same(out: Fact | None) -> Seen:
    return [out, None if out is None else dict(out), None if out is None else dict(out)]


def public(*keys: str) -> Rule:
    """A fact with no card in it: the same for everyone (only ``keys`` kept)."""

    def rule(book: AliasBook, fact: Fact) -> Seen:
        book.follow(fact)
        return _same({"t": fact["t"], **{k: fact[k] for k in keys if k in fact}})

    return rule


def hidden(book: AliasBook, fact: Fact) -> Seen:
    """Bookkeeping nobody is sent (it could link a card across hidden places)."""
    book.follow(fact)
    return [None, None, None]


def _ref(book: AliasBook, v: Viewer, cid: Any) -> int | None:
    if not isinstance(cid, int) or isinstance(cid, bool) or cid < 0:
        return None
    return book.ref_any(v, cid)


def _refs(book: AliasBook, v: Viewer, ids: Any) -> list[int]:
    out = []
    for cid in ids or []:
        ref = _ref(book, v, cid)
        if ref is not None:
            out.append(ref)
    return out


def with_cards(
    keep: tuple[str, ...] = (),
    cards: tuple[str, ...] = (),
    lists: tuple[str, ...] = (),
    codes: tuple[tuple[str, str], ...] = (),
    public_codes: tuple[str, ...] = (),
) -> Rule:
    """A fact naming cards that do not move: ``cards`` (one id) and ``lists`` (ids) become
    aliases; each ``(code_key, card_key)`` in ``codes`` is kept only for a viewer who knows
    that card; ``public_codes`` are kept for everyone (an activated card is revealed)."""

    def rule(book: AliasBook, fact: Fact) -> Seen:
        book.follow(fact)
        out: Seen = []
        for v in VIEWERS:
            f: Fact = {"t": fact["t"]}
            for k in keep:
                if k in fact:
                    f[k] = fact[k]
            for k in cards:
                if k in fact:
                    f[k] = _ref(book, v, fact[k])
            for k in lists:
                if k in fact:
                    f[k] = _refs(book, v, fact[k])
            for code_key, card_key in codes:
                cid = fact.get(card_key)
                if fact.get(code_key) is not None and isinstance(cid, int) and book.known(v, cid):
                    f[code_key] = fact[code_key]
            for k in public_codes:
                if k in fact:
                    f[k] = fact[k]
            out.append(f)
        return out

    return rule


def _sights(book: AliasBook, cid: int) -> list[Sight]:
    return [book.sight(v, cid) for v in VIEWERS]


def moving(keep: tuple[str, ...]) -> Rule:
    """A fact that moves one card (``card``): each viewer names it by the alias of the side of
    the move it can track (neither side: no id at all), and sees its identity if it knows the
    card on either side."""

    def rule(book: AliasBook, fact: Fact) -> Seen:
        cid = int(fact["card"])
        before = _sights(book, cid)
        book.follow(fact)
        after = _sights(book, cid)
        out: Seen = []
        for b, a in zip(before, after, strict=True):
            f: Fact = {"t": fact["t"], **{k: fact[k] for k in keep if k in fact}}
            ref = a.ref if a.ref is not None else b.ref
            if ref is not None:
                f["card"] = ref
            if "code" in fact and (a.known or b.known):
                f["code"] = fact["code"]
            out.append(f)
        return out

    return rule


def _duel_started(book: AliasBook, fact: Fact) -> Seen:
    book.follow(fact)
    return _same(
        {
            "t": "duel_started",
            "first": fact.get("first", 0),
            "lp": fact.get("lp", 8000),
            "options": fact.get("options", {}),
            "deck_counts": [len(d) for d in fact["decks"]],
            "extra_counts": [len(e) for e in fact.get("extra", [[], []])],
        }
    )


SETUP_CARD_KEYS = (
    "owner",
    "controller",
    "zone",
    "slot",
    "face_up",
    "position",
    "counters",
    "set_turn",
    "summoned_turn",
)


def _setup(book: AliasBook, fact: Fact) -> Seen:
    """A position set up directly (scenarios, puzzles): each card as the viewer sees it."""
    book.follow(fact)
    out: Seen = []
    for v in VIEWERS:
        cards = []
        for e in fact["cards"]:
            cid = int(e["id"])
            sight = book.sight(v, cid)
            c: dict[str, Any] = {k: e[k] for k in SETUP_CARD_KEYS if k in e}
            if sight.ref is not None:
                c["id"] = sight.ref
            if sight.known:
                c["code"] = e["code"]
            else:
                c["hidden"] = True
            if e.get("equipped_to") is not None:
                c["equipped_to"] = _ref(book, v, e["equipped_to"])
            if e.get("materials"):
                c["materials"] = _refs(book, v, e["materials"])
            cards.append(c)
        red: Fact = {
            k: fact[k] for k in ("lp", "turn", "turn_player", "phase", "step", "options", "battle_phases") if k in fact
        }
        out.append({"t": "setup", **red, "cards": cards})
    return out


def _triggered(book: AliasBook, fact: Fact) -> Seen:
    """A trigger effect waiting to be activated: only a viewer who knows the card learns of it
    (a card in the hand must not betray itself before its owner activates it)."""
    book.follow(fact)
    cid = int(fact["card"])
    out: Seen = []
    for v in VIEWERS:
        if not book.known(v, cid):
            out.append(None)
            continue
        f: Fact = {k: fact[k] for k in ("t", "code", "effect", "seat", "mandatory") if k in fact}
        f["card"] = book.ref_any(v, cid)
        out.append(f)
    return out


def _activated(book: AliasBook, fact: Fact) -> Seen:
    """An activation reveals the card; its costs and choices are public, once-per keys not."""
    book.follow(fact)
    out: Seen = []
    data = fact.get("data", {}) or {}
    for v in VIEWERS:
        f: Fact = {k: fact[k] for k in ("t", "seat", "code", "effect", "link", "trigger") if k in fact}
        f["card"] = book.ref_any(v, int(fact["card"]))
        f["targets"] = _refs(book, v, fact.get("targets", []))
        shown: dict[str, Any] = {}
        if data.get("cost"):
            shown["cost"] = _refs(book, v, data["cost"])
        if data.get("choose"):
            shown["choose"] = [
                book.ref_any(v, x) if isinstance(x, int) and not isinstance(x, bool) else x for x in data["choose"]
            ]
        if shown:
            f["data"] = shown
        out.append(f)
    return out


def _drew(book: AliasBook, fact: Fact) -> Seen:
    cid = int(fact["card"])
    book.follow(fact)
    out: Seen = []
    for v in VIEWERS:
        f: Fact = {"t": "drew", "seat": fact["seat"]}
        sight = book.sight(v, cid)
        if sight.ref is not None:
            f["card"] = sight.ref
        if sight.known and "code" in fact:
            f["code"] = fact["code"]
        out.append(f)
    return out


MOVE_KEYS = ("from", "to", "slot", "face_up", "position", "controller", "top", "reason")

RULES: dict[str, Rule] = {
    # the duel's frame
    "duel_started": _duel_started,
    "setup": _setup,
    "turn": public("turn", "player"),
    "phase": public("phase", "step", "turn_player", "reason"),
    "damage_step": public("timing"),
    "skip_phase": public("phase", "now"),
    "extra_battle_phase": public("count"),
    "priority": public("seat", "passes", "intent"),
    "passed": public("seat", "intent", "auto"),
    "lp": public("seat", "lp", "delta", "reason"),
    "duel_ended": public("winner", "reason"),
    "modifiers_expired": public("until"),
    "chain_resolved": public(),
    "link_resolved": public("link"),
    "chain_resolving": public(),  # its snapshot of the field is bookkeeping
    "link_resolving": public("link"),
    "attack_replay": public(),
    "attack_ended": public("reason"),
    "battle_stopped": public("reason"),
    "shuffled": public("seat"),
    # cards
    "drew": _drew,
    "moved": moving(MOVE_KEYS),
    "summoned": with_cards(("seat", "kind", "procedure"), cards=("card",), codes=(("code", "card"),)),
    "position_changed": moving(("position", "face_up", "by_player")),
    "flipped": moving(("position", "by_attack")),
    "destroyed": with_cards(("reason",), cards=("card", "by"), codes=(("code", "card"),)),
    "activated": _activated,
    "triggered": _triggered,
    "negated": with_cards(("link", "what"), cards=("card",), public_codes=("code",)),
    # a record: a link without effect, a die roll, a card excavated (shown to both players)
    "note": with_cards(("what", "link", "seat", "result"), cards=("card",), public_codes=("code",)),
    "attack_declared": with_cards(
        ("seat",), cards=("attacker", "target"), codes=(("code", "attacker"), ("target_code", "target"))
    ),
    "attack_retargeted": with_cards(cards=("target",), codes=(("target_code", "target"),)),
    "battle": with_cards(
        ("attacker_atk", "target_atk", "target_def", "damage"), cards=("attacker", "target"), lists=("destroyed",)
    ),
    "modifier": with_cards(("stat", "op", "value", "until"), cards=("card", "source")),
    "counters": with_cards(("name", "count"), cards=("card",)),
    "equipped": with_cards(cards=("card", "to")),
    # bookkeeping that reaches nobody
    "rng": hidden,
    "used": hidden,
    "flag": hidden,
    "choice": hidden,
    "event": hidden,
    "trigger_done": hidden,
    "delayed": hidden,
    "delayed_done": hidden,
    "fixed_outcome": hidden,  # a scenario's fixed die roll / coin toss: what comes next stays unknown
}


def present(book: AliasBook, fact: Fact) -> Seen:
    """The fact as each viewer sees it; moves the book on by the fact."""
    rule = RULES.get(fact["t"])
    if rule is None:
        return hidden(book, fact)
    return rule(book, fact)
