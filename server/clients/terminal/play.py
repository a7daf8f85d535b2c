"""The interactive loop of ``duel play``: one match from the seat (or a spectator's place) to the
end screen, reading commands from the terminal while the duel goes on.

Input is read by a daemon thread (so a pending ``input`` never keeps the process alive and the
terminal's file flags are never touched) and handed to the event loop line by line; the loop
wakes on a line or on anything the server sent.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from websockets.exceptions import ConnectionClosed

from protocol.actions import ActionKind
from protocol.messages import ClientMessage, Closing, ConcedeDuel, Error, MatchState, Presence, Rejected, Update
from server.clients.client import ClientError
from server.clients.terminal import render
from server.clients.terminal.cards import Catalogue
from server.clients.terminal.conn import Seat
from server.clients.terminal.matchterm import MatchTerm

Out = Callable[[str], None]
CATCH_UP_LINES = 15
"""Story lines shown from the past when resuming a seat in a new process."""


class LineReader:
    """Lines typed at the terminal, as an asyncio queue (None: end of input)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._loop = loop
        self._pending: asyncio.Task[str | None] | None = None
        self.closed = False  # the end of input was seen and is not to be waited for again
        threading.Thread(target=self._read, name="stdin", daemon=True).start()

    def _read(self) -> None:
        while True:
            try:
                line = sys.stdin.readline()
            except (OSError, ValueError):
                line = ""
            with contextlib.suppress(RuntimeError):  # the loop is closed: we are exiting
                self._loop.call_soon_threadsafe(self.queue.put_nowait, line.rstrip("\r\n") if line else None)
            if not line:
                return

    def next_task(self) -> asyncio.Task[str | None]:
        """The task that yields the next line (kept across waits so no line is lost)."""
        if self._pending is None:
            self._pending = asyncio.ensure_future(self.queue.get())
        return self._pending

    def taken(self) -> str | None:
        task, self._pending = self._pending, None
        assert task is not None and task.done()
        return task.result()

    async def line(self) -> str | None:
        task = self.next_task()
        await task
        return self.taken()


def _board_key(view: dict[str, Any]) -> str:
    keep = {k: view.get(k) for k in ("turn", "phase", "step", "damage_step", "players", "chain", "attack", "winner")}
    return json.dumps(keep, sort_keys=True, default=str)


