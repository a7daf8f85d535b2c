"""The one place the server calls the rules engine (docs/engine-api.md).

Everything here is a thin, typed pass-through, so that the server's use of
the engine contract is visible at a glance and a change of the contract
touches one module: no other server module imports ``engine`` (but the clients' plain-text
helpers, docs/architecture.md "Server"; tests/test_import_rules_server.py).
"""

from __future__ import annotations

from typing import Any

import engine
from engine import catalog as _catalog
from engine import deckcheck as _deckcheck
from engine import formats as _formats
from engine import scenario as _scenario
from engine import stored as _stored
from engine import ydk as _ydk
from engine.aliases import AliasBook as AliasBook
from engine.card_data import CardData as CardData
from engine.decisions import Pending as Pending
from engine.decks import DEMO_DECKS as DEMO_DECKS
from engine.decks import decks_of as decks_of
from engine.effects.base import SCRIPTS as SCRIPTS
from engine.facts import facts_of as facts_of
from engine.facts import wire_facts as wire_facts

State = engine.State
Fact = engine.Fact
"""A fact as the engine has it (``engine.facts``); the log and the wire hold its ``WireFact``."""
WireFact = engine.types.WireFact
WireAction = engine.WireAction
"""An action as the wire and the log have it: the engine reads it at its edge (``engine.actions``)."""
IllegalAction = engine.IllegalAction
Viewpoints = engine.Viewpoints
PerViewer = tuple[list[WireFact], list[WireFact], list[WireFact]]
"""An entry's facts as seat 0, seat 1 and spectators see them."""


def genesis(
    seed: int,
    decks: tuple[list[int], list[int]],
    extra: tuple[list[int], list[int]] | None = None,
    fmt: str | None = None,
    first: int = 0,
) -> list[Fact]:
    """The genesis facts of a duel (shuffles, opening hands): each seat's Main Deck and Extra
    Deck, under format ``fmt`` (None or ``current``: named nowhere, as before formats existed);
    ``first``: the seat that goes first."""
    options: dict[str, Any] = {} if fmt is None or fmt == DEFAULT_FORMAT else {_formats.FORMAT_KEY: fmt}
    config = engine.DuelConfig(seed=seed, decks=decks, extra=extra or ([], []), options=options, first=first)
    facts: list[Fact] = engine.create(config)
    return facts


def split_decks(decks: tuple[list[int], list[int]]) -> tuple[tuple[list[int], list[int]], tuple[list[int], list[int]]]:
    """Each seat's deck (one list of passcodes) as its Main Deck and its Extra Deck."""
    a, b = (_deckcheck.split_deck(d) for d in decks)
    return (list(a.main), list(b.main)), (list(a.extra), list(b.extra))


def scenario_setup(doc: dict[str, Any]) -> list[Fact]:
    """The genesis facts of a scenario file's start position (a puzzle)."""
    from engine.scenario import build_setup

    fact, _labels = build_setup(doc)
    return [fact]


def initial() -> State:
    return engine.initial()


def fold(facts: list[Fact], state: State | None) -> State:
    """Fold ``facts`` onto ``state`` (None: the empty initial state)."""
    return engine.fold(facts, initial() if state is None else state)


def decide(state: State, seat: int, action: WireAction) -> list[Fact]:
    """The facts an action causes; raises :class:`IllegalAction`."""
    facts: list[Fact] = engine.decide(state, seat, action)
    return facts


def decide_state(state: State, seat: int, action: WireAction) -> tuple[list[Fact], State]:
    """The facts an action causes and the state after them, computed once (the live path;
    equal to ``fold(facts, state)``); ``state`` does not change. Raises :class:`IllegalAction`."""
    facts, new_state = engine.decide_state(state, seat, action)
    return facts, new_state


def fold_into(state: State, facts: list[Fact]) -> State:
    """Fold ``facts`` onto ``state`` itself (replays and verification walking a log entry by
    entry, when the state before each entry is not kept); other states do not change."""
    return engine.fold_into(state, facts)


def state_hash(state: State) -> str:
    return str(engine.state_hash(state))


CARD_POOL = engine.CardPool()
"""The cards still in a Deck that the duels this process holds share (engine.kernel.cow.CardPool)."""


