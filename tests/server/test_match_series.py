"""The record of a match of several duels as pure functions (server.match.series): when the match
ends and why, who chooses who goes first, what siding may change, what each watcher is told, and
the stored form read back the same. No Redis: these are the rules every process applies."""

from __future__ import annotations

from server.match import series as S
from server.match.clocks import ClockSettings

DECK = S.SeatDeck(tuple(range(1000, 1040)), (7, 8))
OTHER = S.SeatDeck(tuple(range(2000, 2040)), ())


def fresh(best_of: int = 3, clock_scope: str = "duel") -> S.Series:
    settings = S.Settings(best_of, "current", 180_000, clock_scope, ClockSettings(60_000, 1000), names=("Ann", "Bob"))
    return S.new_series("M1234567890a", settings, (DECK, OTHER))


def result(s: S.Series, winner: int | None, first: int = 0, conceded: str = "") -> S.DuelResult:
    return S.DuelResult(s.current, s.duel_id(), first, s.chooser, winner, "lp", conceded)


def next_duel(s: S.Series) -> S.Series:
    assert S.may_start(s, s.deadline_ms)
    return S.started(s)


def test_two_wins_of_three_end_the_match_and_the_loser_chooses() -> None:
    s = S.after_duel(fresh(), result(fresh(), 0), 1000, None)
    assert s.phase == S.SIDING and s.current == 2 and s.chooser == 1 and s.deadline_ms == 181_000
    assert s.duel_id() == "M1234567890a-2" and s.watch_id == "M1234567890a"
    s = next_duel(S.chosen(s, 1, go_first=False) or s)
    assert s.phase == S.DUELING and s.first == 0
    s = S.after_duel(s, result(s, 0), 2000, None)
    assert s.phase == S.FINISHED and s.winner == 0 and s.reason == "score" and s.score == [2, 0]


def test_a_draw_counts_for_nobody_and_the_seat_that_went_second_chooses() -> None:
    s = S.after_duel(fresh(), result(fresh(), None, first=0), 0, None)
    assert s.phase == S.SIDING and s.score == [0, 0] and s.chooser == 1
    s = next_duel(s)  # nobody chose by the deadline: the chooser goes first
    assert s.first == 1
    s = S.after_duel(s, result(s, 1, first=1), 0, None)
    s = next_duel(s)
    s = S.after_duel(s, result(s, 0, first=0), 0, None)
    assert s.phase == S.FINISHED and s.winner is None and s.reason == "score" and s.score == [1, 1]


def test_a_best_of_five_needs_three() -> None:
    s = fresh(5)
    for winner in (0, 1, 0, 1):
        s = S.after_duel(s, result(s, winner), 0, None)
        assert s.phase == S.SIDING
        s = next_duel(s)
    s = S.after_duel(s, result(s, 1), 0, None)
    assert s.phase == S.FINISHED and s.winner == 1 and s.score == [2, 3]


def test_concessions_drops_and_clocks() -> None:
    s = fresh()
    assert S.after_duel(s, result(s, 1, conceded=S.CONCEDED_DUEL), 0, None).phase == S.SIDING
    over = S.after_duel(s, result(s, 1, conceded=S.CONCEDED_MATCH), 0, None)
    assert over.phase == S.FINISHED and over.winner == 1 and over.reason == "concede"
    assert S.after_duel(s, result(s, 0, conceded=S.CONCEDED_DROP), 0, None).reason == "drop"
    # out of time: the duel on a clock per duel, the match on a clock over the match
    assert S.after_duel(s, result(s, 0, conceded=S.CONCEDED_TIME), 0, (5, 0)).phase == S.SIDING
    timed = fresh(clock_scope="match")
    after = S.after_duel(timed, result(timed, 0, conceded=S.CONCEDED_TIME), 0, (5, 0))
    assert after.phase == S.FINISHED and after.reason == "time"
    kept = S.after_duel(timed, result(timed, 0), 0, (30_000, 12_000))
    assert kept.clocks_left == (30_000, 12_000)
    siding = S.after_duel(s, result(s, 0), 0, None)
    assert (S.conceded_match(siding, 1, 5) or siding).winner == 0
    assert S.dropped(siding, 0, 5) is not None and S.conceded_match(s, 0, 5) is None


def test_siding_and_choosing_only_between_duels_and_only_the_chooser() -> None:
    s = fresh()
    swapped = S.SeatDeck((7, *DECK.deck[1:]), (DECK.deck[0], 8))
    assert S.sided(s, 0, swapped) is None and S.chosen(s, 1, True) is None
    s = S.after_duel(s, result(s, 0), 0, None)
    assert S.chosen(s, 0, True) is None  # the winner does not choose
    s = S.sided(s, 0, swapped) or s
    assert s.ready == (True, False) and s.decks[0] == swapped and s.registered[0] == DECK
    assert not S.may_start(s, 1)
    s = S.sided(s, 1, OTHER) or s
    assert not S.may_start(s, 1)  # the choice is missing
    s = S.chosen(s, 1, True) or s
    assert S.may_start(s, 1)


def test_a_watcher_is_told_its_own_deck_and_only_the_others_counts() -> None:
    s = S.after_duel(fresh(), result(fresh(), 1), 0, None)
    mine, theirs, public = (S.state_for(s, seat, frozenset()) for seat in (0, 1, None))
    assert mine.deck == list(DECK.deck) and mine.side == [7, 8]
    assert theirs.deck == list(OTHER.deck) and public.deck is None and public.side is None
    assert mine.counts == theirs.counts == [[40, 0, 2], [40, 0, 0]]
    assert "deck_hashes" not in mine.duels[0]  # not before the match is over
    done = S.after_duel(next_duel(s), result(next_duel(s), 1), 0, None)
    assert "deck_hashes" in S.state_for(done, None, frozenset()).duels[0]


def test_the_stored_record_reads_back_the_same() -> None:
    s = S.after_duel(fresh(clock_scope="match"), result(fresh(), 0, conceded=S.CONCEDED_DUEL), 77, (1, 2))
    s = S.sided(s, 1, OTHER) or s
    back = S.loads(S.dumps(s), 4)
    assert back == s and back.version == 4
