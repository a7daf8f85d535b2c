"""What a card is (passcode, name, stats, text): ``CardData``, one per passcode.

Its own module so that the engine's compiled build (docs/adr/0008) compiles it: rules code
reads ``card.data.is_monster`` and the stats at every turn, and a compiled class's fields and
properties are read without the interpreter. ``engine.cards`` loads the data (it reads a file
beside its source, so it stays Python) and holds every ``CardData`` by passcode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class CardData:
    code: int
    name: str
    kind: str  # monster | spell | trap
    prop: str  # normal | quick-play | continuous | counter | field | equip | ""
    monster_kinds: tuple[str, ...]
    attribute: str
    type: str
    level: int
    atk: int  # -1 for '?'
    def_: int
    text: str
    group: str  # seed | support | pool | goat
    text_goat: str = ""  # the Goat-era wording, where Goat play uses an older one (engine/data/goat)
    # the passcode as one int object, for lookups by passcode (``effects.base.script_of``):
    # compiled, ``code`` is kept unboxed and each lookup by it made a new int object
    key: Any = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "key", self.code)

    def __deepcopy__(self, memo: dict[int, Any]) -> CardData:
        return self  # one per passcode, never changed: a deep copy of a state (whose cards keep theirs) shares it

    @property
    def is_monster(self) -> bool:
        return self.kind == "monster"

    @property
    def is_spell(self) -> bool:
        return self.kind == "spell"

    @property
    def is_trap(self) -> bool:
        return self.kind == "trap"

    @property
    def is_token(self) -> bool:
        """A Token: made on the field by an effect (Scapegoat's "Sheep Tokens"), never in a Deck;
        it ceases to exist when it leaves the field (``ops.move``)."""
        return "token" in self.monster_kinds

    @property
    def extra_deck(self) -> bool:
        return any(k in self.monster_kinds for k in ("fusion", "synchro", "xyz", "link"))

    @property
    def tributes_needed(self) -> int:
        if self.level >= 7:
            return 2
        if self.level >= 5:
            return 1
        return 0
