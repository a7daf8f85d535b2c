"""Thousand-Eyes Restrict (Fusion Monster), its Goat text: ""Relinquished" + "Thousand-Eyes
Idol" / As long as this card remains face-up on the field, other monsters cannot change their
Battle Positions or attack. Select 1 monster on your opponent's side of the field and equip it
to this card (this effect can only be used once per turn and you can only equip 1 monster at a
time to this card). The ATK and DEF of this card become the same amounts as the monster
equipped to this card. If this card is destroyed as a result of battle, the equipped monster is
destroyed instead."

- While it is face-up on the field no other monster may attack (an attack declared before it
  applied stops, ruling BS-8) nor have its battle position changed by its controller: no change
  of position, no Flip Summon (``Script.no_position_change``); card effects may still change a
  position (Book of Moon).
- The equip effect is an Ignition effect (Spell Speed 1), once per turn. "Select" in a text of
  its era means a target (ruling SEL-1): 1 monster the opponent controls, face-up or face-down.
  It can be activated only while no monster is equipped to it by this effect and a Spell & Trap
  Zone is free (ruling GEN-4). As it resolves, if the target is still there and this card still
  face-up, the monster becomes a face-up Equip Card in its controller's Spell & Trap Zone
  (``ops.equip_monster``): a Spell Card with no monster effects (ruling EQ-1); its own Equip
  Cards are destroyed (EQ-2). When this card leaves the field, the equipped card is destroyed
  (EQ-2) and goes to its owner's Graveyard.
- Its ATK and DEF are the printed ATK and DEF of the monster equipped by this effect (0 with
  none).
- Destroyed by battle with a monster equipped, the equipped monster is destroyed instead (a
  replacement applied at damage calculation, ruling DS-7): this card stays on the field.
- Under the Goat format's priority rule its controller may equip right after its Summon, before
  the opponent responds (docs/formats.md)."""

from __future__ import annotations

from .api import (
    Card,
    Ctx,
    Effect,
    Link,
    Script,
    State,
    Zone,
    by_name,
    destroy,
    each,
    equip_monster,
    original,
    other,
    register,
    still_face_up,
    target_ok,
)


def equipped_monster(s: State, card: Card) -> Card | None:
    """The monster equipped to this card by its effect (a monster card in a Spell & Trap Zone)."""
    for e in s.equips_of(card):
        if e.data.is_monster and e.zone == Zone.SPELLS_TRAPS:
            return e
    return None


def _others_cannot(s: State, src: Card, monster: Card) -> bool:
    return monster.id == src.id


def _position_locked(s: State, src: Card, monster: Card) -> bool:
    return monster.id != src.id


def _stat(s: State, src: Card, c: Card) -> tuple[int, int]:
    if c.id != src.id:
        return (0, 0)
    eq = equipped_monster(s, src)
    if eq is None:
        return (0, 0)
    atk = max(eq.data.atk, 0) - original(s, src, "atk")
    def_ = max(eq.data.def_, 0) - original(s, src, "def")
    return (atk, def_)


def _condition(s: State, card: Card, seat: int) -> bool:
    return equipped_monster(s, card) is None and None in s.players[seat].spells_traps


def _targets(s: State, card: Card, seat: int) -> list[list[int]]:
    return each(s.monsters(other(seat)))


def _resolve(ctx: Ctx, link: Link) -> None:
    s = ctx.s
    me = s.cards[link.card]
    if not still_face_up(me) or equipped_monster(s, me) is not None:
        return
    for t in link.targets:
        target = s.cards[t]
        if target_ok(s, t) and target.controller != me.controller:
            equip_monster(ctx, target, me)


def _instead(ctx: Ctx, card: Card) -> bool:
    eq = equipped_monster(ctx.s, card)
    if eq is None or not eq.on_field:
        return False
    destroy(ctx, eq, by=card.id)
    return True


register(
    by_name("Thousand-Eyes Restrict").code,
    Script(
        effects=(
            Effect(
                kind="ignition",
                speed=1,
                once_per="turn",
                condition=_condition,
                targets=_targets,
                resolve=_resolve,
                label="equip a monster your opponent controls",
            ),
        ),
        stat=_stat,
        can_attack=_others_cannot,
        stops_attacks=True,
        no_position_change=_position_locked,
        replace_battle_destruction=_instead,
    ),
)
