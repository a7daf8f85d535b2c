"""The actions a client sends (``action.action``, ``update.legal``): their kinds and keys, from
the engine's one action table (``engine.actions``; PROTOCOL.md section 13 is made from it).

Clients, bots and the terminal client name an action's ``do`` by ``ActionKind`` (a ``StrEnum``:
its members equal the wire's strings) and hold actions as the maps the wire has.
"""

from __future__ import annotations

from engine.actions import KEYS as KEYS
from engine.actions import ActionKind as ActionKind
from engine.actions import WireAction as WireAction
