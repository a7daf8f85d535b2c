"""The facts: one immutable, slotted dataclass per fact type (what happened in a duel).

``decide`` returns these objects and ``evolve``/``fold`` take them; ``engine.apply`` (how a
fact changes the state), ``engine.describe`` (its plain words) and ``engine.redaction`` (what
each viewer receives) dispatch on the class. A fact type is this one class: its fields, its
docstring (the description PROTOCOL.md's fact table shows; ``python -m engine.factdoc``
writes the table), ``SENT`` (the keys a receiver gets), plus a handler in ``engine.apply``
and, if a reader cares about it, a narration in ``engine.describe`` (``tests/engine/
test_facts.py`` checks that every class has all of them).

On the wire and in the Redis log a fact is still the map ``{"t": ..., key: value, ...}``
(PROTOCOL.md): :func:`to_wire` and :func:`from_wire` convert at the edge (``server.storage.entry``,
replay files), keeping the key order the engine has always written, so that log bytes do not
change. A key that the map sometimes lacks is a field whose value is :data:`ABSENT` (a key
present with the value nil is ``None``). A field named ``from_`` is the key ``from``.

A few call sites have always written their keys in another order than the class's fields;
such a class lists those orders in ``LAYOUTS`` and the fact says which one it uses in
``layout`` (0: the fields' order). ``layout`` is not a key and does not take part in ``==``.

The compiled engine (``make native``) does not compile this module as it is: mypyc cannot
compile the readers and writers ``fact`` makes at import, nor a dataclass's ``__init__``.
``engine.factgen`` writes these classes out as source, which mypyc compiles in its place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any, ClassVar, Final, TypeVar, dataclass_transform

from .decisions import PendingChoice
from .events import GameEvent
from .plain import plain_value

WireFact = dict[str, Any]
"""A fact as the log, the wire and the clients have it: ``{"t": type, key: value, ...}``."""


class Absent(Enum):
    """The type of :data:`ABSENT`."""

    ABSENT = 0

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = Absent.ABSENT
"""The value of a field whose key the fact's map does not have."""


@dataclass(frozen=True, slots=True)
class Sent:
    """What a receiver gets of a fact (``engine.redaction`` applies it; PROTOCOL.md lists
    ``keys()``). ``rule``: ``public`` (``keep`` as they are, the same for everyone),
    ``cards`` (``keep``; ``cards``/``lists`` are card ids given as the viewer's aliases;
    each ``(code_key, card_key)`` of ``codes`` only for a viewer who knows that card;
    ``public_codes`` for everyone), ``moving`` (one card that changes place, ``card`` and
    ``code`` as the viewer can follow it, plus ``keep``), ``hidden`` (nobody), or a rule of
    its own in ``engine.redaction.CUSTOM`` (``doc``: the keys it sends)."""

    rule: str
    keep: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    lists: tuple[str, ...] = ()
    codes: tuple[tuple[str, str], ...] = ()
    public_codes: tuple[str, ...] = ()
    doc: tuple[str, ...] = ()

    def keys(self) -> tuple[str, ...]:
        """The keys a receiver may get, in the table's order (``?``: not always)."""
        if self.rule == "public":
            return self.keep
        if self.rule == "moving":
            return ("card?", "code?", *self.keep)
        if self.rule == "cards":
            return (*self.keep, *self.cards, *self.lists, *(f"{c}?" for c, _ in self.codes), *self.public_codes)
        return self.doc


def public(*keep: str) -> Sent:
    return Sent("public", keep=keep)


def with_cards(
    keep: tuple[str, ...] = (),
    cards: tuple[str, ...] = (),
    lists: tuple[str, ...] = (),
    codes: tuple[tuple[str, str], ...] = (),
    public_codes: tuple[str, ...] = (),
) -> Sent:
    return Sent("cards", keep=keep, cards=cards, lists=lists, codes=codes, public_codes=public_codes)


def moving(*keep: str) -> Sent:
    return Sent("moving", keep=keep)


def custom(name: str, *doc: str) -> Sent:
    return Sent(name, doc=doc)


HIDDEN: Final = Sent("hidden")


