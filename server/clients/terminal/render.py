"""Lines of text from what the server sent: the board, the numbered menu of legal actions, card
text, the "waiting for ..." line and clocks. Pure functions of their arguments: they
work on a receiver's view (PROTOCOL.md, "Card ids") and never name a card the view hides.
"""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from protocol.actions import ActionKind, WireAction
from protocol.words import END_REASONS, PHASE_WORDS, STEP_WORDS, phase_text
from server.clients.terminal.cards import Catalogue

SEATS = ("A", "B")
View = dict[str, Any]
Action = WireAction
ZONE_WORDS = {
    "monsters": "monster zone",
    "spells_traps": "S/T zone",
    "field": "Field Zone",
    "graveyard": "Graveyard",
    "banished": "banished",
    "hand": "hand",
}
POSITION_WORDS = {"attack": "Attack Position", "defense": "Defense Position", "set": "face-down Defense Position"}
KIND_WORDS = {
    "trigger": "whether to activate a triggered effect",
    "discard": "which cards to discard down to 6",
    "replay": "a new attack target (replay)",
    "cards": "which cards an effect selects",
    "options": "an option of an effect",
    "ahead": "whether to activate a card before the triggered effects",
}
HELP = """\
commands:
  N          do action N of the menu
  ? N        the text of the card(s) of action N       ? NAME   the text of a card by name
  b          the board again (with both Graveyards and banished cards)
  m          the menu again                            t        the clocks
  c          concede (asks to confirm)                 q        leave (the seat stays yours:
  h          this help                                            resume with --reconnect TOKEN)
With --auto-pass the client passes for you whenever passing is the only legal action."""


def destination_words(dest: str) -> str:
    """A destination of the view's ``moves`` in words: ``main1`` "Main Phase 1", ``battle/end``
    "the End Step", ``battle/start`` "the Battle Phase"."""
    phase, _, step = dest.partition("/")
    if phase == "battle" and step and step != "start":
        return f"the {STEP_WORDS.get(step, step)}"
    name = PHASE_WORDS.get(phase, phase)
    return name if name.startswith("Main") else f"the {name}"


def seat_label(seat: int, names: list[str] | None = None) -> str:
    """'A "Ann"' (or just 'A' when the seat has no display name)."""
    name = (names or ["", ""])[seat] if names and seat < len(names) else ""
    return f'{SEATS[seat]} "{name}"' if name else SEATS[seat]


def cards_by_id(view: View) -> dict[int, dict[str, Any]]:
    """Every card of the view that has an id, by id (chain links add what they know)."""
    out: dict[int, dict[str, Any]] = {}
    for p in view.get("players", []):
        for zone in ("hand", "graveyard", "banished", "monsters", "spells_traps"):
            for c in p.get(zone) or []:
                if c is not None and isinstance(c.get("id"), int):
                    out[int(c["id"])] = c
        fz = p.get("field")
        if fz is not None and isinstance(fz.get("id"), int):
            out[int(fz["id"])] = fz
    for link in view.get("chain") or []:
        cid = link.get("card")
        if isinstance(cid, int) and cid not in out:
            out[cid] = {"id": cid, "code": link.get("code"), "zone": "chain", "controller": link.get("controller")}
    return out


def known_cards(view: View, pending: dict[str, Any] | None) -> dict[int, dict[str, Any]]:
    """The view's cards, plus the candidates of a pending selection that are nowhere in the view
    (cards of the deciding player's own Deck: ``pending.cards``, named where the seat knows them)."""
    out = cards_by_id(view)
    for entry in (pending or {}).get("cards") or []:
        cid = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(cid, int) and cid not in out:
            out[cid] = {**entry, "zone": "choice"}
    return out


def card_name(view: View, cid: Any, cat: Catalogue | None = None) -> str:
    """A card's name as the viewer knows it ("face-down card" when hidden)."""
    c = cards_by_id(view).get(cid) if isinstance(cid, int) else None
    return _name_of(c, cat)


def _name_of(c: dict[str, Any] | None, cat: Catalogue | None) -> str:
    if c is None:
        return "an unseen card"
    if c.get("hidden"):
        return "face-down card"
    if c.get("name"):
        return str(c["name"])
    known = cat.name(c.get("code")) if cat is not None else None
    return known or "a card"


