"""The Battle Step: declaring attacks, the attack declaration window, replays.

Seed 002 (Battle Step): the turn player declares an attack with 1 monster at a
target, or directly if the opponent controls no monsters (unless an effect
allows it). The attack declaration window opens with the turn player's
priority. Any number of chains may follow, but only the first answers the
declaration. If the attack target leaves the field or the number of monsters
the opponent controls changes, a replay occurs: the turn player chooses a new
target (possibly the same), attacks directly, or cancels; choosing again is
not declaring an attack, and even a cancelled attack counts as declared.
Seed 000: each monster attacks once per Battle Phase unless an effect says
otherwise. An attack whose monster leaves the field, changes control or stops
being face-up in Attack Position (Book of Moon, Enemy Controller) stops: no
damage calculation, but it was declared (ruling BS-4); so does one that an
effect applied after the declaration forbids (Gravity Bind, ruling BS-8).
"""

from __future__ import annotations

from ..ctx import Ctx
from ..effects.base import SCRIPTS
from ..facts import AttackDeclared, AttackEnded, AttackReplay, AttackRetargeted, Choice, Flag, Priority
from ..ops import raise_event
from ..state import Card, State
from ..stats import attack_forbidden, attack_restricted, can_attack, can_be_attacked, may_attack_directly, must_attack
from ..types import CardFlag, Phase, Position, Step, WireAction, Zone, other
from .start_step import may_enter


def attacks_allowed(s: State, c: Card) -> int:
    """Attacks a monster may declare in a Battle Phase: one (ruling BS-6; seed 000), one more when
    an effect granted it a second attack in a row in this Battle Phase (Black Luster Soldier,
    ``CardFlag.EXTRA_ATTACK``, ruling BS-30); Wildedge's "attack every monster" is ``attacks_all``."""
    return 2 if c.flags.get(CardFlag.EXTRA_ATTACK) == [s.turn, s.battle_phases] else 1


def attacks_all(c: Card) -> bool:
    """ "This card can attack every monster your opponent controls (one attack on each)" (Wildedge)."""
    sc = SCRIPTS.get(c.code)
    return sc is not None and sc.attack_all


def no_direct_attack(c: Card) -> bool:
    """ "This card cannot attack a player directly" (Zombyra the Dark)."""
    sc = SCRIPTS.get(c.code)
    return sc is not None and sc.no_direct_attack


def attacks_left(s: State, c: Card) -> int:
    """Attacks the monster's count still allows this Battle Phase (ruling BS-6)."""
    if c.zone != Zone.MONSTERS:
        return 0
    if attacks_all(c):
        done = set(c.flags.get(CardFlag.ATTACKED_TARGETS, []))
        left = [m for m in s.monsters(other(c.controller)) if m.id not in done]
        if c.attacks == 0:
            return max(1, len(left))
        return len(left) if c.flags.get(CardFlag.ATTACKED_TARGETS) else 0
    return max(0, attacks_allowed(s, c) - c.attacks)


def can_declare(s: State, c: Card) -> bool:
    return (
        c.zone == Zone.MONSTERS
        and c.controller == s.turn_player
        and c.face_up
        and c.position == Position.ATTACK
        and attacks_left(s, c) > 0
        and can_attack(s, c)
    )


def _battle_phase_ahead(s: State) -> bool:
    """This turn's Battle Phase is going on (before its End Step), or may still come."""
    if s.phase == Phase.BATTLE:
        return s.step != Step.END
    if s.phase in (Phase.DRAW, Phase.STANDBY):
        return s.turn > 1 and Phase.BATTLE not in s.skip
    return may_enter(s)


def attacks_remaining(s: State, c: Card) -> int:
    """Attacks ``c`` may still declare in this turn's (current or coming) Battle Phase: 0 when
    it cannot declare one for any reason (ruling BS-7): not its controller's turn, not face-up
    Attack Position, an effect forbids it (Swords of Revealing Light, Gravity Bind, "cannot
    declare an attack this turn"), no attack target and no direct attack, or no Battle Phase
    left this turn."""
    if not can_declare(s, c) or not _battle_phase_ahead(s):
        return 0
    targets, direct = targets_for(s, c)
    if not targets and not direct:
        return 0
    return attacks_left(s, c)


def targets_for(s: State, attacker: Card) -> tuple[list[int], bool]:
    """(monsters it may attack, whether it may attack directly)."""
    opp = other(attacker.controller)
    mons = s.monsters(opp)
    targets = [m.id for m in mons if can_be_attacked(s, m, attacker)]
    direct = (
        (not mons or may_attack_directly(s, attacker))
        and not attack_restricted(s, attacker)
        and not no_direct_attack(attacker)
    )
    if attacks_all(attacker) and attacker.attacks > 0:
        done = set(attacker.flags.get(CardFlag.ATTACKED_TARGETS, []))
        targets = [t for t in targets if t not in done]
        direct = False
    return targets, direct


def in_open_battle_step(s: State) -> bool:
    return (
        s.phase == Phase.BATTLE
        and s.step == Step.BATTLE
        and s.attack is None
        and not s.chain
        and (s.event is None or bool(s.event.get("soft")))
        and s.choice is None
    )