class Fact:
    """What every fact class has. The map-like reads (``fact["to"]``, ``fact.get("from")``,
    ``"code" in fact``) go by wire key, for code that matches facts by their keys (scenario
    files' history checks, the alias book); rules code reads the fields."""

    __slots__ = ()
    t: ClassVar[str]
    SENT: ClassVar[Sent]
    LAYOUTS: ClassVar[tuple[tuple[str, ...], ...]] = ()
    KEYS: ClassVar[dict[str, str]]  # wire key -> field name, in the fields' order
    OPTIONAL: ClassVar[frozenset[str]]  # the fields whose key the map may lack (their default is ABSENT)
    _layouts: ClassVar[dict[tuple[str, ...], int]] = {}  # wire order -> layout (made by ``fact``)

    def to_wire(self) -> WireFact:
        raise NotImplementedError  # made for each class by ``fact``

    def __getitem__(self, key: str) -> Any:
        if key == "t":
            return self.t
        value = getattr(self, self.KEYS[key], ABSENT) if key in self.KEYS else ABSENT
        if value is ABSENT:
            raise KeyError(key)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        if key == "t":
            return self.t
        name = self.KEYS.get(key)
        value = ABSENT if name is None else getattr(self, name)
        return default if value is ABSENT else value

    def __contains__(self, key: str) -> bool:
        return key == "t" or self.get(key, ABSENT) is not ABSENT

    def __repr__(self) -> str:
        """``Moved(card=3, to='hand')``: the fields a fact has (not the absent ones)."""
        shown = (f"{name}={getattr(self, name)!r}" for name in self.KEYS.values() if getattr(self, name) is not ABSENT)
        return f"{type(self).__name__}({', '.join(shown)})"


F = TypeVar("F", bound=Fact)

FACTS: Final[dict[str, type[Fact]]] = {}
"""Every fact class by its ``t``."""
READERS: Final[dict[str, Callable[[WireFact], Fact]]] = {}
"""``from_wire`` of each class, by ``t``."""


def _wire_key(name: str) -> str:
    return name[:-1] if name.endswith("_") else name


def _compile(cls: type[Fact], code: str, env: dict[str, Any], name: str) -> Any:
    exec(compile(code, f"<engine.facts {cls.__name__}.{name}>", "exec"), env)
    return env[name]


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def fact(cls: type[F]) -> type[F]:
    """Make a fact class: a slotted dataclass with keyword-only fields, registered by its ``t``,
    with ``to_wire`` and a reader for ``from_wire``.

    Immutable by contract, not at run time: mypy takes these classes as frozen (assigning a
    field is a type error), but the class is not ``frozen=True``, whose ``__init__`` sets each
    field through ``object.__setattr__``. Facts are made by the dozen per action and a stored
    log is read back into them: with frozen classes, folding a stored log (``from_wire`` and
    ``fold``) took 3.1-3.3x the time of msgpack-decoding it (the target is 3x), 2.8x without
    (``bench/engine_worker.py``; docs/engine-api.md has the figures)."""
    c: Any = dataclass(slots=True, kw_only=True)(cls)
    if c.t in FACTS:
        raise ValueError(f"two fact classes for {c.t!r}")
    names = [f.name for f in fields(c) if f.name != "layout"]
    c.KEYS = {_wire_key(n): n for n in names}
    c.OPTIONAL = frozenset(n for n in names if c.__dataclass_fields__[n].default is ABSENT)
    env: dict[str, Any] = {"ABSENT": ABSENT, "cls": c, "plain_value": plain_value}
    c.__repr__ = Fact.__repr__  # the dataclass's own would list every absent field
    layouts = [tuple(_wire_key(n) for n in names), *c.LAYOUTS]
    writers = []
    for i, layout in enumerate(layouts):
        if sorted(layout) != sorted(c.KEYS):
            raise ValueError(f"{c.__name__}.LAYOUTS[{i - 1}] does not have exactly its keys")
        lines = ["def to_wire(self):", f"    d = {{'t': {c.t!r}}}"]
        for key in layout:
            attr = c.KEYS[key]
            # a str field may hold a StrEnum member (Phase.BATTLE): the wire gets the plain str
            plain = "v if v.__class__ is str else plain_value(v)"
            text = str(c.__dataclass_fields__[attr].type).startswith("str")
            value = plain if text else "v"
            lines.append(f"    v = self.{attr}")
            if c.__dataclass_fields__[attr].default is ABSENT:
                lines.append(f"    if v is not ABSENT: d[{key!r}] = {value}")
            else:
                lines.append(f"    d[{key!r}] = {value}")
        lines.append("    return d")
        writers.append(_compile(c, "\n".join(lines) + "\n", dict(env), "to_wire"))
    if len(writers) == 1:
        c.to_wire = writers[0]
    else:
        table = tuple(writers)
        c.to_wire = lambda self: table[self.layout](self)
        c._layouts = {layout: i for i, layout in enumerate(layouts)}
    READERS[c.t] = _reader(c, env)
    FACTS[c.t] = c
    return c  # type: ignore[no-any-return]