def _stat_words(c: dict[str, Any], cat: Catalogue | None) -> str:
    """ "Lv4, ATK 1900 / DEF 1200" (a changed stat shows what is printed on the card)."""
    base = cat.get(c.get("code")) if cat is not None else None
    parts = []
    level = cat.level_words(c.get("code")) if cat is not None else ""
    if level:
        parts.append(level)
    if "atk" in c:
        atk, dfn = c.get("atk"), c.get("def")
        text = f"ATK {_num(atk)} / DEF {_num(dfn)}"
        if base is not None and c.get("zone") == "monsters" and (base.get("atk") != atk or base.get("def") != dfn):
            text += f" (printed {_num(base.get('atk'))} / {_num(base.get('def'))})"
        parts.append(text)
    elif (
        cat is not None
        and cat.get(c.get("code")) is not None
        and cat.kind_words(c.get("code")).endswith(("Spell", "Trap"))
    ):
        parts.append(cat.kind_words(c.get("code")))
    return ", ".join(parts)


def _num(v: Any) -> str:
    return "?" if v is None or (isinstance(v, int) and v < 0) else str(v)


def card_line(c: dict[str, Any] | None, cat: Catalogue | None = None, view: View | None = None) -> str:
    """A card on the board or in a hand, with what the viewer knows of it."""
    if c is None:
        return "."
    if c.get("hidden"):
        if c.get("zone") == "monsters":
            return "face-down monster"
        return "face-down card" if c.get("zone") != "hand" else "?"
    out = _name_of(c, cat)
    extra = []
    stats = _stat_words(c, cat)
    if stats:
        extra.append(stats)
    if c.get("zone") == "monsters":
        pos = "set" if not c.get("face_up", True) else str(c.get("position"))
        extra.append(POSITION_WORDS.get(pos, pos))
    elif c.get("zone") in ("spells_traps", "field") and not c.get("face_up", True):
        extra.append("Set")
    for name, n in (c.get("counters") or {}).items():
        extra.append(f"{n} {str(name).replace('_', ' ')}{'s' if n != 1 else ''}")
    if c.get("equipped_to") is not None and view is not None:
        extra.append(f"equipped to {card_name(view, c['equipped_to'], cat)}")
    return f"{out} ({'; '.join(extra)})" if extra else out


def _zone_row(cards: list[dict[str, Any] | None], cat: Catalogue | None, view: View) -> str:
    shown = [f"[{i}] {card_line(c, cat, view)}" for i, c in enumerate(cards, start=1) if c is not None]
    return " · ".join(shown) if shown else "none"


def _pile(cards: list[dict[str, Any]], cat: Catalogue | None) -> str:
    return ", ".join(card_line(c, cat) if c.get("hidden") else _name_of(c, cat) for c in cards) or "none"


def clock_text(ms: int | None) -> str:
    if ms is None:
        return "-"
    s = max(0, ms) // 1000
    return f"{s // 60}:{s % 60:02d}"


def render_board(
    view: View,
    me: int | None,
    cat: Catalogue | None = None,
    *,
    names: list[str] | None = None,
    presence: list[bool | None] | None = None,
    clocks: list[int] | None = None,
    seq: int | None = None,
) -> str:
    """The whole board as ``me`` sees it (None: a spectator), the opponent first. ``presence``:
    each seat's connection (None: it never had one yet)."""
    lines = []
    where = phase_text(str(view.get("phase")), view.get("step"), view.get("damage_step"))
    tp = int(view.get("turn_player") or 0)
    whose = "your turn" if tp == me else f"{seat_label(tp, names)}'s turn"
    head = f"Turn {view.get('turn')} · {whose} · {where}"
    if seq is not None:
        head += f" · entry {seq}"
    lines.append(f"== {head} ==")
    order = (1 - me, me) if me in (0, 1) else (0, 1)
    for seat in order:
        p = view["players"][seat]
        tags = []
        if me is not None:
            tags.append("you" if seat == me else "opponent")
        if presence is not None and seat != me:
            state = presence[seat]
            tags.append("connected" if state else ("not here yet" if state is None else "DISCONNECTED"))
        tag = f" ({', '.join(tags)})" if tags else ""
        stats = f"LP {p['lp']} · hand {p['hand_count']} · deck {p['deck_count']}"
        if p.get("extra_count"):
            stats += f" · extra {p['extra_count']}"
        if clocks is not None:
            stats += f" · clock {clock_text(clocks[seat])}"
        lines.append(f"  {seat_label(seat, names)}{tag}: {stats}")
        lines.append(f"    monsters: {_zone_row(p['monsters'], cat, view)}")
        st = f"    spells/traps: {_zone_row(p['spells_traps'], cat, view)}"
        if p.get("field"):
            st += f" · field: {card_line(p['field'], cat, view)}"
        lines.append(st)
        lines.append(f"    graveyard ({len(p['graveyard'])}): {_pile(p['graveyard'], cat)}")
        lines.append(f"    banished ({len(p.get('banished') or [])}): {_pile(p.get('banished') or [], cat)}")
        if seat == me:
            hand = [f"{card_line(c, cat)}" for c in p["hand"]]
            lines.append(f"    hand ({len(hand)}): " + (" · ".join(hand) or "none"))
    if view.get("chain"):
        links = [
            f"{link['link']}. {card_name(view, link['card'], cat)} ({SEATS[link['controller']]})"
            + (" [negated]" if link.get("negated") else "")
            for link in view["chain"]
        ]
        lines.append("  chain: " + " → ".join(links))
    if view.get("attack"):
        a = view["attack"]
        tgt = "directly" if a.get("target") is None else card_name(view, a["target"], cat)
        lines.append(f"  attack: {card_name(view, a['attacker'], cat)} → {tgt}")
    if view.get("winner") is not None:
        lines.append("  " + result_line(view, me, names))
    return "\n".join(lines)


