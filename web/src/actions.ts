// The legal actions, in plain words, and which card each one belongs to.
// The client only ever sends an action from `legal`, verbatim.

import type { Catalogue } from "./cards";
import { moveLabel } from "./moves";
import type { Action, CardView, Id, View } from "./proto";

export const SEATS = ["A", "B"];

export const PHASE_NAMES: Record<string, string> = {
  draw: "Draw Phase",
  standby: "Standby Phase",
  main1: "Main Phase 1",
  battle: "Battle Phase",
  main2: "Main Phase 2",
  end: "End Phase",
};
export const STEP_NAMES: Record<string, string> = {
  start: "Start Step",
  battle: "Battle Step",
  damage: "Damage Step",
  end: "End Step",
};
export const TIMING_NAMES: Record<string, string> = {
  start_of_damage_step: "start of the Damage Step",
  before_damage_calculation: "before damage calculation",
  during_damage_calculation: "during damage calculation",
  after_damage_calculation: "after damage calculation",
  end_of_damage_step: "end of the Damage Step",
};
export const END_REASONS: Record<string, string> = {
  lp: "Life Points reached 0",
  deck_out: "a player had to draw from an empty Deck",
  concede: "a player conceded",
  timeout: "a player ran out of time",
};
const ZONE_NAMES: Record<string, string> = {
  hand: "hand",
  monsters: "Monster Zone",
  spells_traps: "Spell & Trap Zone",
  field: "Field Zone",
  graveyard: "Graveyard",
  banished: "banished",
  deck: "Deck",
  extra: "Extra Deck",
};

export function key(id: unknown): string {
  return String(id);
}

const byIdCache = new WeakMap<View, Map<string, CardView>>();

/** Every card the view shows, by id (made once per view: views are never changed). */
export function cardsById(view: View): Map<string, CardView> {
  const cached = byIdCache.get(view);
  if (cached !== undefined) return cached;
  const out = new Map<string, CardView>();
  byIdCache.set(view, out);
  for (const p of view.players) {
    const zones: (CardView | null)[][] = [p.hand, p.monsters, p.spells_traps, p.graveyard, p.banished, [p.field]];
    for (const zone of zones) {
      for (const c of zone) if (c && c.id !== undefined) out.set(key(c.id), c);
    }
  }
  return out;
}

export function cardLabel(view: View, cat: Catalogue, id: unknown): string {
  const c = cardsById(view).get(key(id));
  if (c === undefined) return "a card";
  const owner = view.you === null ? `${SEATS[c.controller]}'s ` : c.controller === view.you ? "your " : "the opponent's ";
  if (c.hidden || c.code === undefined) {
    const where = ZONE_NAMES[c.zone] ?? c.zone;
    const slot = c.slot !== undefined ? ` ${c.slot + 1}` : "";
    return `${owner}face-down card (${where}${slot})`;
  }
  const name = c.name ?? cat.name(c.code) ?? "a card";
  const dup = sameName(view, c);
  if (dup && c.zone === "monsters" && c.slot !== undefined) return `${owner}${name} (zone ${c.slot + 1})`;
  if (dup && c.zone !== "hand") return `${owner}${name} (${ZONE_NAMES[c.zone] ?? c.zone})`;
  return c.controller === view.you || view.you === null ? name : `${owner}${name}`;
}

function sameName(view: View, c: CardView): boolean {
  let n = 0;
  for (const other of cardsById(view).values()) if (other.code === c.code && other.controller === c.controller) n++;
  return n > 1;
}

/** The card an action is about (the one to click), if any. */
export function actionCard(a: Action): string | null {
  if (a.do === "attack" && a["with"] !== undefined) return key(a["with"]);
  if (a["card"] !== undefined && a.do !== "choose") return key(a["card"]);
  return null;
}

function ids(v: unknown): Id[] {
  if (Array.isArray(v)) return v as Id[];
  if (v === undefined || v === null) return [];
  return [v as Id];
}