def _reader(c: Any, env: dict[str, Any]) -> Callable[[WireFact], Fact]:
    """``from_wire`` for one class: the fields set straight from the map (no keyword arguments
    to build and parse: reading a stored log is mostly this)."""
    known = frozenset(["t", *c.KEYS])
    env = {**env, "new": object.__new__, "known": known, "layout_of": _layout_of, "unknown": _unknown}
    lines = ["def read(d):", "    self = new(cls)"]
    required, optional = 1, list[str]()  # the map's keys: ``t``, the required ones, the optional ones it has
    for key, attr in c.KEYS.items():
        if c.__dataclass_fields__[attr].default is ABSENT:
            var = f"o{len(optional)}"
            optional.append(f" + ({var} is not ABSENT)")
            lines.append(f"    self.{attr} = {var} = d.get({key!r}, ABSENT)")
        else:
            required += 1
            lines.append(f"    self.{attr} = d[{key!r}]")
    # every key read is one of the class's, so a map with more keys than were read has one it
    # does not know (counting is cheaper than a set comparison: 7 % of folding a stored log)
    lines.append(f"    if len(d) != {required}{''.join(optional)}: unknown(cls, d, known)")
    if "layout" in c.__dataclass_fields__:
        lines.append("    self.layout = layout_of(cls, d)")
    lines.append("    return self")
    reader: Callable[[WireFact], Fact] = _compile(c, "\n".join(lines) + "\n", env, "read")
    return reader


def _unknown(cls: type[Fact], d: WireFact, known: frozenset[str]) -> None:
    raise TypeError(f"a {cls.t!r} fact has no key {sorted(set(d) - known)}")


_LAYOUT_OF: Final[dict[tuple[str, tuple[str, ...]], int]] = {}


def _layout_of(cls: type[Fact], d: WireFact) -> int:
    """Which of the class's key orders ``d`` has (0 if none: then only its order is lost)."""
    order = tuple(d)
    got = _LAYOUT_OF.get((cls.t, order))
    if got is None:
        got = 0
        for layout, i in cls._layouts.items():
            if ("t", *(k for k in layout if k in d)) == order:
                got = i
                break
        if len(_LAYOUT_OF) < 4096:  # the orders seen: a few dozen
            _LAYOUT_OF[cls.t, order] = got
    return got


def to_wire(f: Fact) -> WireFact:
    """The fact as the log and the wire have it (a new dict)."""
    return f.to_wire()


def from_wire(d: WireFact) -> Fact:
    """The fact of a wire map (a log entry's, a replay file's). Raises KeyError for an unknown
    ``t`` or a missing key, TypeError for a key its class does not have."""
    return READERS[d["t"]](d)


def wire_facts(facts: list[Fact]) -> list[WireFact]:
    """A list of facts as the log stores them."""
    return [f.to_wire() for f in facts]


def facts_of(wire: list[WireFact]) -> list[Fact]:
    """A stored list of facts as the engine takes them."""
    readers = READERS
    return [readers[d["t"]](d) for d in wire]


# ====================================================================== what the receivers get (in PROTOCOL.md's order)


@fact
class DuelStarted(Fact):
    """entry 1: who goes first, starting LP, Deck sizes"""

    t: ClassVar[str] = "duel_started"
    SENT: ClassVar[Sent] = custom("duel_started", "first", "lp", "options", "deck_counts", "extra_counts")
    rng: int
    decks: list[list[list[int]]]  # per seat: [card id, passcode] in Deck order
    extra: list[list[list[int]]]
    options: dict[str, Any]
    first: int
    lp: int


