"""Ratings: the Weng-Lin Bradley-Terry model of ``openskill`` (not computed here), on a Glicko scale.

Why this library (docs/ladder.md has the long answer): the Glicko-2 packages on PyPI are not kept
up. ``glicko2`` (2.1.0, January 2024) is an untyped copy of 2009 code whose volatility step
uses the player's rating where Glickman's paper has its deviation (its ``_f``: ``rating**2``
for phi squared), so the same upset moves a 2200 player's volatility differently from a 1500
player's; ``skelo`` and ``pyglicko2`` are stale or alpha. ``openskill`` (6.x, 2026) is kept up,
typed, tested, and published (Joshy 2024, JOSS): its Bradley-Terry model is Weng and Lin's
Bayesian approximation (JMLR 12, 2011), of which Glicko is the same kind: a rating ``mu`` and its
uncertainty ``sigma`` per player, updated after each game, the uncertainty shrinking as games
are played (the issue asks for "Glicko-2 or a similar system").

The model is set on Glicko's scale: a new account starts at 1500 with a deviation of 350, and
``beta`` makes a 400-point gap mean 10 to 1 odds between two players whose ratings are certain
(as Elo and Glicko read ratings). ``tau`` adds a little uncertainty before each game, so that a
rating can still move after many games.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Final

from openskill.models import BradleyTerryFull

START: Final = 1500.0
START_RD: Final = 350.0
BETA: Final = 400.0 / math.log(10) / math.sqrt(2)
TAU: Final = 5.0
LADDER_SIGMAS: Final = 2.0
"""The leaderboard ranks by ``rating - 2 * rd``: a rating the ladder is fairly sure an account has
(one lucky win does not top it)."""

MODEL: Final = BradleyTerryFull(mu=START, sigma=START_RD, beta=BETA, tau=TAU)


@dataclass(frozen=True, slots=True)
class Rating:
    """An account's rating in one format: ``rating`` and its deviation ``rd`` (Glicko's scale),
    and its record."""

    rating: float = START
    rd: float = START_RD
    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def score(self) -> float:
        """What the leaderboard ranks by."""
        return self.rating - LADDER_SIGMAS * self.rd

    def dumps(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), sort_keys=True)

    @classmethod
    def loads(cls, raw: bytes | str | None) -> Rating:
        if raw is None:
            return cls()
        data = json.loads(raw)
        return cls(
            rating=float(data["rating"]),
            rd=float(data["rd"]),
            games=int(data["games"]),
            wins=int(data["wins"]),
            losses=int(data["losses"]),
            draws=int(data["draws"]),
        )

    def public(self) -> dict[str, float | int]:
        return {
            "rating": round(self.rating, 1),
            "rd": round(self.rd, 1),
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
        }


def rate(first: Rating, second: Rating, winner: int | None) -> tuple[Rating, Rating]:
    """Both ratings after one game: ``winner`` 0 (``first`` won), 1, or None (a draw)."""
    a = MODEL.create_rating([first.rating, first.rd])
    b = MODEL.create_rating([second.rating, second.rd])
    ranks = [0.0, 0.0] if winner is None else [0.0, 1.0] if winner == 0 else [1.0, 0.0]
    [[a2], [b2]] = MODEL.rate([[a], [b]], ranks=ranks)

    def after(old: Rating, new_mu: float, new_sigma: float, result: float | None) -> Rating:
        return Rating(
            rating=new_mu,
            rd=new_sigma,
            games=old.games + 1,
            wins=old.wins + (result == 1.0),
            losses=old.losses + (result == 0.0),
            draws=old.draws + (result is None),
        )

    first_result = None if winner is None else 1.0 if winner == 0 else 0.0
    second_result = None if first_result is None else 1.0 - first_result
    return after(first, a2.mu, a2.sigma, first_result), after(second, b2.mu, b2.sigma, second_result)
