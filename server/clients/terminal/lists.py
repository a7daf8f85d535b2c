"""The match lists of ``duel play --list`` (``list_matches``, live and finished), as lines."""

from __future__ import annotations

import time
from typing import Any

from protocol.words import END_REASONS

SEATS = ("A", "B")


def _ago(ms: Any) -> str:
    if not isinstance(ms, int):
        return ""
    s = max(0, int(time.time() - ms / 1000))
    if s < 90:
        return f"{s} s ago"
    if s < 5400:
        return f"{s // 60} min ago"
    if s < 48 * 3600:
        return f"{s // 3600} h ago"
    return f"{s // 86400} days ago"


def _players(row: dict[str, Any]) -> str:
    names = list(row.get("players") or ["", ""])
    a = names[0] or "?"
    b = names[1] or ("?" if row.get("status") == "waiting" else "-")
    return f"{a} vs {b}"


def match_list_lines(rows: list[dict[str, Any]], status: str) -> list[str]:
    title = "live and waiting matches" if status == "live" else "finished matches"
    if not rows:
        return [f"{title}: none"]
    out = [f"{title} ({len(rows)}):"]
    for r in rows:
        mid = r.get("match_id")
        if status == "live":
            state = "waiting for a player" if r.get("status") == "waiting" else f"playing, entry {r.get('seq')}"
            how = (
                f"join: duel play --join {mid}"
                if r.get("status") == "waiting"
                else (f"watch: duel play --spectate {mid}" if r.get("spectators", True) else "no spectators")
            )
            out.append(f"  {mid}  {_players(r)}  {state}, created {_ago(r.get('created_ms'))}  ({how})")
        else:
            w = r.get("winner")
            names = list(r.get("players") or ["", ""])
            won = (
                "a draw"
                if w == "draw"
                else (
                    f"{SEATS[int(w)]}{' (' + names[int(w)] + ')' if names[int(w)] else ''} won"
                    if isinstance(w, int)
                    else "no result"
                )
            )
            why = END_REASONS.get(str(r.get("end_reason")), str(r.get("end_reason") or ""))
            out.append(
                f"  {mid}  {_players(r)}  {won} ({why}), {r.get('turns')} turns, {r.get('length')} entries, "
                f"{_ago(r.get('finished_ms'))}  (replay: duel replay {mid})"
            )
    return out