@fact
class Setup(Fact):
    """a puzzle's position: each card `{id?, code?, hidden?, owner, controller, zone, slot, face_up, position,
    counters, set_turn, summoned_turn, equipped_to?, materials?}` as the receiver may see it"""

    t: ClassVar[str] = "setup"
    SENT: ClassVar[Sent] = custom(
        "setup", "turn", "turn_player", "phase", "step", "lp", "options", "battle_phases", "cards"
    )
    cards: list[dict[str, Any]]
    lp: list[int]
    turn: int
    turn_player: int
    phase: str
    step: str | None
    rng: int
    options: dict[str, Any]
    battle_phases: int
    extra_battle_phases: int | Absent = ABSENT
    used: dict[str, int] | Absent = ABSENT
    normal_summoned: list[bool] | Absent = ABSENT
    start_step_monsters: list[list[int]] | Absent = ABSENT


@fact
class Turn(Fact):
    """a turn begins"""

    t: ClassVar[str] = "turn"
    SENT: ClassVar[Sent] = public("turn", "player")
    turn: int
    player: int


@fact
class PhaseBegan(Fact):
    """a phase or Battle Phase step begins (`reason`: the card effect that moved it, if any)"""

    t: ClassVar[str] = "phase"
    SENT: ClassVar[Sent] = public("phase", "step", "turn_player", "reason")
    phase: str
    step: str | Absent = ABSENT
    turn_player: int | Absent = ABSENT
    reason: str | Absent = ABSENT


@fact
class DamageStep(Fact):
    """a Damage Step timing begins"""

    t: ClassVar[str] = "damage_step"
    SENT: ClassVar[Sent] = public("timing")
    timing: str


@fact
class SkipPhase(Fact):
    """a phase will be (now: is) skipped"""

    t: ClassVar[str] = "skip_phase"
    SENT: ClassVar[Sent] = public("phase", "now")
    phase: str
    now: bool | Absent = ABSENT


@fact
class ExtraBattlePhase(Fact):
    """more Battle Phases are granted this turn"""

    t: ClassVar[str] = "extra_battle_phase"
    SENT: ClassVar[Sent] = public("count")
    count: int


@fact
class Priority(Fact):
    """a seat gets priority (`intent`: where the turn player's passes now take the turn: `end` or
    `finish` carried into a new phase or step; nil: a chain resolved while the turn player was
    ending the turn, and the decision is its own again)"""

    t: ClassVar[str] = "priority"
    SENT: ClassVar[Sent] = public("seat", "passes", "intent")
    seat: int
    passes: int
    intent: str | Absent | None = ABSENT


@fact
class Passed(Fact):
    """a seat passed (`intent`: `battle`, `end`, `next` when it moves the turn on, `finish` when it ends the
    turn; `auto`: passed by the rules because it had nothing to activate, or because it is ending the turn)"""

    t: ClassVar[str] = "passed"
    SENT: ClassVar[Sent] = public("seat", "intent", "auto")
    seat: int
    intent: str | Absent = ABSENT
    auto: bool | Absent = ABSENT


@fact
class Drew(Fact):
    """a draw (card and code only for the drawing seat)"""

    t: ClassVar[str] = "drew"
    SENT: ClassVar[Sent] = custom("drew", "seat", "card?", "code?")
    seat: int
    card: int
    code: int
    private: int  # only this seat knows the card (never sent)


@fact
class Shuffled(Fact):
    """a Deck was shuffled"""

    t: ClassVar[str] = "shuffled"
    SENT: ClassVar[Sent] = public("seat")
    seat: int
    order: list[int]
    rng: int


@fact
class Moved(Fact):
    """a card changed place (`reason`: `tribute`, `discard`, `cost`, `detach`, `battle`, `effect`, `rule`,
    `control`, `return`, `equip`, `fusion`, ...)"""

    t: ClassVar[str] = "moved"
    SENT: ClassVar[Sent] = moving("from", "to", "slot", "face_up", "position", "controller", "top", "reason")
    LAYOUTS: ClassVar[tuple[tuple[str, ...], ...]] = (
        # 1: a Spell or Trap placed from the hand to be activated (chain.activate)
        ("card", "to", "controller", "position", "face_up", "code", "from", "top", "reason", "slot", "private"),
        # 2: control changes and returns, equips by an effect (ops.take_control, flow, card modules)
        ("card", "code", "to", "controller", "position", "face_up", "reason", "from", "top", "slot", "private"),
    )
    card: int
    to: str
    from_: str | Absent = ABSENT
    controller: int | Absent = ABSENT
    position: str | Absent = ABSENT
    top: bool | Absent = ABSENT
    reason: str | Absent = ABSENT
    face_up: bool | Absent = ABSENT
    slot: int | Absent = ABSENT
    code: int | Absent = ABSENT
    private: int | Absent = ABSENT  # only this seat knows the card (never sent)
    layout: int = field(default=0, compare=False, repr=False)
    FROM_HAND_TO_ACTIVATE: ClassVar[int] = 1
    CODE_FIRST: ClassVar[int] = 2


