"""One int object per card id, printed ATK/DEF and passcode: ``shared_int``, ``shared_code``.

Compiled code (docs/adr/0008) keeps an ``int`` unboxed and boxes it again, into a new
object, wherever it stores it. Structures held for a duel's life (the alias book, the cards
of a state, the renderings kept on cards) store these instead: each returns an object typed
``Any``, which compiled code stores as it is. Its own module so that the build compiles it:
views call it about twenty times per rendering, and from ``engine.cards`` (which stays Python:
it reads the card list beside its source) each call went through the interpreter.
"""

from __future__ import annotations

from typing import Any, Final

from ..cards import CARDS

# typed Any: an element read from a tuple[int, ...] would be unboxed and boxed anew
_SMALL: Final[tuple[Any, ...]] = tuple(range(1 << 13))
_CODES: Final[dict[int, Any]] = {code: code for code in CARDS}


def shared_code(code: int) -> Any:
    """The one int object of a known passcode (each of a held duel's 80 cards, and the alias
    books that follow them, would otherwise hold its own 32-byte copy from the log)."""
    return _CODES.get(code, code)


def shared_int(i: int) -> Any:
    """The one int object of a card id (ids count from the same bases in every duel: below
    4,096) or of a printed ATK/DEF (below 8,192), or ``i`` itself: 290 boxed ints, ~11 KiB
    per held duel, before."""
    return _SMALL[i] if 0 <= i < 8192 else i