class Game:
    """One match, from the seat to the end screen."""

    def __init__(
        self,
        seat: Seat,
        cat: Catalogue,
        args: argparse.Namespace,
        reader: LineReader,
        out: Out,
        *,
        fresh_resume: bool = False,
    ) -> None:
        self.seat = seat
        self.cat = cat
        self.args = args
        self.reader = reader
        self.out = out
        self.me = seat.seat
        self.shown = seat.first_message
        self.catch_up: list[str] | None = [] if fresh_resume else None
        self.names = list(seat.players)
        self.presence: list[bool] | None = None
        self.seen = [False, False]  # has the seat had a live connection yet
        self.ending_turn: int | None = None  # the turn the user chose to end
        self.answered_seq = -1  # the last entry the client answered for the user
        self.clocks: list[int] | None = None
        self.clocks_at = time.monotonic()
        self.menu_seq = -1
        self.menu: list[dict[str, Any]] = []
        self.board_shown = ""
        self.turn_shown: Any = None
        self.waiting_shown: tuple[Any, ...] | None = None
        self.match = MatchTerm(cat, out, seat.seat)  # a match of several duels (matchterm)

    @property
    def client(self) -> Any:
        return self.seat.client

    # ------------------------------------------------------------------ output

    def board(self) -> str:
        view = self.client.view
        assert view is not None
        running = (self.client.pending or {}).get("seat")
        clocks = render.clocks_now(self.clocks, running, self.clocks_at)
        presence: list[bool | None] | None = None
        if self.presence is not None:
            presence = [p if p or self.seen[s] else None for s, p in enumerate(self.presence)]
        return render.render_board(
            view, self.me, self.cat, names=self.names, presence=presence, clocks=clocks, seq=self.client.seq
        )

    def show_board(self) -> None:
        self.out(self.board())
        self.board_shown = _board_key(self.client.view)
        self.turn_shown = self.client.view.get("turn")

    def set_presence(self, seats: list[bool]) -> None:
        before, self.presence = self.presence, list(seats)
        for s in (0, 1):
            if before is not None and s != self.me and before[s] != seats[s]:
                who = render.seat_label(s, self.names)
                if seats[s]:
                    self.out(f"-- {who} {'is connected again' if self.seen[s] else 'is here'}")
                else:
                    self.out(f"-- {who} disconnected (the seat is kept for them)")
            self.seen[s] = self.seen[s] or seats[s]

    def pump(self) -> None:
        """Tell what arrived since last time."""
        inbox = self.client.inbox
        while self.shown < len(inbox):
            msg = inbox[self.shown]
            self.shown += 1
            if isinstance(msg, Update):
                for fact in msg.facts[:1] if msg.seq == 1 else ():
                    # the genesis fact names the duel's format: cards show the text it plays
                    options = fact.get("options") if isinstance(fact, dict) else None
                    if isinstance(options, dict):
                        self.cat.format = str(options.get("format") or "current")
                if self.catch_up is not None:
                    self.catch_up.extend(msg.story)
                    if msg.view is not None:
                        lines, self.catch_up = self.catch_up, None
                        if len(lines) > CATCH_UP_LINES:
                            self.out(
                                f"(… {len(lines) - CATCH_UP_LINES} earlier lines; the whole duel: duel replay "
                                f"{self.seat.match_id})"
                            )
                        for line in lines[-CATCH_UP_LINES:]:
                            self.out(line)
                else:
                    for line in msg.story:
                        self.out(line)
                if msg.clocks is not None:
                    self.clocks, self.clocks_at = list(msg.clocks), time.monotonic()
                if msg.presence is not None:
                    self.set_presence(msg.presence)
            elif isinstance(msg, Presence):
                if any(msg.players):
                    self.names = list(msg.players)
                self.set_presence(msg.seats)
            elif isinstance(msg, MatchState):
                self.match.seen(msg, self.names)
                self.menu_seq = -1
            elif isinstance(msg, Rejected):
                self.out(f"refused: {msg.reason} ({msg.code})")
                self.menu_seq = -1
            elif isinstance(msg, Error):
                self.out(f"server: {msg.reason} ({msg.code})")
            elif isinstance(msg, Closing) and msg.reconnect:
                self.out(f"-- the server is going away ({msg.reason}); reconnecting")

    # ------------------------------------------------------------------ the loop

    async def run(self) -> str:
        """Play (or watch) to the end: "finished", or "left" when the user quits."""
        while True:
            self.client.changed.clear()
            self.pump()
            c = self.client
            if c.finished:
                if c.view is not None:
                    self.out(self.board())
                return "finished"
            if c.closed:
                await self.reconnect()
                continue
            if c.view is not None and self.catch_up is None:
                if c.legal and self.me is not None:
                    if self.menu_seq != c.seq:
                        if await self.auto_pass():
                            continue
                        self.show_menu()
                elif c.pending is not None:
                    self.show_waiting()
            changed = asyncio.ensure_future(c.changed.wait())
            waits: set[asyncio.Future[Any]] = {changed}
            task = None if self.reader.closed else self.reader.next_task()
            if task is not None:
                waits.add(task)
            await asyncio.wait(waits, timeout=5, return_when=asyncio.FIRST_COMPLETED)
            changed.cancel()
            if task is not None and task.done():
                line = self.reader.taken()
                if line is None and self.me is None:
                    self.reader.closed = True  # a spectator watches on without a keyboard
                    continue
                if line is None:
                    self.out("(end of input: leaving the match)")
                    return await self.leave()
                if await self.command(line.strip()) == "left":
                    return "left"

    async def reconnect(self) -> None:
        self.out("-- connection lost; reconnecting…")
        await self.seat.resume(self.args.give_up_after)
        self.shown = self.seat.first_message
        self.menu_seq = -1
        self.out("-- reconnected")

    async def auto_pass(self) -> bool:
        """Answer for the user what they already answered: ``--auto-pass`` when passing is all
        they may do, and "End the turn" again in the next phases of the turn they ended (the
        engine gives the turn player priority in each phase it goes through)."""
        c = self.client
        legal = [a for a in c.legal if a.get("do") != ActionKind.CONCEDE]
        if self.answered_seq == c.seq:
            return False  # answered for this entry already and it was not taken: ask the user
        self.answered_seq = c.seq
        if self.ending_turn is not None:
            if self.ending_turn == (c.view or {}).get("turn") and {"do": ActionKind.END_TURN.value} in legal:
                await asyncio.sleep(0.02)
                await self.act({"do": ActionKind.END_TURN.value})
                return True
            self.ending_turn = None
        if not (self.args.auto_pass and legal and all(a.get("do") == ActionKind.PASS for a in legal)):
            return False
        await asyncio.sleep(0.02)  # stay well under the server's rate limit
        await self.act(legal[0])
        return True

    def show_menu(self) -> None:
        c = self.client
        if self.me is None or not c.legal:
            return
        if _board_key(c.view) != self.board_shown:
            self.show_board()
        prompt = (c.pending or {}).get("prompt") or "your decision"
        self.out(f"-- {prompt}")
        about = render.pending_about(c.view, self.cat, self.me, c.pending)
        if about:
            self.out(f"   ({about})")
        self.menu = render.menu_actions(c.view or {}, [a for a in c.legal if a.get("do") != ActionKind.CONCEDE])
        for line in render.menu_lines(c.view, self.cat, self.me, c.pending, self.menu):
            self.out(line)
        self.out(f"type a number (h: help, ? N: card text, c: concede, q: leave) · entry {c.seq}")
        self.menu_seq = c.seq
        self.waiting_shown = None

    def show_waiting(self) -> None:
        c = self.client
        p = c.pending or {}
        v = c.view
        key = (p.get("seat"), p.get("kind"), v.get("turn"), v.get("phase"), v.get("step"))
        if self.me is None:
            if v.get("turn") != self.turn_shown:
                self.show_board()
            return
        if p.get("seat") == self.me or key == self.waiting_shown:
            return
        self.waiting_shown = key
        clocks = render.clocks_now(self.clocks, p.get("seat"), self.clocks_at)
        self.out(render.waiting_line(v, p, self.names, clocks))

    async def send(self, msg: ClientMessage) -> None:
        """A message that is no duel action (between duels): its answer comes as match_state or error."""
        with contextlib.suppress(ConnectionClosed, OSError):
            await self.client.send(msg)

    async def act(self, action: dict[str, Any]) -> None:
        c = self.client
        c.drain()
        try:
            reply = await c.act(action, timeout=20)
        except ClientError as exc:
            self.out(f"server: {exc.error.reason} ({exc.error.code})")
            self.menu_seq = -1
            return
        except (EOFError, TimeoutError, ConnectionClosed, OSError):
            self.menu_seq = -1  # the loop sees the closed connection and resumes the seat
            return
        if isinstance(reply, Rejected):
            self.menu_seq = -1

    # ------------------------------------------------------------------ commands

    async def command(self, line: str) -> str | None:
        c = self.client
        low = line.lower()
        if c.between_duels and self.me is not None and c.match is not None:
            said = self.match.command(line, c.match)
            if isinstance(said, str):
                self.out(said)
                return None
            if said is not None:
                await self.send(said)
                return None
        if not line:
            if self.me is not None and c.legal and c.view is not None:
                self.menu_seq = -1
            return None
        if low in ("h", "help"):
            self.out(render.HELP)
        elif low in ("b", "board"):
            if c.view is not None:
                self.show_board()
        elif low in ("m", "menu"):
            self.menu_seq = -1
            self.waiting_shown = None
        elif low in ("t", "time", "clock", "clocks"):
            running = (c.pending or {}).get("seat")
            now = render.clocks_now(self.clocks, running, self.clocks_at)
            if now is None:
                self.out("this match has no clocks")
            else:
                self.out(
                    "clocks: "
                    + " · ".join(
                        f"{render.seat_label(s, self.names)} {render.clock_text(now[s])}"
                        + (" (running)" if s == running else "")
                        for s in (0, 1)
                    )
                )
        elif low.startswith("?"):
            self.card_text(line[1:].strip())
        elif low in ("q", "quit", "exit", "leave"):
            return await self.leave()
        elif low in ("c", "concede"):
            if self.me is None:
                self.out("spectators cannot concede")
                return None
            several = c.match is not None and c.match.best_of > 1
            self.out(f"concede the {'match' if several else 'duel'}? type yes to confirm")
            answer = await self.reader.line()
            if answer is not None and answer.strip().lower() in ("y", "yes"):
                await self.act({"do": ActionKind.CONCEDE.value})
            else:
                self.out("not conceded")
                self.menu_seq = -1
        elif low in ("cd", "concede duel"):
            if self.me is None or c.match is None:
                self.out("cd concedes this duel of a match of several (c concedes)")
                return None
            self.out("concede this duel (the match goes on)? type yes to confirm")
            answer = await self.reader.line()
            if answer is not None and answer.strip().lower() in ("y", "yes"):
                await self.send(ConcedeDuel(client_action_id=c.next_action_id()))
        elif line.isdigit():
            action = self.choose(int(line))
            if action is not None:
                if action.get("do") == ActionKind.END_TURN:
                    self.ending_turn = (c.view or {}).get("turn")
                await self.act(action)
        else:
            self.out(f"unknown command {line!r}: type a number, or h for help")
        return None

    def choose(self, n: int) -> dict[str, Any] | None:
        """Action ``n`` of the menu on screen, if that menu is still the current one."""
        c = self.client
        if self.me is None:
            self.out("spectators watch only (h: help)")
        elif not c.legal or self.menu_seq != c.seq:
            self.out("not your decision now" if not c.legal else "that menu is out of date: here is the new one")
            self.menu_seq = -1
        elif not 1 <= n <= len(self.menu):
            self.out(f"type 1 to {len(self.menu)} (h: help)")
        else:
            return self.menu[n - 1]
        return None

    def card_text(self, what: str) -> None:
        c = self.client
        if not what:
            self.out("? N: the card(s) of action N · ? NAME: a card by name (e.g. ? honest)")
            return
        if what.isdigit():
            n = int(what)
            if not self.menu or self.menu_seq != c.seq or not 1 <= n <= len(self.menu):
                self.out(
                    "no such action in the current menu"
                    if self.me is not None
                    else "spectators have no menu: use ? NAME"
                )
                return
            ids = render.action_cards(self.menu[n - 1])
            if not ids:
                self.out(f"action {n} names no card")
                return
            for line in render.card_text_lines(c.view, self.cat, ids, c.pending):
                self.out(line)
            return
        found = self.cat.find(what)
        if not found:
            self.out(f"no card called {what!r}")
        elif len(found) > 1 and found[0]["name"].lower() != what.lower():
            more = f" (and {len(found) - 8} more)" if len(found) > 8 else ""
            self.out(f"{len(found)} cards match {what!r}: " + ", ".join(str(x["name"]) for x in found[:8]) + more)
        else:
            for line in self.cat.text_lines(found[0]["code"]):
                self.out(line)

    async def leave(self) -> str:
        if self.me is not None:
            self.out(f"left match {self.seat.match_id}; your seat is kept: {self.seat.resume_hint()}")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.client.close(), 5)
        return "left"