@fact
class Summoned(Fact):
    """`kind`: `normal`, `tribute`, `set`, `flip`, `special`, `fusion`"""

    t: ClassVar[str] = "summoned"
    SENT: ClassVar[Sent] = with_cards(("seat", "kind", "procedure"), cards=("card",), codes=(("code", "card"),))
    LAYOUTS: ClassVar[tuple[tuple[str, ...], ...]] = (
        # 1: Flip Summons and Summons by a card's own procedure
        ("seat", "card", "code", "kind", "procedure"),
        # 2: Special Summons by an effect
        ("card", "code", "kind", "seat", "procedure"),
    )
    seat: int
    card: int
    kind: str
    code: int | Absent = ABSENT
    procedure: bool | Absent = ABSENT
    layout: int = field(default=0, compare=False, repr=False)
    CODE_BEFORE_KIND: ClassVar[int] = 1
    SEAT_LAST: ClassVar[int] = 2


@fact
class PositionChanged(Fact):
    """a monster's battle position changed (`by_player`: false when an effect changed it)"""

    t: ClassVar[str] = "position_changed"
    SENT: ClassVar[Sent] = moving("position", "face_up", "by_player")
    card: int
    code: int | Absent | None = ABSENT
    position: str
    face_up: bool
    by_player: bool | Absent = ABSENT


@fact
class Flipped(Fact):
    """a face-down monster turned face-up"""

    t: ClassVar[str] = "flipped"
    SENT: ClassVar[Sent] = moving("position", "by_attack")
    card: int
    code: int
    position: str
    by_attack: bool | Absent = ABSENT


@fact
class TokenMade(Fact):
    """a Token is Special Summoned: made face-up in a Monster Zone of `seat` (`summoner`: the player
    who Summons it)"""

    t: ClassVar[str] = "token_made"
    SENT: ClassVar[Sent] = moving("seat", "summoner", "position", "slot")
    card: int
    code: int
    seat: int
    summoner: int
    position: str
    slot: int | Absent = ABSENT


@fact
class TokenGone(Fact):
    """a Token that left the field ceases to exist"""

    t: ClassVar[str] = "token_gone"
    SENT: ClassVar[Sent] = moving()
    card: int


@fact
class Activated(Fact):
    """a card or effect was activated as chain link `link`; `data`: `{cost, choose}` chosen at activation"""

    t: ClassVar[str] = "activated"
    SENT: ClassVar[Sent] = custom("activated", "seat", "card", "code", "effect", "link", "trigger", "targets", "data?")
    seat: int
    card: int
    code: int
    effect: int
    link: int
    targets: list[int]
    data: dict[str, Any]
    trigger: bool | Absent = ABSENT
    once: str | Absent = ABSENT  # the once-per-turn key it used (never sent)


@fact
class Targeted(Fact):
    """`card` becomes one more target of chain link `link` (a text that targets "up to" several cards: its
    player picks them one at a time as it is activated)"""

    t: ClassVar[str] = "targeted"
    SENT: ClassVar[Sent] = with_cards(("link",), cards=("card",), codes=(("code", "card"),))
    link: int
    card: int
    code: int


@fact
class Triggered(Fact):
    """a trigger effect is waiting to be activated (sent only to viewers who know the card)"""

    t: ClassVar[str] = "triggered"
    SENT: ClassVar[Sent] = custom("triggered", "card", "code", "effect", "seat", "mandatory")
    card: int
    code: int
    effect: int
    seat: int
    event: GameEvent
    mandatory: bool
    private: int | Absent = ABSENT  # the card is hidden: only this seat knows it (never sent)


