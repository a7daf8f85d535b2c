"""Heavy Storm (Normal Spell): "Destroy all Spell and Trap Cards on the field." (card text;
ruling GEN-1).

All at the same time (``destroy_all``): both players' Spell & Trap Zones and Field Zones,
face-up or face-down, a monster equipped as an Equip Spell Card too, but not Heavy Storm itself,
which is resolving (``common.spells_traps_on_field``). It needs another Spell or Trap Card on the
field to be activated (ruling GEN-4). A Trap chained to it may be activated in answer and
resolves first (ruling CH-3)."""

from __future__ import annotations

from .api import Card, Ctx, Effect, Link, Script, State, by_name, destroy_all, register, spells_traps_on_field


def _condition(s: State, card: Card, seat: int) -> bool:
    return bool(spells_traps_on_field(s, but=card.id))


def _resolve(ctx: Ctx, link: Link) -> None:
    destroy_all(ctx, spells_traps_on_field(ctx.s, but=link.card), by=link.card)


register(
    by_name("Heavy Storm").code,
    Script(effects=(Effect(kind="spell", speed=1, condition=_condition, resolve=_resolve),)),
)
