"""Royal Decree (Continuous Trap): "Negate all other Trap Card effects on the field." (card text;
ruling GEN-1).

While it is face-up on the field, once its activation has resolved (ruling CH-7), the effects of
every other Trap Card on the field are negated as they resolve or apply (ruling CH-8: a Trap's
activation is not negated, its effect is; a face-up Continuous Trap stops applying). Trap Cards
may still be activated. Two Royal Decrees negate each other (ruling CARD-3)."""

from __future__ import annotations

from .api import Card, Effect, Script, State, by_name, register


def _negates(s: State, src: Card, card: Card) -> bool:
    return card.data.is_trap and card.on_field and card.id != src.id


register(
    by_name("Royal Decree").code,
    Script(effects=(Effect(kind="trap", speed=2),), negates=_negates),
)