def result_line(view: View, me: int | None, names: list[str] | None = None) -> str:
    w = view.get("winner")
    reason = END_REASONS.get(str(view.get("end_reason")), str(view.get("end_reason")))
    if w == "draw":
        return f"RESULT: a draw ({reason})"
    if me is not None and isinstance(w, int):
        return f"RESULT: you {'win' if w == me else 'lose'} ({reason})"
    return f"RESULT: {seat_label(int(w), names)} wins ({reason})" if isinstance(w, int) else "RESULT: ?"


# ------------------------------------------------------------------ actions


def action_cards(a: Action) -> list[int]:
    """The cards an action names, the acting card first."""
    out: list[int] = []
    for key in ("card", "with", "target", "tribute", "cost", "cards", "choose"):
        v = a.get(key)
        for x in v if isinstance(v, list) else [v]:
            if isinstance(x, int) and not isinstance(x, bool) and x not in out:
                out.append(x)
    return out


class Labeler:
    """Words for the legal actions of one decision, every line different from the others."""

    def __init__(self, view: View, cat: Catalogue | None, me: int | None, pending: dict[str, Any] | None = None):
        self.view = view
        self.cat = cat
        self.me = me
        self.pending = pending or {}
        self.cards = known_cards(view, pending)

    def where(self, cid: Any) -> str:
        c = self.cards.get(cid) if isinstance(cid, int) else None
        if c is None:
            return ""
        zone = str(c.get("zone"))
        if zone == "chain":
            return "on the chain"
        if zone == "choice":
            return ""
        owner = "" if self.me is None or c.get("controller") == self.me else "opponent's "
        if self.me is None and isinstance(c.get("controller"), int):
            owner = f"{SEATS[int(c['controller'])]}'s "
        if zone == "hand":
            hand = self.view["players"][int(c.get("controller", 0))]["hand"]
            idx = next((i for i, h in enumerate(hand, start=1) if h.get("id") == cid), 0)
            return f"{owner}hand card {idx}" if idx else f"{owner}hand"
        if zone in ("monsters", "spells_traps") and isinstance(c.get("slot"), int):
            return f"{owner}{ZONE_WORDS[zone]} {int(c['slot']) + 1}"
        return f"{owner}{ZONE_WORDS.get(zone, zone)}"

    def name(self, cid: Any, where: bool = False) -> str:
        c = self.cards.get(cid) if isinstance(cid, int) else None
        text = _name_of(c, self.cat)
        if c is not None and not c.get("hidden") and self.me is not None and c.get("controller") not in (self.me, None):
            text = f"the opponent's {text}"
        if c is not None and (where or c.get("hidden")):
            loc = self.where(cid)
            if loc:
                text += f" [{loc}]"
        return text

    def names(self, ids: Any, where: bool = False) -> str:
        items = ids if isinstance(ids, list) else [ids]
        return " and ".join(self.name(x, where) for x in items) if items else "nothing"

    def label(self, a: Action, where: bool = False) -> str:
        do = str(a.get("do"))

        def nm(cid: Any) -> str:
            return self.name(cid, where)

        extras = []
        if a.get("tribute"):
            extras.append(f"Tributing {self.names(a['tribute'], where)}")
        if a.get("cost"):
            extras.append(f"paying with {self.names(a['cost'], where)}")
        if a.get("choose"):
            extras.append(
                "choosing "
                + ", ".join(nm(x) if isinstance(x, int) and x in self.cards else str(x) for x in a["choose"])
            )
        tail = f" ({'; '.join(extras)})" if extras else ""
        if do == ActionKind.PASS:
            return self.pass_label()
        if do == ActionKind.SUMMON:
            if a.get("procedure"):
                pos = POSITION_WORDS.get(str(a.get("position")), "")
                return f"Special Summon {nm(a.get('card'))} by its own procedure, in {pos}{tail}"
            how = "Tribute Summon" if a.get("tribute") else "Normal Summon"
            return f"{how} {nm(a.get('card'))}{tail}"
        if do == ActionKind.SET:
            return f"Set {nm(a.get('card'))}{tail}"
        if do == ActionKind.FLIP_SUMMON:
            return f"Flip Summon {nm(a.get('card'))}"
        if do == ActionKind.CHANGE_POSITION:
            c = self.cards.get(int(a["card"])) if isinstance(a.get("card"), int) else None
            to = "Defense Position" if c is not None and c.get("position") == "attack" else "Attack Position"
            return f"Change {nm(a.get('card'))} to {to}"
        if do == ActionKind.ACTIVATE:
            c = self.cards.get(int(a["card"])) if isinstance(a.get("card"), int) else None
            effect = int(a.get("effect", 1) or 1)
            what = ""
            if c is not None and not c.get("hidden"):
                labels = [] if self.cat is None else self.cat.effect_labels(c.get("code"))
                if len(labels) > 1 and effect <= len(labels):  # a card with one effect needs no name for it
                    what = f": {labels[effect - 1]}"
                elif effect != 1:
                    what = f" (its effect {effect})"
            tgt = f", targeting {self.names(a['target'], where)}" if a.get("target") else ""
            return f"Activate {nm(a.get('card'))}{what}{tgt}{tail}"
        if do == ActionKind.ATTACK:
            if a.get("direct"):
                return f"Attack directly with {nm(a.get('with'))}"
            return f"Attack {nm(a.get('target'))} with {nm(a.get('with'))}"
        if do == ActionKind.RETARGET:
            return "Replay: attack directly" if a.get("direct") else f"Replay: attack {nm(a.get('target'))} instead"
        if do == ActionKind.CANCEL_ATTACK:
            return "Replay: cancel the attack"
        if do == ActionKind.CHOOSE:
            if "option" in a:
                return f"Choose: {a['option']}"
            picked = a.get("cards") or []
            return f"Choose {self.names(picked, where)}" if picked else "Choose none (decline)"
        if do == ActionKind.ENTER_BATTLE_PHASE:
            return "Enter the Battle Phase"
        if do == ActionKind.END_BATTLE_PHASE:
            return "End the Battle Phase"
        if do == ActionKind.NEXT_PHASE:
            return self.move_label(do) or self.next_phase_label()
        if do == ActionKind.END_TURN:
            return self.move_label(do) or "Go to the End Phase"
        if do == ActionKind.FINISH_TURN:
            return "End the turn"
        if do == ActionKind.CONCEDE:
            return "Concede the duel"
        return f"{do.replace('_', ' ')} {', '.join(nm(x) for x in action_cards(a))}".strip()

    def pass_label(self) -> str:
        kind = self.pending.get("kind")
        if kind == "trigger":
            return "Pass: do not activate the triggered effect"
        dest = (self.view.get("moves") or {}).get("pass")
        if isinstance(dest, str):
            return "Pass: the turn ends" if dest == "next_turn" else f"Pass: on to {destination_words(dest)}"
        chain = self.view.get("chain") or []
        if chain:
            top = chain[-1]
            return f"Pass: let chain link {top['link']} ({card_name(self.view, top.get('card'), self.cat)}) resolve"
        if self.view.get("attack") and self.view.get("step") == "battle":
            return "Pass: do not respond"
        return "Pass"

    def move_label(self, do: str) -> str | None:
        """A move through the turn, named by where it goes (the view's ``moves``), if the view says."""
        dest = (self.view.get("moves") or {}).get(do)
        if not isinstance(dest, str):
            return None
        return "End the turn" if dest == "next_turn" else f"Go to {destination_words(dest)}"

    def next_phase_label(self) -> str:
        phase = str(self.view.get("phase"))
        if phase == "main1":
            return "Go to the End Phase (no Battle Phase)"
        if phase == "end":
            return "Finish the turn"
        order = list(PHASE_WORDS)
        i = order.index(phase) if phase in order else -1
        nxt = order[i + 1] if 0 <= i < len(order) - 1 else None
        return f"Go to the {PHASE_WORDS[nxt]}" if nxt else "Next phase"

    def labels(self, legal: list[Action]) -> list[str]:
        """One line per action; two actions never read alike (the zone or the copy is named)."""
        out = [self.label(a) for a in legal]
        counts = Counter(out)
        out = [self.label(a, where=True) if counts[lbl] > 1 else lbl for a, lbl in zip(legal, out, strict=True)]
        counts = Counter(out)
        seen: Counter[str] = Counter()
        final = []
        for lbl in out:
            if counts[lbl] > 1:
                seen[lbl] += 1
                final.append(f"{lbl} (copy {seen[lbl]})")
            else:
                final.append(lbl)
        return final