/** One line for a legal action ("Normal Summon", "Attack Blue-Eyes White Dragon"). */
export function describeAction(view: View, cat: Catalogue, a: Action, withCard = true): string {
  const name = (id: unknown) => cardLabel(view, cat, id);
  const card = withCard && a["card"] !== undefined ? ` ${name(a["card"])}` : "";
  const extras: string[] = [];
  const tributes = ids(a["tribute"]);
  if (tributes.length) extras.push(`Tributing ${tributes.map(name).join(" and ")}`);
  const targets = ids(a["target"]);
  const costs = ids(a["cost"]);
  if (costs.length) extras.push(`paying with ${costs.map(name).join(", ")}`);
  const choose = Array.isArray(a["choose"]) ? (a["choose"] as unknown[]) : [];
  if (choose.length) extras.push(`choosing ${choose.map((x) => (cardsById(view).has(key(x)) ? name(x) : String(x))).join(", ")}`);
  const tail = extras.length ? ` (${extras.join("; ")})` : "";
  switch (a.do) {
    case "pass":
      return "Pass";
    case "summon":
      return `Normal Summon${card}${tail}`;
    case "set":
      return `Set${card}${tail}`;
    case "flip_summon":
      return `Flip Summon${card}`;
    case "change_position":
      return `Change the battle position of${card || " this card"}`;
    case "activate": {
      const effect = a["effect"] !== undefined && a["effect"] !== 1 ? ` (effect ${String(a["effect"])})` : "";
      const tgt = targets.length ? `, targeting ${targets.map(name).join(" and ")}` : "";
      return `Activate${card}${effect}${tgt}${tail}`;
    }
    case "attack": {
      const attacker = withCard ? `${name(a["with"])} attacks ` : "Attack ";
      return a["direct"] ? `${attacker}directly` : `${attacker}${name(a["target"])}`;
    }
    case "retarget":
      return a["direct"] ? "Replay: attack directly" : `Replay: attack ${name(a["target"])} instead`;
    case "cancel_attack":
      return "Replay: cancel the attack";
    case "choose":
      if (a["option"] !== undefined) return `Choose: ${String(a["option"])}`;
      return `Choose ${ids(a["cards"]).map(name).join(", ")}`;
    case "enter_battle_phase":
      return "Enter the Battle Phase";
    case "end_battle_phase":
      return "End the Battle Phase (go to the End Step)";
    case "next_phase":
      return moveLabel(view, a) ?? nextPhaseLabel(view);
    case "end_turn":
      return moveLabel(view, a) ?? "Go to the End Phase";
    case "finish_turn":
      return "End the turn";
    case "concede":
      return "Concede the duel";
    default: {
      // every ActionKind (actionkinds.ts, generated from engine/actions.py) has its words above:
      // tsc fails here when one is missing
      const unlabelled: never = a.do;
      return `${String(unlabelled).replaceAll("_", " ")}${card}${tail}`;
    }
  }
}

/** A view without `moves` (a replay recorded before them): the next phase or step, by the turn's
 * order (Main Phase 1 leads to the Battle Phase when it may be entered, the End Step to Main Phase 2). */
function nextPhaseLabel(view: View): string {
  if (view.phase === "battle") {
    const next: Record<string, string> = { start: "Battle Step", battle: "End Step", end: "Main Phase 2" };
    return `Go to the ${next[view.step ?? ""] ?? "next step"}`;
  }
  const order = ["draw", "standby", "main1", "battle", "main2", "end"];
  const next = order[order.indexOf(view.phase) + 1];
  return next ? `Go to the ${PHASE_NAMES[next] ?? next}` : "End the turn";
}

/** Where the duel stands, in words ("Battle Phase, Damage Step, during damage calculation"). */
export function whereWords(view: View): string {
  let s = PHASE_NAMES[view.phase] ?? view.phase;
  if (view.phase === "battle" && view.step) s += `, ${STEP_NAMES[view.step] ?? view.step}`;
  if (view.damage_step) s += `, ${TIMING_NAMES[view.damage_step] ?? view.damage_step}`;
  return s;
}

/** The label of the pass button: it names the window being passed. */
export function passLabel(view: View, cat: Catalogue, promptText: string, kind: string): string {
  if (kind === "trigger") return "Do not activate the effect";
  if (kind === "ahead") return "Pass: activate nothing now";
  if (kind !== "priority") return "Pass: decline";
  const move = view.moves?.["pass"] !== undefined ? moveLabel(view, { do: "pass" }, view.you !== view.turn_player) : null;
  if (move !== null) return move; // an open window: where the pass takes the turn
  const top = view.chain[view.chain.length - 1];
  if (top !== undefined) {
    const nm = top.code !== undefined ? (cat.name(top.code) ?? "a card") : cardLabel(view, cat, top.card);
    return `Pass: let chain link ${top.link} (${nm}) resolve`;
  }
  const m = /respond to (.+?)(, or pass|$)/.exec(promptText);
  if (m?.[1]) return `Pass: do not respond to ${m[1]}`;
  if (view.damage_step) return `Pass (${TIMING_NAMES[view.damage_step] ?? view.damage_step})`;
  return `Pass (${whereWords(view)})`;
}

/** Where a card is, as the viewer may say it ("your hand", "B's Monster Zone 2"). */
export function cardWhere(view: View, c: CardView): string {
  const owner = view.you === null ? `${SEATS[c.controller] ?? "?"}'s` : c.controller === view.you ? "your" : "the opponent's";
  const zone = ZONE_NAMES[c.zone] ?? c.zone;
  const slot = c.slot !== undefined && (c.zone === "monsters" || c.zone === "spells_traps") ? ` ${c.slot + 1}` : "";
  return c.zone === "banished" ? `${owner} banished cards` : `${owner} ${zone}${slot}`;
}