def share_unwritten(state: State) -> int:
    """Let ``state`` share its untouched Deck and Extra Deck cards with the other duels of this
    process (copy-on-write: a card is copied the first time a duel writes it); how many it
    shares. A duel held at a human pace keeps ~60 such cards: ~15 KiB of it without this."""
    return int(engine.share_unwritten(state, CARD_POOL))


def pending(state: State) -> Pending | None:
    """The decision owed (read only: the state's own)."""
    return engine.pending(state)


def owed_by(state: State) -> object:
    """The seat that owes the decision (``pending(state)["seat"]``, without copying it)."""
    return engine.owed_by(state)


def legal_actions(state: State, seat: int) -> list[WireAction]:
    legal: list[WireAction] = engine.legal_actions(state, seat)
    return legal


def viewpoints(alias_key: bytes) -> engine.Viewpoints:
    """What each viewer of a match is sent, named with its own card aliases (engine.viewpoints)."""
    return engine.Viewpoints(alias_key)


def view(state: State, seat: int | None, *, omniscient: bool = False) -> dict[str, Any]:
    """The view with engine ids (operator tools and finished matches; clients get
    ``Viewpoints.view``); ``omniscient``: every card face up."""
    v: dict[str, Any] = engine.view(state, seat, omniscient=omniscient)
    return v


def describe(fact: Fact | WireFact, name_of: Any = None) -> str | None:
    """The fact in plain words; ``name_of(card id)`` names cards the fact names by id only."""
    text: str | None = engine.describe(fact, name_of)
    return text


def finished(state: State) -> bool:
    return bool(state.finished)


def winner(state: State) -> int | str | None:
    w: int | str | None = state.winner
    return w


def demo_deck(index: int) -> list[int]:
    return list(engine.demo_deck(index))


def default_deck(seat: int, fmt: str | None = None) -> list[int]:
    """The demo deck a seat plays when it brings none (engine.decks.DEFAULT_DECKS; in another
    format, its playable demo decks: ``DeckUnavailable`` when it has none yet)."""
    from engine.decks import format_default_deck

    deck = format_default_deck(seat, named_format(fmt))
    if deck is None:
        raise DeckUnavailable(f"no demo deck of the {named_format(fmt).title} format is playable yet: bring a deck")
    return list(deck)


class DeckUnavailable(Exception):
    """A format has no playable demo deck to give a seat that brings none (the message says so)."""


def known_card(passcode: int) -> bool:
    return passcode in engine.CARDS


def card_name(passcode: int) -> str:
    data = engine.CARDS.get(passcode)
    return str(getattr(data, "name", passcode)) if data is not None else str(passcode)


NATIVE = engine.NATIVE
"""The engine's modules are the mypyc-compiled ones (server/runtime/native.py chose at import)."""
ENGINE_KIND = "compiled (mypyc)" if NATIVE else "python source"
"""How the rules engine runs here (docs/adr/0008): in the start-up log and ``/healthz?detail=1``."""

# the card catalogue (``get_cards``, ``duel cards``)
CARDS = engine.CARDS
supported = _catalog.supported
unsupported = _catalog.unsupported
cards_doc = _catalog.cards_doc
markdown_table = _catalog.markdown_table

# formats and deck lists (``duel deck check``, match creation: docs/formats.md)
Format = engine.Format
FORMATS = engine.FORMATS
UnknownFormat = _formats.UnknownFormat
named_format = engine.named
card_text = engine.card_text
DeckList = _ydk.DeckList
DeckListError = _ydk.DeckListError
parse_deck_list = _ydk.parse_deck_list
DECK_LIST_MAX_BYTES = _ydk.MAX_BYTES
check_deck = _deckcheck.check_deck
DEFAULT_FORMAT: str = _formats.DEFAULT.name
"""The format of a match that names none, and of every log made before formats existed."""
split_deck = _deckcheck.split_deck
supported_codes = _deckcheck.supported_codes

# scenario files (``duel scenario``, a puzzle served as a match)
ScenarioError = _scenario.ScenarioError
ScenarioRunner = _scenario.Runner
run_scenario = _scenario.run

# snapshots (server.match.snapshots): a state and an alias book as bytes, and back
dump_state = _stored.dump_state
load_state = _stored.load_state
dump_book = _stored.dump_book
load_book = _stored.load_book
StoredError = _stored.StoredError
