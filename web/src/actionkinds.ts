// Generated from engine/actions.py by engine/actiondoc.py: do not edit. Regenerate with
//   .venv/bin/python -m engine.actiondoc --write
// (it writes PROTOCOL.md's action table too); tests/protocol/test_actiondoc.py fails while this
// file differs.
//
// The actions a client may send (update.legal lists them fully specified: send one back as it
// is): one interface per action with the keys it takes (`?`: not always there); card ids are
// the sender's aliases (Id). `ActionKind` is every `do`; `TypedAction` their union.

import type { Id } from "./proto";

export type ActionKind =
  | "pass"
  | "summon"
  | "set"
  | "flip_summon"
  | "change_position"
  | "activate"
  | "attack"
  | "retarget"
  | "cancel_attack"
  | "choose"
  | "enter_battle_phase"
  | "end_battle_phase"
  | "next_phase"
  | "end_turn"
  | "finish_turn"
  | "concede";

export const ACTION_KINDS: readonly ActionKind[] = [
  "pass",
  "summon",
  "set",
  "flip_summon",
  "change_position",
  "activate",
  "attack",
  "retarget",
  "cancel_attack",
  "choose",
  "enter_battle_phase",
  "end_battle_phase",
  "next_phase",
  "end_turn",
  "finish_turn",
  "concede",
];

/**
 * pass priority, decline, or agree to move on
 */
export interface PassAction {
  do: "pass";
}

/**
 * Normal/Tribute Summon (`card`, `tribute`?); or a Special Summon by the card's own procedure
 * (`card`, `cost`: what it banishes or sends, `procedure`: true, `position`)
 */
export interface SummonAction {
  do: "summon";
  card: Id;
  tribute?: Id[];
  cost?: Id[];
  procedure?: boolean;
  position?: string;
}

/**
 * Set a monster (face-down Defense Position, `tribute`? as for a Summon) or a Spell/Trap
 */
export interface SetCardAction {
  do: "set";
  card: Id;
  tribute?: Id[];
}

/**
 * Flip Summon a face-down monster
 */
export interface FlipSummonAction {
  do: "flip_summon";
  card: Id;
}

/**
 * change a monster's battle position
 */
export interface ChangePositionAction {
  do: "change_position";
  card: Id;
}

/**
 * activate a card or an effect: `effect` is 1-based (default 1), `target` ids, `cost` ids (cards
 * discarded, Tributed, banished), `choose` ids or strings chosen at activation
 */
export interface ActivateAction {
  do: "activate";
  card: Id;
  effect?: number;
  target?: Id[];
  cost?: Id[];
  choose?: (Id | string)[];
}

/**
 * declare an attack `with` a monster on `target`, or `direct` (true)
 */
export interface AttackAction {
  do: "attack";
  with: Id;
  target?: Id;
  direct?: boolean;
}

/**
 * after a replay: attack `target`, or `direct` (true)
 */
export interface RetargetAction {
  do: "retarget";
  target?: Id;
  direct?: boolean;
}

/**
 * after a replay: give up the attack (it still counts as declared)
 */
export interface CancelAttackAction {
  do: "cancel_attack";
}

/**
 * answer a `cards`, `options`, `trigger` (order) or `discard` decision: `cards` (ids) or `option`
 * (a string)
 */
export interface ChooseAction {
  do: "choose";
  cards?: Id[];
  option?: string;
}

/**
 * move through the turn: to the Battle Phase
 */
export interface EnterBattlePhaseAction {
  do: "enter_battle_phase";
}

/**
 * move through the turn: from the Battle Step to the End Step
 */
export interface EndBattlePhaseAction {
  do: "end_battle_phase";
}

/**
 * move through the turn: to the next phase or step
 */
export interface NextPhaseAction {
  do: "next_phase";
}

/**
 * move through the turn: to the End Phase (from Main Phase 1 or 2; from the Battle Step, through
 * the End Step); in the Draw and Standby Phases it moves one phase on, as `next_phase` does
 * (`finish_turn` ends the turn)
 */
export interface EndTurnAction {
  do: "end_turn";
}

/**
 * end the turn in one action: the turn player passes in each window of this turn left to it (the
 * opponent is still asked in each) until the next turn begins; once a chain has resolved
 * meanwhile, the decision is the turn player's again
 */
export interface FinishTurnAction {
  do: "finish_turn";
}

/**
 * give up; legal for either seat at any time while the duel runs (never listed in `legal`; send
 * `{"do": "concede"}`; see section 5)
 */
export interface ConcedeAction {
  do: "concede";
}

export type TypedAction =
  | PassAction
  | SummonAction
  | SetCardAction
  | FlipSummonAction
  | ChangePositionAction
  | ActivateAction
  | AttackAction
  | RetargetAction
  | CancelAttackAction
  | ChooseAction
  | EnterBattlePhaseAction
  | EndBattlePhaseAction
  | NextPhaseAction
  | EndTurnAction
  | FinishTurnAction
  | ConcedeAction;
