"""A match of several duels in the terminal (``duel play --best-of 3``): the score and each duel's
start told, and the break between two duels: the siding commands (swap a deck card for a Side
Deck card, done) and the loser's choice of who goes first."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from protocol.messages import ChooseFirst, ClientMessage, MatchState, SideDeck
from server.clients.terminal import render
from server.clients.terminal.cards import Catalogue

Out = Callable[[str], None]

HELP = """\
between duels:
  s N M      swap card N of your deck with card M of your Side Deck (the numbers of the lists)
  d          done siding: play the next duel with the deck as it is now (l: the lists again)
  first      (the loser of the last duel) go first in the next duel      second   go second
  c          concede the match"""


def score_line(m: MatchState, names: list[str]) -> str:
    a, b = (render.seat_label(s, names) for s in (0, 1))
    return f"{a} {m.score[0]} - {m.score[1]} {b} (best of {m.best_of})"


@dataclass
class MatchTerm:
    """What the terminal shows and keeps of the match between duels."""

    cat: Catalogue
    out: Out
    me: int | None
    deck: list[int] = field(default_factory=list)  # the deck being sided (sent with ``d``)
    side: list[int] = field(default_factory=list)
    told: tuple[str, int] = ("", 0)  # the phase and duel last told

    def seen(self, m: MatchState, names: list[str]) -> None:
        """A ``match_state`` arrived: tell what changed."""
        key = (m.phase, m.duel)
        if key == self.told:
            return
        self.told = key
        if m.phase == "dueling":
            if m.duel > 1 and m.first is not None:
                first = render.seat_label(m.first, names)
                self.out(f"-- duel {m.duel} begins: {first} goes first · {score_line(m, names)}")
            else:
                self.out(f"-- duel {m.duel} of a best of {m.best_of}")
        elif m.phase == "siding":
            last = m.duels[-1] if m.duels else {}
            winner = last.get("winner", "draw")
            won = "a draw" if winner == "draw" else f"won by {render.seat_label(int(winner), names)}"
            self.out(f"-- duel {m.duel - 1} is over ({won}) · {score_line(m, names)}")
            if self.me is not None and m.deck is not None:
                self.deck, self.side = list(m.deck), list(m.side or [])
                left = max(0, round(((m.deadline_ms or 0) - time.time() * 1000) / 1000))
                self.out(f"siding for duel {m.duel} ({left} s; the opponent sees only your counts):")
                for line in self.lists():
                    self.out(line)
                if m.chooser == self.me:
                    self.out("you lost: type first or second (who goes first in the next duel)")
                self.out("type d when done (h: help)")
            else:
                chooser = "" if m.chooser is None else f"; {render.seat_label(m.chooser, names)} chooses who goes first"
                self.out(f"-- the players side their decks{chooser}")
        else:
            result = m.result or {}
            winner = result.get("winner", "draw")
            who = "a draw" if winner == "draw" else f"{render.seat_label(int(winner), names)} wins"
            self.out(f"MATCH OVER: {who} ({result.get('reason', '')}) · {score_line(m, names)}")

    def _name(self, code: int) -> str:
        return self.cat.name(code) or f"card {code}"

    def lists(self) -> list[str]:
        lines = ["  your deck:"]
        lines += [f"   {i:2}. {self._name(code)}" for i, code in enumerate(self.deck, 1)]
        lines.append("  your Side Deck:" + ("" if self.side else " (empty: nothing to swap)"))
        lines += [f"   {i:2}. {self._name(code)}" for i, code in enumerate(self.side, 1)]
        return lines

    def command(self, line: str, m: MatchState) -> ClientMessage | str | None:
        """A command typed between duels: a message to send, a line to show, or None (not one)."""
        low = line.lower().split()
        if not low:
            return None
        if low[0] == "h":
            return HELP
        if low[0] == "l":
            return "\n".join(self.lists())
        if low[0] == "s" and len(low) == 3 and low[1].isdigit() and low[2].isdigit():
            n, k = int(low[1]), int(low[2])
            if not (1 <= n <= len(self.deck) and 1 <= k <= len(self.side)):
                return f"type s N M with N 1 to {len(self.deck)} and M 1 to {len(self.side)}"
            self.deck[n - 1], self.side[k - 1] = self.side[k - 1], self.deck[n - 1]
            return f"swapped: {self._name(self.deck[n - 1])} in, {self._name(self.side[k - 1])} out (d: done)"
        if low[0] in ("d", "done"):
            return SideDeck(deck=list(self.deck), side=list(self.side))
        if low[0] in ("first", "second"):
            if m.chooser != self.me:
                return "the loser of the last duel chooses who goes first"
            return ChooseFirst(go_first=low[0] == "first")
        return None