def attack_actions(s: State, seat: int) -> list[WireAction]:
    if seat != s.turn_player or s.priority != seat or not in_open_battle_step(s):
        return []
    out: list[WireAction] = []
    for c in s.monsters(seat):
        if not can_declare(s, c):
            continue
        targets, direct = targets_for(s, c)
        out.extend({"do": "attack", "with": c.id, "target": t} for t in targets)
        if direct:
            out.append({"do": "attack", "with": c.id, "direct": True})
    return out


def snapshot(s: State, seat: int) -> list[int]:
    return [m for m in s.players[seat].monsters if m is not None]


def declare(ctx: Ctx, attacker: Card, target: int | None) -> None:
    s = ctx.s
    opp = other(attacker.controller)
    for c in s.monsters(attacker.controller):
        if c.id != attacker.id and c.flags.get(CardFlag.EXTRA_ATTACK) == [s.turn, s.battle_phases]:
            # a second attack "in a row" is lost once another monster attacks first (ruling BS-30)
            ctx.emit(Flag(card=c.id, name=CardFlag.EXTRA_ATTACK, value=None))
    ctx.emit(
        AttackDeclared(
            seat=attacker.controller,
            attacker=attacker.id,
            code=attacker.code,
            target=target,
            target_code=None if target is None or not s.cards[target].face_up else s.cards[target].code,
            snapshot=snapshot(s, opp),
        )
    )
    raise_event(ctx, {"kind": "attack_declared", "attacker": attacker.id, "target": target})
    ctx.emit(Priority(seat=s.turn_player, passes=0))


def attacker_can_go_on(s: State, attacker: Card) -> bool:
    """Ruling BS-4: the attack goes on only while the attacker could still battle: on the
    field, controlled by the turn player, face-up in Attack Position (seed 003, Battle Step:
    play moves to the Damage Step "as long as the attack can continue"), and no effect that
    applied after the declaration says it "cannot attack" (Gravity Bind; ruling BS-8)."""
    return (
        attacker.zone == Zone.MONSTERS
        and attacker.controller == s.turn_player
        and attacker.face_up
        and attacker.position == Position.ATTACK
        and not attack_forbidden(s, attacker)
    )


def replay_needed(s: State) -> str | None:
    """None, "cancel" (the attacker can no longer attack: the attack stops, ruling BS-4) or
    "replay" (ruling BS-3)."""
    a = s.attack
    if a is None or a.replay:
        return None
    attacker = s.cards[a.attacker]
    if not attacker_can_go_on(s, attacker):
        return "cancel"
    opp = other(s.turn_player)
    if a.target is not None:
        t = s.cards[a.target]
        if t.zone != Zone.MONSTERS or t.controller != opp:
            return "replay"
    if snapshot(s, opp) != a.snapshot and sorted(snapshot(s, opp)) != sorted(a.snapshot):
        return "replay"
    return None


def replay_actions(s: State) -> list[WireAction]:
    a = s.attack
    if a is None:
        return []
    attacker = s.cards[a.attacker]
    out: list[WireAction] = []
    if attacker.zone == Zone.MONSTERS and attacker.position == Position.ATTACK and can_attack(s, attacker):
        targets, direct = targets_for(s, attacker)
        out.extend({"do": "retarget", "target": t} for t in targets)
        if direct:
            out.append({"do": "retarget", "direct": True})
    out.append({"do": "cancel_attack"})
    return out


def start_replay(ctx: Ctx) -> None:
    ctx.emit(AttackReplay())
    ctx.emit(Choice(choice={"seat": ctx.s.turn_player, "kind": "replay"}))


def retarget(ctx: Ctx, target: int | None) -> None:
    """Choosing again is not declaring an attack: no declaration triggers (ruling BS-3; seed 002)."""
    s = ctx.s
    ctx.emit(Choice(choice=None))
    ctx.emit(
        AttackRetargeted(
            target=target,
            target_code=None if target is None or not s.cards[target].face_up else s.cards[target].code,
            snapshot=snapshot(s, other(s.turn_player)),
        )
    )
    ctx.emit(Priority(seat=s.turn_player, passes=0))


def cancel(ctx: Ctx, reason: str = "cancelled") -> None:
    """The attack ends; it still counts as declared (ruling BS-3; seed 002)."""
    s = ctx.s
    if s.choice is not None:
        ctx.emit(Choice(choice=None))
    ctx.emit(AttackEnded(reason=reason))
    ctx.emit(Priority(seat=s.turn_player, passes=0))


def must_enter(s: State) -> bool:
    """A card forces a monster to attack this turn: the Battle Phase must be entered, even if
    another card prevents the attack (ruling BP-4; seed 000: Berserk Gorilla, Gravity Bind)."""
    return any(must_attack(s, c) for c in s.monsters(s.turn_player) if c.face_up)


def forced_attack_pending(s: State) -> bool:
    """A monster that must attack if able still can: the Battle Phase may not end yet."""
    for c in s.monsters(s.turn_player):
        if c.face_up and must_attack(s, c) and can_declare(s, c):
            targets, direct = targets_for(s, c)
            if targets or direct:
                return True
    return False