@fact
class Negated(Fact):
    """`what`: `activation` or `effect` of chain link `link`, or `summon` (`link` 0: the Summon of `card`)"""

    t: ClassVar[str] = "negated"
    SENT: ClassVar[Sent] = with_cards(("link", "what"), cards=("card",), public_codes=("code",))
    link: int
    what: str
    card: int
    code: int


@fact
class ChainResolving(Fact):
    """the chain starts to resolve"""

    t: ClassVar[str] = "chain_resolving"
    SENT: ClassVar[Sent] = public()  # its snapshot of the field is bookkeeping
    was: list[list[Any]]


@fact
class LinkResolving(Fact):
    """a link starts to resolve"""

    t: ClassVar[str] = "link_resolving"
    SENT: ClassVar[Sent] = public("link")
    link: int


@fact
class LinkResolved(Fact):
    """a link finished resolving"""

    t: ClassVar[str] = "link_resolved"
    SENT: ClassVar[Sent] = public("link")
    link: int


@fact
class ChainResolved(Fact):
    """the whole chain has resolved"""

    t: ClassVar[str] = "chain_resolved"
    SENT: ClassVar[Sent] = public()


@fact
class Note(Fact):
    """a record: `no_effect` (a link resolved without effect), `excavated` (a card shown to both players),
    `die_roll` and `coin_toss` (`result`), `effects_negated` (a card's effects are negated),
    `random_discard` (a card picked at random from `seat`'s hand, discarded next)"""

    t: ClassVar[str] = "note"
    SENT: ClassVar[Sent] = with_cards(("what", "link", "seat", "result"), cards=("card",), public_codes=("code",))
    what: str
    link: int | Absent = ABSENT
    card: int
    code: int
    seat: int | Absent = ABSENT
    result: Any = ABSENT


@fact
class Revealed(Fact):
    """cards of `seat`'s hand or Deck shown to `shown_to` (nil: to both players, so to everyone): the others
    get only their `count`"""

    t: ClassVar[str] = "revealed"
    SENT: ClassVar[Sent] = custom("revealed", "seat", "shown_to", "count", "cards?", "codes?")
    seat: int
    shown_to: int | None
    cards: list[int]
    codes: list[int]


@fact
class AttackDeclared(Fact):
    """`target` nil: a direct attack"""

    t: ClassVar[str] = "attack_declared"
    SENT: ClassVar[Sent] = with_cards(
        ("seat",), cards=("attacker", "target"), codes=(("code", "attacker"), ("target_code", "target"))
    )
    seat: int
    attacker: int
    code: int
    target: int | None
    target_code: int | None
    snapshot: list[int]  # the monsters it could attack (a change means a replay)


@fact
class AttackReplay(Fact):
    """the attacker must choose again (a replay)"""

    t: ClassVar[str] = "attack_replay"
    SENT: ClassVar[Sent] = public()


@fact
class AttackRetargeted(Fact):
    """the new target after a replay (nil: direct)"""

    t: ClassVar[str] = "attack_retargeted"
    SENT: ClassVar[Sent] = with_cards(cards=("target",), codes=(("target_code", "target"),))
    target: int | None
    target_code: int | None
    snapshot: list[int]


@fact
class AttackEnded(Fact):
    """`damage_step_over`, `cancelled`, `negated`, `attacker_cannot_attack`, or the card that ended the Battle
    Phase"""

    t: ClassVar[str] = "attack_ended"
    SENT: ClassVar[Sent] = public("reason")
    reason: str


@fact
class BattleStopped(Fact):
    """damage calculation does not happen"""

    t: ClassVar[str] = "battle_stopped"
    SENT: ClassVar[Sent] = public("reason")
    reason: str


@fact
class Battle(Fact):
    """damage calculation: `target_def` when the target was in Defense Position; `destroyed` (ids) destroyed by
    this battle; `damage` per seat"""

    t: ClassVar[str] = "battle"
    SENT: ClassVar[Sent] = with_cards(
        ("attacker_atk", "target_atk", "target_def", "damage"), cards=("attacker", "target"), lists=("destroyed",)
    )
    attacker: int
    attacker_atk: int
    target: int | None
    target_atk: int | Absent = ABSENT
    target_def: int | Absent = ABSENT
    destroyed: list[int]
    damage: list[int]


