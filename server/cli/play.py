"""``duel play``: play a duel in the terminal, watch one, or list the matches.

    duel play --vs-bot                 # a duel against the server's bot, at once
    duel play --vs-bot --format goat --deck goat-control-flc22   # a Goat duel (docs/formats.md)
    duel play --vs-bot --format goat --deck my-goat.ydk          # your own deck: a .ydk file or a ydke:// link
    duel play --quick --format goat    # pair with the next waiting player of the Goat format
    duel play --create                 # create a match, print the command your opponent types
    duel play --join MATCH_ID          # take the free seat of a match
    duel play --quick                  # pair with the next waiting player (or wait for one)
    duel play --quick --rated --account NAME   # a rated match (a player of close rating), logged in
    duel play --reconnect TOKEN        # take your seat back (a new process, another machine)
    duel play --spectate MATCH_ID      # watch a match (public information only)
    duel play --list                   # the live and the finished matches

The story of the duel is printed as it happens (the server's own words), the board when it
changed, and, when you owe a decision, the plain-words question and the numbered legal actions:
type a number. ``h`` lists the commands (``? N`` prints the text of action N's cards, ``b`` the
board, ``c`` concedes, ``q`` leaves and keeps your seat). ``--auto-pass`` passes for you whenever
passing is the only legal action (the server never skips a window by itself, so that how fast
you answer tells your opponent nothing; this option gives that up for speed).

``--account NAME`` logs in with an account (``--register``: makes it first), whose password is
read from ``DUEL_PASSWORD`` or typed at a prompt that does not echo it (never an argument: ``ps``
shows arguments to everyone). Logged in, ``--rated`` (with ``--quick`` or ``--create``) plays a
rated match (PROTOCOL.md section 4a), and the seat of a rated match is taken back with
``--reconnect TOKEN --account NAME``.

Every failure is one line on stderr (``error: ...``) and a non-zero exit status: 1 for what
happened (no server, an unknown or full match, a refused token, a lost connection), 2 for what
was asked (a bad ``--url``, an unknown ``--deck``, a deck list that is not legal in the format).

``--deck`` takes a demo deck's name, a ``.ydk`` file or a ``ydke://`` link (docs/formats.md). A
deck list is checked here against the duel's format (``--format``; ``current`` when none is
given) with ``duel deck check``'s rules before anything is sent; its Main and Extra Deck are
played, and its Side Deck is registered with them (``side``), so that in a match of several duels
(``--best-of 3``) the terminal can swap cards with it between duels. With ``--join`` the match's
format is the creator's: the list is read here and checked by the server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from protocol.names import REPLACEMENT, shown
from server.cli.args import name_arg
from server.clients.terminal.conn import DEFAULT_URL, CliError, Seat

if TYPE_CHECKING:
    from server.clients.terminal.cards import Catalogue
    from server.clients.terminal.conn import Account


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a duel in the terminal (against the bot or a person), watch one, or list matches",
        description="Play a duel in the terminal: numbered legal actions, the story as it happens, "
        "card text on request. Type h in a duel for the commands.",
    )
    p.add_argument(
        "--url",
        default=DEFAULT_URL,
        help=f"the duel server's websocket address (default: {DEFAULT_URL}, what `make run` serves)",
    )
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument(
        "--vs-bot", action="store_true", help="play against the server's bot (one command, no second player)"
    )
    how.add_argument("--create", action="store_true", help="create a match and wait for an opponent to --join it")
    how.add_argument("--join", metavar="MATCH_ID", help="take the free seat of a match")
    how.add_argument("--quick", action="store_true", help="pair with the next waiting player, or wait for one")
    how.add_argument(
        "--reconnect", metavar="TOKEN", help="take your seat back with the token printed when you sat down"
    )
    how.add_argument("--spectate", metavar="MATCH_ID", help="watch a match (public information only)")
    how.add_argument("--list", action="store_true", help="list the live and the finished matches, then exit")
    p.add_argument(
        "--deck",
        metavar="NAME|FILE.ydk|ydke://...",
        help="a demo deck by name (default: the server's demo deck for your seat; an unknown name lists them), "
        "or your own deck: a .ydk file or a ydke:// link, checked against the format first",
    )
    p.add_argument(
        "--format",
        metavar="FORMAT",
        help="with --create/--vs-bot/--quick: the format of the duel (current, goat; default: the --deck's "
        "format, else current); --quick pairs you with a player of the same format; see docs/formats.md",
    )
    p.add_argument(
        "--name", type=name_arg, default=_default_name(), help="your display name (default: your login name)"
    )
    p.add_argument(
        "--account",
        metavar="NAME",
        help="log in with this account (its password from DUEL_PASSWORD, else a prompt; never an argument)",
    )
    p.add_argument("--register", action="store_true", help="with --account: make the account first")
    p.add_argument(
        "--rated",
        action="store_true",
        help="with --quick (paired by rating) or --create, and --account: a rated match for the ladder",
    )
    p.add_argument("--auto-pass", action="store_true", help="pass for me whenever passing is the only legal action")
    p.add_argument(
        "--clock", type=float, metavar="MINUTES", help="with --create/--vs-bot: a chess clock of MINUTES per player"
    )
    p.add_argument(
        "--increment", type=float, default=0.0, metavar="SECONDS", help="with --clock: seconds added per decision"
    )
    p.add_argument(
        "--best-of",
        type=int,
        choices=(1, 3, 5),
        default=None,
        help="with --create/--vs-bot: a match of 1, 3 or 5 duels, with siding between them (default 1; "
        "--quick plays the format's usual match: Goat best of 3)",
    )
    p.add_argument(
        "--give-up-after",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long to keep trying to get a lost connection back before giving up (default: 30)",
    )
    p.add_argument("--bot", action="store_true", help=argparse.SUPPRESS)  # old spelling of `duel bot`
    p.add_argument("--seed", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=run)


def _default_name() -> str:
    name = os.environ.get("USER") or os.environ.get("USERNAME") or ""
    return shown(name).replace(REPLACEMENT, "")


@dataclass
class Holder:
    """What the user needs to hear if the process is interrupted."""

    seat: Seat | None = None


def _token_match(token: str) -> str | None:
    parts = token.split(".")
    return parts[1] if len(parts) == 4 else None


async def main(args: argparse.Namespace, holder: Holder, account: Account | None = None) -> int:
    from protocol.messages import (
        CreateMatch,
        Join,
        ListMatches,
        MatchList,
        QuickMatch,
        Reconnect,
        Spectate,
    )
    from server.clients.client import DuelClient
    from server.clients.terminal.cards import Catalogue
    from server.clients.terminal.conn import connect, fetch_catalogue, new_request_id, take_seat, url_flag
    from server.clients.terminal.lists import match_list_lines
    from server.clients.terminal.play import Game, LineReader

    out = print
    if args.clock is not None and not (args.create or args.vs_bot):
        raise CliError("--clock goes with --create or --vs-bot (the match's creator sets the clock)", 2)
    if args.best_of is not None and not (args.create or args.vs_bot):
        raise CliError("--best-of goes with --create or --vs-bot (--quick plays the format's usual match)", 2)
    if args.rated and not (args.quick or args.create):
        raise CliError("--rated goes with --quick or --create (a rated match between two accounts)", 2)
    if args.rated and account is None:
        raise CliError("a rated match needs an account: add --account NAME", 2)
    client: DuelClient | None = await connect(args.url, "cli")
    assert client is not None
    prepare = None if account is None else account.log_in
    if account is not None:
        await account.log_in(client)
        out(f"logged in as {account.shown_name}")
    if args.list:
        for status in ("live", "finished"):
            await client.send(ListMatches(status=status, limit=20))
            rows = await client.expect(MatchList, timeout=20)
            for line in match_list_lines(rows.matches, status):
                out(line)
        await client.close()
        return 0
    cat = Catalogue.of(await fetch_catalogue(client))
    deck, side, fmt = _deck_side_and_format(args, cat)
    cat.format = fmt
    clock_ms = None if args.clock is None else max(1000, int(args.clock * 60_000))
    increment_ms = int(args.increment * 1000)
    reader = LineReader(asyncio.get_running_loop())
    mode = next(m for m in ("vs_bot", "create", "join", "quick", "reconnect", "spectate") if getattr(args, m))
    flag = url_flag(args.url)
    while True:
        match_hint: str | None = None
        if mode == "vs_bot":
            request: Any = CreateMatch(
                deck=deck,
                name=args.name,
                request_id=new_request_id(),
                opponent="bot",
                clock_ms=clock_ms,
                increment_ms=increment_ms if clock_ms else 0,
                format=fmt,
                best_of=args.best_of or 1,
                side=side,
            )
        elif mode == "create":
            request = CreateMatch(
                deck=deck,
                name=args.name,
                request_id=new_request_id(),
                clock_ms=clock_ms,
                increment_ms=increment_ms if clock_ms else 0,
                format=fmt,
                best_of=args.best_of or 1,
                side=side,
                rated=args.rated,
            )
        elif mode == "join":
            request, match_hint = (
                Join(match_id=args.join, deck=deck, name=args.name, request_id=new_request_id(), side=side),
                args.join,
            )
        elif mode == "quick":
            request = QuickMatch(
                deck=deck, name=args.name, request_id=new_request_id(), format=fmt, side=side, rated=args.rated
            )
        elif mode == "reconnect":
            request, match_hint = Reconnect(token=args.reconnect), None
        else:
            request, match_hint = Spectate(match_id=args.spectate), args.spectate
        if mode == "join" and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", args.join):
            raise CliError(f"{args.join!r} is not a match id (see the matches with: duel play --list{flag})", 2)
        seat = await take_seat(args.url, "cli", request, client=client, match_id=match_hint, prepare=prepare)
        client = None
        holder.seat = seat
        if account is not None:
            seat.command = f"duel play --account {shlex.quote(account.name)}"
        if seat.seat is None:
            out(f"watching match {seat.match_id} (public information only; h: help, q: stop watching)")
        else:
            you = f' as "{args.name}"' if args.name and mode != "reconnect" else ""
            out(f"match {seat.match_id}: you are {seat.seat_name} (seat {seat.seat}){you}")
            out(f"to take this seat back later: {seat.command} --reconnect {seat.token}{flag}")
            if mode == "vs_bot":
                out("the server's bot takes seat B")
            elif not seat.started and mode == "create":
                out(f"waiting for an opponent; they type: duel play --join {seat.match_id}{flag}")
            elif not seat.started and mode == "quick" and args.rated:
                out("waiting in the rated queue for a player of close rating (the gap widens as you wait)")
            elif not seat.started and mode == "quick":
                out(
                    "waiting in the quick-match queue for an opponent (another `duel play --quick` or `duel bot "
                    "--quick`)"
                )
        game = Game(seat, cat, args, reader, out, fresh_resume=mode == "reconnect" and seat.started)
        outcome = await game.run()
        if outcome != "finished":
            return 0
        m = seat.client.match
        if m is not None and m.best_of > 1:
            out("replay its duels: " + " · ".join(f"duel replay {d['duel_id']}" for d in m.duels))
        out(
            f"replay this duel: duel replay {seat.match_id}"
            + (f" --as {seat.seat_name}" if seat.seat is not None else "")
            + "   (in the folder where the server runs, or with --redis-url)"
        )
        if seat.seat is None:
            await _close(seat)
            return 0
        await _close(seat)
        again = (
            "against the bot again"
            if mode == "vs_bot"
            else ("in the quick-match queue" if mode == "quick" else "as a new match for someone to join")
        )
        out(f"rematch? y: a new duel {again}; anything else: quit")
        answer = await reader.line()
        if answer is None or answer.strip().lower() not in ("y", "yes"):
            return 0
        mode = mode if mode in ("vs_bot", "quick") else "create"


def _deck_and_format(args: argparse.Namespace, cat: Catalogue) -> tuple[list[int] | None, str]:
    """The deck asked for (None: the server's demo deck) and the format of the duel."""
    deck, _side, fmt = _deck_side_and_format(args, cat)
    return deck, fmt


def _deck_side_and_format(args: argparse.Namespace, cat: Catalogue) -> tuple[list[int] | None, list[int] | None, str]:
    """The deck asked for (None: the server's demo deck), its Side Deck (a deck list's ``!side``;
    None: none) and the format of the duel: ``--format``,
    else the demo deck's, else ``current``. A deck of another format than the one asked for, or
    one the server does not play every card of yet, is refused here, before anything is sent."""
    fmt = getattr(args, "format", None)
    if fmt is not None:
        if fmt not in cat.format_names():
            raise CliError(f"no format {fmt!r}; the formats are: {', '.join(cat.format_names())}", 2)
        if not (args.create or args.vs_bot or getattr(args, "quick", False)):
            raise CliError("--format goes with --create, --vs-bot or --quick (a match's creator names its format)", 2)
    if not args.deck:
        return None, None, fmt or "current"
    if _is_deck_list(args.deck, cat):
        deck, side = _deck_from_list(args.deck, fmt, check=not getattr(args, "join", None))
        return deck, side or None, fmt or "current"
    entry = cat.deck_entry(args.deck)
    if entry is None:
        raise CliError(f"no demo deck called {args.deck!r}; the decks are: {cat.deck_list_words()}", 2)
    deck_format = str(entry.get("format", "current"))
    if fmt is not None and deck_format != fmt:
        raise CliError(f"the demo deck {entry['name']} is a {deck_format} deck, not a {fmt} one", 2)
    if not entry.get("playable", True):
        missing = sorted({str(cat.name(c)) for c in entry["cards"] if not (cat.get(c) or {}).get("supported", True)})
        raise CliError(
            f"the server does not play every card of {entry['name']} yet ({len(missing)} not supported: "
            f"{', '.join(missing[:8])}{', ...' if len(missing) > 8 else ''})",
            2,
        )
    return [int(x) for x in entry["cards"]], None, fmt or deck_format


def _is_deck_list(arg: str, cat: Catalogue) -> bool:
    """``--deck`` names a deck list (a ``ydke://`` link, a ``.ydk`` file, or any file that is not
    a demo deck's name), not a demo deck."""
    if arg.startswith("ydke://") or arg.lower().endswith(".ydk"):
        return True
    return cat.deck_entry(arg) is None and Path(arg).is_file()


def _deck_from_list(arg: str, fmt: str | None, *, check: bool) -> tuple[list[int], list[int]]:
    """The deck a ``.ydk`` file or a ``ydke://`` link writes, as the protocol sends it (its Main
    Deck, then its Extra Deck), and its Side Deck, checked (the three together) against format
    ``fmt`` (None: ``current``) as ``duel deck check`` does unless ``check`` is false; ``CliError``
    (status 2) naming every problem."""
    from server.cli.deck import read_list
    from server.rules import FORMATS, DeckListError, check_deck, named_format, parse_deck_list

    shown = arg[:40] + "..." if arg.startswith("ydke://") and len(arg) > 43 else arg
    try:
        deck = parse_deck_list(read_list(arg))
    except OSError as exc:
        raise CliError(f"cannot read {arg}: {exc.strerror or exc}", 2) from None
    except DeckListError as exc:
        raise CliError(f"{shown} is not a deck list:\n  " + "\n  ".join(exc.problems), 2) from None
    if check:
        want = named_format(fmt)
        problems = check_deck(deck, want)
        if problems:
            hint = ""
            if fmt is None:  # legal in another format? say which flag plays it
                other = next((f for f in FORMATS.values() if f is not want and not check_deck(deck, f)), None)
                hint = f"\n(it is legal in {other.title}: add --format {other.name})" if other is not None else ""
            raise CliError(f"{shown} is not legal in {want.title}:\n  " + "\n  ".join(problems) + hint, 2)
    return list(deck.main + deck.extra), list(deck.side)


async def _close(seat: Seat) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(seat.client.close(), 5)


def run(args: argparse.Namespace) -> int:
    if args.bot:  # the old spelling of `duel bot`
        from server.cli.bot import run_policy

        if not (args.join or args.quick or args.reconnect):
            print("error: --bot goes with --join, --quick or --reconnect (better: duel bot ...)", file=sys.stderr)
            return 2

        return run_policy(args, policy="greedy", think=0.0, quiet=False)
    from server.clients.terminal.conn import account_of

    holder = Holder()
    try:
        account = account_of(args.account, args.register)  # the password prompt, before the loop
        return asyncio.run(main(args, holder, account))
    except CliError as exc:
        print(f"error: {exc.message}", file=sys.stderr, flush=True)
        return exc.status
    except KeyboardInterrupt:
        hint = f"; {holder.seat.resume_hint()}" if holder.seat is not None else ""
        print(f"\ninterrupted{hint}", file=sys.stderr, flush=True)
        return 130
    except Exception as exc:  # never a traceback at the user
        print(f"error: unexpected failure: {type(exc).__name__}: {exc}", file=sys.stderr, flush=True)
        return 1