def describe_action(view: View, a: Action, cat: Catalogue | None = None) -> str:
    """One action in words, as the view's owner (``view["you"]``) would read it."""
    return Labeler(view, cat, view.get("you")).label(a)


MOVE_PREFERENCE = ("finish_turn", "enter_battle_phase", "end_battle_phase", "next_phase", "end_turn", "pass")
"""The moves through the turn, the one kept first when several go to the same place."""


def menu_actions(view: View, legal: list[Action]) -> list[Action]:
    """The actions of the menu: ``legal`` less the moves through the turn that go where another
    one does (the view's ``moves``: in the Draw Phase "Go to the Standby Phase" once, not also as
    ``end_turn`` and ``pass``), the most telling kept (``MOVE_PREFERENCE``), in their order."""
    dests = view.get("moves") or {}
    kept: dict[str, Action] = {}
    for kind in MOVE_PREFERENCE:
        for a in legal:
            dest = dests.get(a.get("do")) if a.get("do") == kind else None
            if isinstance(dest, str) and dest not in kept:
                kept[dest] = a
    chosen = {id(a) for a in kept.values()}
    return [a for a in legal if a.get("do") not in MOVE_PREFERENCE or not dests or id(a) in chosen]


def menu_lines(
    view: View, cat: Catalogue | None, me: int | None, pending: dict[str, Any] | None, legal: list[Action]
) -> list[str]:
    labels = Labeler(view, cat, me, pending).labels(legal)
    return [f"  {i:2}. {lbl}" for i, lbl in enumerate(labels, start=1)]


