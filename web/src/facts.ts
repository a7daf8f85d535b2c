// Generated from engine/facts.py by engine/factdoc.py: do not edit. Regenerate with
//   .venv/bin/python -m engine.factdoc --write
// (it writes PROTOCOL.md's fact table too); tests/protocol/test_factdoc.py fails while this
// file differs.
//
// One interface per fact type a client can receive (update.facts; replay entries but those of
// viewpoint "all"), with the keys engine/redaction.py sends it (`?`: not always there); card ids
// are the receiver's aliases (Id). `Fact` is their union, discriminated by `t`.

import type { Id } from "./proto";

/**
 * entry 1: who goes first, starting LP, Deck sizes
 */
export interface DuelStartedFact {
  t: "duel_started";
  first: number;
  lp: number;
  options: Record<string, unknown>;
  deck_counts: number[];
  extra_counts: number[];
}

/**
 * a puzzle's position: each card `{id?, code?, hidden?, owner, controller, zone, slot, face_up,
 * position, counters, set_turn, summoned_turn, equipped_to?, materials?}` as the receiver may see
 * it
 */
export interface SetupFact {
  t: "setup";
  turn: number;
  turn_player: number;
  phase: string;
  step: string | null;
  lp: number[];
  options: Record<string, unknown>;
  battle_phases: number;
  cards: Record<string, unknown>[];
}

/**
 * a turn begins
 */
export interface TurnFact {
  t: "turn";
  turn: number;
  player: number;
}

/**
 * a phase or Battle Phase step begins (`reason`: the card effect that moved it, if any)
 */
export interface PhaseBeganFact {
  t: "phase";
  phase: string;
  step?: string;
  turn_player?: number;
  reason?: string;
}

/**
 * a Damage Step timing begins
 */
export interface DamageStepFact {
  t: "damage_step";
  timing: string;
}

/**
 * a phase will be (now: is) skipped
 */
export interface SkipPhaseFact {
  t: "skip_phase";
  phase: string;
  now?: boolean;
}

/**
 * more Battle Phases are granted this turn
 */
export interface ExtraBattlePhaseFact {
  t: "extra_battle_phase";
  count: number;
}

/**
 * a seat gets priority (`intent`: where the turn player's passes now take the turn: `end` or
 * `finish` carried into a new phase or step; nil: a chain resolved while the turn player was
 * ending the turn, and the decision is its own again)
 */
export interface PriorityFact {
  t: "priority";
  seat: number;
  passes: number;
  intent?: string | null;
}

/**
 * a seat passed (`intent`: `battle`, `end`, `next` when it moves the turn on, `finish` when it
 * ends the turn; `auto`: passed by the rules because it had nothing to activate, or because it is
 * ending the turn)
 */
export interface PassedFact {
  t: "passed";
  seat: number;
  intent?: string;
  auto?: boolean;
}

/**
 * a draw (card and code only for the drawing seat)
 */
export interface DrewFact {
  t: "drew";
  seat: number;
  card?: Id;
  code?: number;
}

/**
 * a Deck was shuffled
 */
export interface ShuffledFact {
  t: "shuffled";
  seat: number;
}

/**
 * a card changed place (`reason`: `tribute`, `discard`, `cost`, `detach`, `battle`, `effect`,
 * `rule`, `control`, `return`, `equip`, `fusion`, ...)
 */
export interface MovedFact {
  t: "moved";
  card?: Id;
  to: string;
  from?: string;
  controller?: number;
  position?: string;
  top?: boolean;
  reason?: string;
  face_up?: boolean;
  slot?: number;
  code?: number;
}

/**
 * `kind`: `normal`, `tribute`, `set`, `flip`, `special`, `fusion`
 */
export interface SummonedFact {
  t: "summoned";
  seat: number;
  card: Id | null;
  kind: string;
  code?: number;
  procedure?: boolean;
}

/**
 * a monster's battle position changed (`by_player`: false when an effect changed it)
 */
export interface PositionChangedFact {
  t: "position_changed";
  card?: Id;
  code?: number | null;
  position: string;
  face_up: boolean;
  by_player?: boolean;
}

/**
 * a face-down monster turned face-up
 */
export interface FlippedFact {
  t: "flipped";
  card?: Id;
  code?: number;
  position: string;
  by_attack?: boolean;
}

/**
 * a Token is Special Summoned: made face-up in a Monster Zone of `seat` (`summoner`: the player
 * who Summons it)
 */
export interface TokenMadeFact {
  t: "token_made";
  card?: Id;
  code?: number;
  seat: number;
  summoner: number;
  position: string;
  slot?: number;
}

/**
 * a Token that left the field ceases to exist
 */
export interface TokenGoneFact {
  t: "token_gone";
  card?: Id;
}

/**
 * a card or effect was activated as chain link `link`; `data`: `{cost, choose}` chosen at
 * activation
 */
export interface ActivatedFact {
  t: "activated";
  seat: number;
  card: Id;
  code: number;
  effect: number;
  link: number;
  trigger?: boolean;
  targets: Id[];
  data?: { cost?: Id[]; choose?: unknown[] };
}

/**
 * `card` becomes one more target of chain link `link` (a text that targets "up to" several cards:
 * its player picks them one at a time as it is activated)
 */
export interface TargetedFact {
  t: "targeted";
  link: number;
  card: Id | null;
  code?: number;
}

/**
 * a trigger effect is waiting to be activated (sent only to viewers who know the card)
 */
