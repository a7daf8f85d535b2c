"""``duel play``: play a duel from the terminal (or let a bot play a seat).

    duel play --create                 # create a match, print its id, wait for an opponent
    duel play --join MATCH_ID          # take the free seat
    duel play --quick                  # pair with the next waiting player
    duel play --reconnect TOKEN        # resume a seat
    duel play --quick --bot            # a bot that plays legal actions

The board is printed after every entry with the plain-words story of what
happened; when you owe a decision the legal actions are listed, numbered:
type a number. ``c`` concedes (asks to confirm), ``b`` prints the board again,
``q`` leaves (your seat stays yours: reconnect with the token). ``--auto-pass``
passes for you when passing is the only legal action (the server never does
this on its own, so your opponent learns nothing from how fast you answer).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
from typing import Any

from server.client import bot_choice

SEATS = ("A", "B")


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser("play", help="play a duel in the terminal (or as a bot)")
    p.add_argument("--url", default="ws://127.0.0.1:8765")
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--create", action="store_true", help="create a match and wait for an opponent")
    how.add_argument("--join", metavar="MATCH_ID")
    how.add_argument("--quick", action="store_true", help="quick match")
    how.add_argument("--reconnect", metavar="TOKEN")
    p.add_argument("--bot", action="store_true", help="choose actions automatically")
    p.add_argument("--seed", type=int, default=None, help="the bot's random seed")
    p.add_argument("--auto-pass", action="store_true", help="pass when passing is the only legal action")
    p.set_defaults(func=run)


# ------------------------------------------------------------------ rendering (pure)


def cards_by_id(view: dict[str, Any]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for p in view.get("players", []):
        for zone in ("hand", "graveyard", "banished", "monsters", "spells_traps"):
            for c in p.get(zone) or []:
                if c is not None:
                    out[int(c["id"])] = c
        if p.get("field"):
            out[int(p["field"]["id"])] = p["field"]
    return out


def card_name(view: dict[str, Any], cid: Any) -> str:
    c = cards_by_id(view).get(int(cid)) if isinstance(cid, int) else None
    if c is None or c.get("hidden"):
        return f"face-down card #{cid}"
    return str(c.get("name", f"#{cid}"))


def describe_action(view: dict[str, Any], a: dict[str, Any]) -> str:
    """One line for a legal action, with card names."""
    do = a.get("do", "?")
    parts = [do.replace("_", " ")]
    if "with" in a:
        parts.append(card_name(view, a["with"]))
    if "card" in a:
        parts.append(card_name(view, a["card"]))
    if a.get("effect", 1) != 1:
        parts.append(f"(effect {a['effect']})")
    if a.get("direct"):
        parts.append("directly")
    if "target" in a:
        tgt = a["target"] if isinstance(a["target"], list) else [a["target"]]
        parts.append("-> " + ", ".join(card_name(view, t) for t in tgt))
    for key in ("tribute", "cost", "cards"):
        if a.get(key):
            parts.append(f"[{key}: " + ", ".join(card_name(view, t) for t in a[key]) + "]")
    if a.get("choose"):
        parts.append("[choose: " + ", ".join(card_name(view, x) if isinstance(x, int) else str(x) for x in a["choose"]) + "]")
    if "option" in a:
        parts.append(f"[{a['option']}]")
    return " ".join(parts)


def _card_text(c: dict[str, Any] | None) -> str:
    if c is None:
        return "."
    if c.get("hidden"):
        return "[set]" if c.get("zone") != "hand" else "[?]"
    text = str(c.get("name", "?"))
    if c.get("zone") == "monsters":
        pos = {"attack": "ATK", "defense": "DEF", "set": "set"}.get(str(c.get("position")), "")
        text += f" {c.get('atk')}/{c.get('def')} {pos}"
    elif c.get("zone") in ("spells_traps", "field") and not c.get("face_up", True):
        text += " (set)"
    return text


def render_board(view: dict[str, Any], me: int | None) -> str:
    lines = []
    phase = view.get("phase")
    if phase == "battle":
        phase = f"battle / {view.get('step')}" + (f" / {view['damage_step']}" if view.get("damage_step") else "")
    lines.append(f"Turn {view.get('turn')} ({SEATS[int(view.get('turn_player', 0))]}), {phase}")
    order = (1 - me, me) if me in (0, 1) else (1, 0)
    for seat in order:
        p = view["players"][seat]
        who = "you" if seat == me else "opponent"
        lines.append(f"  {SEATS[seat]} ({who}): LP {p['lp']}  hand {p['hand_count']}  deck {p['deck_count']}  graveyard {len(p['graveyard'])}")
        lines.append("    monsters: " + " | ".join(_card_text(c) for c in p["monsters"]))
        lines.append("    spells/traps: " + " | ".join(_card_text(c) for c in p["spells_traps"]) + (f"   field: {_card_text(p['field'])}" if p.get("field") else ""))
        if seat == me:
            lines.append("    hand: " + ", ".join(_card_text(c) for c in p["hand"]))
    if view.get("chain"):
        lines.append("  chain: " + " <- ".join(f"{link['link']}. {card_name(view, link['card'])} ({SEATS[link['controller']]})" for link in view["chain"]))
    if view.get("attack"):
        a = view["attack"]
        tgt = "directly" if a.get("target") is None else card_name(view, a["target"])
        lines.append(f"  attack: {card_name(view, a['attacker'])} -> {tgt}")
    if view.get("winner") is not None:
        w = view["winner"]
        lines.append("  RESULT: " + ("draw" if w == "draw" else f"{SEATS[int(w)]} wins") + f" ({view.get('end_reason')})")
    return "\n".join(lines)


# ------------------------------------------------------------------ the loop (I/O)


async def _ask(prompt: str) -> str:
    return (await asyncio.to_thread(input, prompt)).strip().lower()


async def play(args: argparse.Namespace) -> int:
    from engine import describe
    from protocol.messages import (
        CreateMatch,
        Error,
        Join,
        QuickMatch,
        Reconnect,
        Rejected,
        Seated,
        Update,
    )
    from server.client import DuelClient

    rnd = random.Random(args.seed)
    client = await DuelClient.connect(args.url, "cli-bot" if args.bot else "cli")
    if args.create:
        await client.send(CreateMatch())
    elif args.join:
        await client.send(Join(match_id=args.join))
    elif args.quick:
        await client.send(QuickMatch())
    else:
        await client.send(Reconnect(token=args.reconnect))
    seated = await client.expect(Seated, timeout=30)
    me = seated.seat
    print(f"match {seated.match_id}: you are {SEATS[me]} (seat {me}); reconnect token: {seated.token}")
    if not seated.started:
        print(f"waiting for an opponent: duel play --join {seated.match_id}")
    shown = 0  # client.inbox keeps every message; print what is new
    asked_at = -1
    while True:
        for msg in client.inbox[shown:]:
            if isinstance(msg, Error):
                print(f"error: {msg.code}: {msg.reason}")
            elif isinstance(msg, Update):
                for fact in msg.facts:
                    line = describe(fact)
                    if line:
                        print(line)
        shown = len(client.inbox)
        view = client.view
        if view is not None and view.get("winner") is not None:
            print(render_board(view, me))
            await client.close()
            return 0
        if client.closed:
            print("connection closed")
            return 1
        legal = list(client.legal)
        if view is None or not legal or asked_at == client.seq:
            client.changed.clear()
            await client.changed.wait()
            continue
        asked_at = client.seq
        if (args.auto_pass and all(a["do"] == "pass" for a in legal)) or args.bot:
            await asyncio.sleep(0.03)  # stay well under the server's rate limit
            await client.act(legal[0] if not args.bot else bot_choice(legal, rnd))
            continue
        print(render_board(view, me))
        print(f"-- {(client.pending or {}).get('prompt', '')}")
        for i, a in enumerate(legal, start=1):
            print(f"  {i:2}. {describe_action(view, a)}")
        while True:
            answer = await _ask("> ")
            if answer == "q":
                await client.close()
                return 0
            if answer == "b":
                print(render_board(view, me))
                continue
            if answer == "c":
                if await _ask("concede the duel? (yes/no) ") == "yes":
                    await client.act({"do": "concede"})
                    break
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                reply = await client.act(legal[int(answer) - 1])
                if isinstance(reply, Rejected):
                    print(f"refused: {reply.code}: {reply.reason}")
                    asked_at = -1
                break
            print(f"type 1-{len(legal)}, b (board), c (concede) or q (quit)")


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(play(args))
    except KeyboardInterrupt:
        print("", file=sys.stderr)
        return 130