def pending_about(view: View, cat: Catalogue | None, me: int | None, pending: dict[str, Any] | None) -> str | None:
    """The card a pending decision is about (a trigger's card, the card whose effect asks)."""
    if not pending:
        return None
    lab = Labeler(view, cat, me, pending)
    parts = []
    if isinstance(pending.get("card"), int):
        parts.append(f"card: {lab.name(pending['card'])}")
    if isinstance(pending.get("source"), int):
        parts.append(f"asked by: {lab.name(pending['source'])}")
    return ", ".join(parts) or None


def card_text_lines(view: View, cat: Catalogue, ids: list[int], pending: dict[str, Any] | None = None) -> list[str]:
    """The text of the cards an action names, as far as the viewer may know them."""
    cards = known_cards(view, pending)
    out: list[str] = []
    for cid in ids:
        c = cards.get(cid)
        if c is None:
            out.append("an unseen card: the server did not show it to you")
        elif c.get("hidden") or c.get("code") is None:
            out.append("a face-down card: its text is hidden from you")
        else:
            out.extend(cat.text_lines(c["code"]))
            if c.get("zone") == "monsters" and "atk" in c:
                out.append(f"  now: ATK {_num(c.get('atk'))} / DEF {_num(c.get('def'))}")
    return out


def waiting_line(view: View, pending: dict[str, Any], names: list[str] | None, clocks: list[int] | None = None) -> str:
    """ "waiting for B "Bot": to respond or pass (Battle Phase - Battle Step)"."""
    seat = int(pending.get("seat", 0))
    kind = str(pending.get("kind", "priority"))
    if kind == "priority":
        mine = seat == view.get("turn_player") and not view.get("chain") and not view.get("attack")
        what = "to make a move in their turn" if mine else "to respond or pass"
    else:
        what = KIND_WORDS.get(kind, kind.replace("_", " "))
    where = phase_text(str(view.get("phase")), view.get("step"), view.get("damage_step"))
    line = f"{pending.get('prompt') or 'waiting for ' + SEATS[seat]}"
    if names and names[seat]:
        line += f' "{names[seat]}"'
    line += f": {what} ({where})"
    if clocks is not None:
        line += f" · clock {clock_text(clocks[seat])}"
    return line


def clocks_now(clocks: list[int] | None, running: int | None, since: float) -> list[int] | None:
    """The clocks as of now: the seat that owes the decision has been running since ``since``."""
    if clocks is None:
        return None
    now = list(clocks)
    if running in (0, 1):
        now[running] -= int((time.monotonic() - since) * 1000)
    return now