@fact
class LifePoints(Fact):
    """Life Points changed (`reason`: `battle`, `effect`, `cost`)"""

    t: ClassVar[str] = "lp"
    SENT: ClassVar[Sent] = public("seat", "lp", "delta", "reason")
    seat: int
    lp: int
    delta: int
    reason: str


@fact
class Destroyed(Fact):
    """a card is destroyed (`by`: the card that destroyed it); its move to the Graveyard follows"""

    t: ClassVar[str] = "destroyed"
    SENT: ClassVar[Sent] = with_cards(("reason",), cards=("card", "by"), codes=(("code", "card"),))
    card: int
    code: int
    reason: str
    by: int | None


@fact
class Modifier(Fact):
    """a lasting change: `op` `add` (ATK/DEF +value), `set`, `set_original`, `half_original`, or `flag` (a rule
    effect named by `stat`, e.g. `no_battle_damage` for seat `value`; `card` -1); `until`: `damage_calculation`,
    `end_of_damage_step`, `end_of_battle_phase`, `end_phase`, `turn`, `while_face_up`, `permanent`"""

    t: ClassVar[str] = "modifier"
    SENT: ClassVar[Sent] = with_cards(("stat", "op", "value", "until"), cards=("card", "source"))
    card: int
    stat: str
    op: str
    value: int
    until: str
    source: int


@fact
class ModifiersExpired(Fact):
    """the changes lasting until these ends are gone"""

    t: ClassVar[str] = "modifiers_expired"
    SENT: ClassVar[Sent] = public("until")
    until: list[str]


@fact
class Counters(Fact):
    """a card's counters of one kind are now `count`"""

    t: ClassVar[str] = "counters"
    SENT: ClassVar[Sent] = with_cards(("name", "count"), cards=("card",))
    card: int
    name: str
    count: int


@fact
class Equipped(Fact):
    """`to` nil: unequipped"""

    t: ClassVar[str] = "equipped"
    SENT: ClassVar[Sent] = with_cards(cards=("card", "to"))
    card: int
    to: int | None


@fact
class DuelEnded(Fact):
    """see `end_reason`"""

    t: ClassVar[str] = "duel_ended"
    SENT: ClassVar[Sent] = public("winner", "reason")
    winner: int | str  # a seat, or "draw"
    reason: str


# ====================================================================== bookkeeping nobody is sent


@fact
class TriggerDone(Fact):
    """a pending trigger left the list (activated, declined or skipped)"""

    t: ClassVar[str] = "trigger_done"
    SENT: ClassVar[Sent] = HIDDEN
    index: int
    declined: bool | Absent = ABSENT
    skipped: bool | Absent = ABSENT


@fact
class Rng(Fact):
    """the random state after a die roll or coin toss"""

    t: ClassVar[str] = "rng"
    SENT: ClassVar[Sent] = HIDDEN
    rng: int


@fact
class FixedOutcome(Fact):
    """a die result or coin toss a scenario fixed in advance was used"""

    t: ClassVar[str] = "fixed_outcome"
    SENT: ClassVar[Sent] = HIDDEN
    what: str


@fact
class Used(Fact):
    """a once-per-turn (or once-per-duel) key was used this turn"""

    t: ClassVar[str] = "used"
    SENT: ClassVar[Sent] = HIDDEN
    key: str


@fact
class Flag(Fact):
    """a card's flag is set (``value`` None: cleared); ``engine.types.CardFlag``"""

    t: ClassVar[str] = "flag"
    SENT: ClassVar[Sent] = HIDDEN
    card: int
    name: str
    value: Any


@fact
class Choice(Fact):
    """the decision a player now owes (None: none)"""

    t: ClassVar[str] = "choice"
    SENT: ClassVar[Sent] = HIDDEN
    choice: PendingChoice | None


@fact
class Event(Fact):
    """the event the next responses answer (None: none)"""

    t: ClassVar[str] = "event"
    SENT: ClassVar[Sent] = HIDDEN
    event: GameEvent | None


@fact
class Delayed(Fact):
    """an effect that applies in a player's next turn (skip a phase, extra Battle Phases)"""

    t: ClassVar[str] = "delayed"
    SENT: ClassVar[Sent] = HIDDEN
    seat: int
    effect: dict[str, Any]


@fact
class DelayedDone(Fact):
    """a delayed effect was applied"""

    t: ClassVar[str] = "delayed_done"
    SENT: ClassVar[Sent] = HIDDEN
    index: int
