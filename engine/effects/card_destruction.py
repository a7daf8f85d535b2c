"""Card Destruction (Normal Spell): "Each player discards their entire hand, then draws the same
number of cards they discarded." (card text; ruling GEN-1).

Both hands are discarded at the same time (Card Destruction itself is on the field), then each
player draws as many as they discarded, the turn player first; a player whose Deck holds fewer
loses when they cannot draw (ruling GEN-2). It needs a card in either hand besides itself (ruling
GEN-4)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, discard, draw, other, register


def _condition(s: State, card: Card, seat: int) -> bool:
    return any(cid != card.id for p in s.players for cid in p.hand)


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    order = (s.turn_player, other(s.turn_player))
    counts = {seat: len(s.players[seat].hand) for seat in order}
    discard(ctx, [cid for seat in order for cid in s.players[seat].hand])
    for seat in order:
        if not s.finished:
            draw(ctx, seat, counts[seat])


register(
    by_name("Card Destruction").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