export interface TriggeredFact {
  t: "triggered";
  card: Id;
  code: number;
  effect: number;
  seat: number;
  mandatory: boolean;
}

/**
 * `what`: `activation` or `effect` of chain link `link`, or `summon` (`link` 0: the Summon of
 * `card`)
 */
export interface NegatedFact {
  t: "negated";
  link: number;
  what: string;
  card: Id | null;
  code: number;
}

/**
 * the chain starts to resolve
 */
export interface ChainResolvingFact {
  t: "chain_resolving";
}

/**
 * a link starts to resolve
 */
export interface LinkResolvingFact {
  t: "link_resolving";
  link: number;
}

/**
 * a link finished resolving
 */
export interface LinkResolvedFact {
  t: "link_resolved";
  link: number;
}

/**
 * the whole chain has resolved
 */
export interface ChainResolvedFact {
  t: "chain_resolved";
}

/**
 * a record: `no_effect` (a link resolved without effect), `excavated` (a card shown to both
 * players), `die_roll` and `coin_toss` (`result`), `effects_negated` (a card's effects are
 * negated), `random_discard` (a card picked at random from `seat`'s hand, discarded next)
 */
export interface NoteFact {
  t: "note";
  what: string;
  link?: number;
  card: Id | null;
  code: number;
  seat?: number;
  result?: unknown;
}

/**
 * cards of `seat`'s hand or Deck shown to `shown_to` (nil: to both players, so to everyone): the
 * others get only their `count`
 */
export interface RevealedFact {
  t: "revealed";
  seat: number;
  shown_to: number | null;
  count: unknown;
  cards?: number[];
  codes?: number[];
}

/**
 * `target` nil: a direct attack
 */
export interface AttackDeclaredFact {
  t: "attack_declared";
  seat: number;
  attacker: Id | null;
  code?: number;
  target: Id | null;
  target_code?: number;
}

/**
 * the attacker must choose again (a replay)
 */
export interface AttackReplayFact {
  t: "attack_replay";
}

/**
 * the new target after a replay (nil: direct)
 */
export interface AttackRetargetedFact {
  t: "attack_retargeted";
  target: Id | null;
  target_code?: number;
}

/**
 * `damage_step_over`, `cancelled`, `negated`, `attacker_cannot_attack`, or the card that ended the
 * Battle Phase
 */
export interface AttackEndedFact {
  t: "attack_ended";
  reason: string;
}

/**
 * damage calculation does not happen
 */
export interface BattleStoppedFact {
  t: "battle_stopped";
  reason: string;
}

/**
 * damage calculation: `target_def` when the target was in Defense Position; `destroyed` (ids)
 * destroyed by this battle; `damage` per seat
 */
export interface BattleFact {
  t: "battle";
  attacker: Id | null;
  attacker_atk: number;
  target: Id | null;
  target_atk?: number;
  target_def?: number;
  destroyed: Id[];
  damage: number[];
}

/**
 * Life Points changed (`reason`: `battle`, `effect`, `cost`)
 */
export interface LifePointsFact {
  t: "lp";
  seat: number;
  lp: number;
  delta: number;
  reason: string;
}

/**
 * a card is destroyed (`by`: the card that destroyed it); its move to the Graveyard follows
 */
export interface DestroyedFact {
  t: "destroyed";
  card: Id | null;
  code?: number;
  reason: string;
  by: Id | null;
}

/**
 * a lasting change: `op` `add` (ATK/DEF +value), `set`, `set_original`, `half_original`, or `flag`
 * (a rule effect named by `stat`, e.g. `no_battle_damage` for seat `value`; `card` -1); `until`:
 * `damage_calculation`, `end_of_damage_step`, `end_of_battle_phase`, `end_phase`, `turn`,
 * `while_face_up`, `permanent`
 */
export interface ModifierFact {
  t: "modifier";
  card: Id | null;
  stat: string;
  op: string;
  value: number;
  until: string;
  source: Id | null;
}

/**
 * the changes lasting until these ends are gone
 */
export interface ModifiersExpiredFact {
  t: "modifiers_expired";
  until: string[];
}

/**
 * a card's counters of one kind are now `count`
 */
export interface CountersFact {
  t: "counters";
  card: Id | null;
  name: string;
  count: number;
}

/**
 * `to` nil: unequipped
 */
export interface EquippedFact {
  t: "equipped";
  card: Id | null;
  to: Id | null;
}

/**
 * see `end_reason`
 */
export interface DuelEndedFact {
  t: "duel_ended";
  winner: number | string;
  reason: string;
}

export type Fact =
  | DuelStartedFact
  | SetupFact
  | TurnFact
  | PhaseBeganFact
  | DamageStepFact
  | SkipPhaseFact
  | ExtraBattlePhaseFact
  | PriorityFact
  | PassedFact
  | DrewFact
  | ShuffledFact
  | MovedFact
  | SummonedFact
  | PositionChangedFact
  | FlippedFact
  | TokenMadeFact
  | TokenGoneFact
  | ActivatedFact
  | TargetedFact
  | TriggeredFact
  | NegatedFact
  | ChainResolvingFact
  | LinkResolvingFact
  | LinkResolvedFact
  | ChainResolvedFact
  | NoteFact
  | RevealedFact
  | AttackDeclaredFact
  | AttackReplayFact
  | AttackRetargetedFact
  | AttackEndedFact
  | BattleStoppedFact
  | BattleFact
  | LifePointsFact
  | DestroyedFact
  | ModifierFact
  | ModifiersExpiredFact
  | CountersFact
  | EquippedFact
  | DuelEndedFact;
