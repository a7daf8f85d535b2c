"""The loop of ``duel bot``: take a seat over the protocol and answer every decision with a policy
of :mod:`server.clients.bot` (what a client sees: its view and its legal actions), printing the story."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
from collections.abc import Callable

from websockets.exceptions import ConnectionClosed

from protocol import errors as E
from protocol.messages import ClientMessage, Join, MatchState, Presence, QuickMatch, Reconnect, Rejected, Update
from server.clients.bot import POLICIES
from server.clients.bot_player import decide
from server.clients.client import ClientError
from server.clients.terminal import render
from server.clients.terminal.cards import Catalogue
from server.clients.terminal.conn import CliError, connect, fetch_catalogue, new_request_id, take_seat

Out = Callable[[str], None]


async def bot_main(args: argparse.Namespace, policy_name: str, think: float, quiet: bool, out: Out) -> int:
    policy = POLICIES[policy_name]()
    rnd = random.Random(args.seed)
    say = (lambda line: None) if quiet else out
    client = await connect(args.url, "bot")
    deck = None
    study = getattr(policy, "study", None)
    if args.deck or callable(study):
        cat = Catalogue.of(await fetch_catalogue(client))
        deck = cat.deck(args.deck) if args.deck else None
        if args.deck and deck is None:
            raise CliError(f"no demo deck called {args.deck!r}; the decks are: {', '.join(cat.deck_names())}", 2)
        if callable(study):
            study(cat.cards, deck)  # what it knows of the cards and of its deck (the server's, when None)
    observe = getattr(policy, "observe", None)
    name = str(args.name)
    request: ClientMessage
    if args.join:
        request = Join(match_id=args.join, deck=deck, name=name, request_id=new_request_id())
    elif args.quick:
        request = QuickMatch(deck=deck, name=name, request_id=new_request_id())
    else:
        request = Reconnect(token=args.reconnect)
    seat = await take_seat(args.url, "bot", request, client=client, match_id=args.join)
    seat.command = "duel bot"
    say(
        f"bot ({policy_name} policy) in match {seat.match_id} as {seat.seat_name}; "
        f"it can be resumed with: duel bot --reconnect {seat.token}"
    )
    if not seat.started:
        say("waiting for an opponent")
    shown = seat.first_message
    names = list(seat.players)
    asked_at: tuple[str, int] = ("", -1)
    actions = 0
    while True:
        c = seat.client
        c.changed.clear()
        while shown < len(c.inbox):
            msg = c.inbox[shown]
            shown += 1
            if isinstance(msg, Update):
                if callable(observe):
                    observe(msg.facts)
                for line in msg.story:
                    say(line)
            elif isinstance(msg, Presence) and any(msg.players):
                names = list(msg.players)
            elif isinstance(msg, Rejected):
                say(f"refused: {msg.reason} ({msg.code})")
            elif isinstance(msg, MatchState) and msg.phase == "siding":
                say(f"-- duel {msg.duel - 1} is over, {msg.score[0]}-{msg.score[1]}: the bot keeps its deck")
        if c.finished and c.match is not None and c.match.best_of > 1:
            m = c.match
            result = m.result or {}
            out(
                f"result: match {result.get('winner')} ({result.get('reason')}), {m.score[0]}-{m.score[1]} — the bot"
                f" played {seat.seat_name} in match {seat.match_id} ({actions} actions)"
            )
            with contextlib.suppress(Exception):
                await asyncio.wait_for(c.close(), 5)
            return 0
        if c.finished:
            view = c.view
            assert view is not None and seat.seat is not None
            out(
                f"result: {render.result_line(view, seat.seat, names)[len('RESULT: ') :]}"
                f" — the bot played {seat.seat_name} in match {seat.match_id} ({actions} actions); "
                f"replay: duel replay {seat.match_id}"
            )
            with contextlib.suppress(Exception):
                await asyncio.wait_for(c.close(), 5)
            return 0
        if c.closed:
            say("-- connection lost; reconnecting…")
            await seat.resume(args.give_up_after)
            shown = seat.first_message
            asked_at = ("", -1)
            say("-- reconnected")
            continue
        if c.between_duels:
            with contextlib.suppress(ConnectionClosed, OSError):
                await c.keep_deck()  # the bot sides nothing, and goes first when it chooses
        if c.legal and c.view is not None and asked_at != c.position:
            asked_at = c.position
            if think > 0:
                await asyncio.sleep(think * (0.5 + rnd.random()))
                if c.position != asked_at or c.closed:
                    continue  # the duel moved on while we thought
            action = await decide(policy, c.view, c.legal, rnd)
            if c.position != asked_at or c.closed:
                continue  # the duel moved on while it thought
            c.drain()
            try:
                reply = await c.act(action, timeout=20)
            except ClientError as exc:
                if exc.error.code not in (E.SERVER_UNAVAILABLE, E.SERVER_INTERNAL, E.RATE_LIMITED):
                    raise CliError(
                        f"the server refused the bot's action: {exc.error.reason} ({exc.error.code})"
                    ) from None
                await asyncio.sleep(0.5)
                asked_at = ("", -1)
                continue
            except (EOFError, TimeoutError, ConnectionClosed, OSError):
                asked_at = ("", -1)
                continue
            actions += 1
            if isinstance(reply, Rejected):
                asked_at = ("", -1)
                await asyncio.sleep(0.1)
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(c.changed.wait(), 5)
