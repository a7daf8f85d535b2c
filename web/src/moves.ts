// The moves through the turn (pass, next_phase, enter_battle_phase, end_battle_phase,
// end_turn, finish_turn): what each button says is where it takes the duel, as the server's
// view says (`view.moves`, PROTOCOL.md "The view": the engine works it out, the client never
// guesses), one button per destination; and the moves the page makes for the player (the
// "stop at" phases and "move on when it is all I can do").

import { PHASE_NAMES, STEP_NAMES } from "./actions";
import type { Action, View } from "./proto";

/** Every `do` that moves through the turn, in the order one is preferred when several go to the
 * same place (the one kept is the one whose words say most). */
export const MOVE_KINDS = ["finish_turn", "enter_battle_phase", "end_battle_phase", "next_phase", "end_turn", "pass"] as const;
const MOVES = new Set<string>(MOVE_KINDS);

/** Destinations in turn order: a button list reads from the nearest to the end of the turn. */
const ORDER = ["draw", "standby", "main1", "battle/start", "battle/battle", "battle/end", "main2", "end", "next_turn"];

export function isMove(a: Action): boolean {
  return MOVES.has(a.do);
}

/** Where `a` takes the duel (a destination of `view.moves`), or null when the view does not say
 * (not an open window, or an older server). */
export function destinationOf(view: View, a: Action): string | null {
  const d = view.moves?.[a.do];
  return typeof d === "string" ? d : null;
}

/** A destination in words: "Main Phase 1", "the End Step", ... */
export function destinationWords(dest: string): string {
  const [phase, step] = dest.split("/");
  if (phase === "battle" && step && step !== "start") return `the ${STEP_NAMES[step] ?? step}`;
  const name = PHASE_NAMES[phase ?? ""] ?? dest;
  return name.startsWith("Main") ? name : `the ${name}`;
}

/** The words of a move's button: what it sends and where the duel goes. */
export function moveLabel(view: View, a: Action, forOpponent = false): string | null {
  const dest = destinationOf(view, a);
  if (dest === null) return null;
  if (forOpponent) return dest === "next_turn" ? "Pass: the turn ends" : `Pass: on to ${destinationWords(dest)}`;
  if (a.do === "finish_turn" || dest === "next_turn") return "End the turn";
  switch (a.do) {
    case "enter_battle_phase":
      return "Enter the Battle Phase";
    case "end_battle_phase":
      return "End the Battle Phase (go to the End Step)";
    case "end_turn":
      if (dest === "battle/end") return "Go to the End Phase (through the End Step)";
      if (dest === "end" && view.phase === "main1") return "Go to the End Phase (skip the Battle Phase)";
      return `Go to ${destinationWords(dest)}`;
    default:
      return `Go to ${destinationWords(dest)}`;
  }
}

/** The moves to show as buttons: one per destination (the most telling of those that go there),
 * nearest first. Without `view.moves` every move is shown. */
export function shownMoves(view: View, legal: Action[]): Action[] {
  const moves = legal.filter(isMove);
  if (!view.moves) return moves;
  const byDest = new Map<string, Action>();
  for (const kind of MOVE_KINDS) {
    for (const a of moves) {
      if (a.do !== kind) continue;
      const d = destinationOf(view, a);
      if (d !== null && !byDest.has(d)) byDest.set(d, a);
    }
  }
  const rank = (d: string) => (ORDER.indexOf(d) < 0 ? ORDER.length : ORDER.indexOf(d));
  return [...byDest.entries()].sort((x, y) => rank(x[0]) - rank(y[0])).map(([, a]) => a);
}

/** In an open window where every legal action is a move and all of them (ending the turn
 * aside) go to one place: that move (the player can do nothing but move on). */
export function onlyMovingOn(view: View, legal: Action[]): Action | null {
  const choices = legal.filter((a) => a.do !== "concede");
  if (choices.length === 0 || !view.moves || !choices.every(isMove)) return null;
  const dests = new Set(choices.filter((a) => a.do !== "finish_turn").map((a) => destinationOf(view, a)));
  if (dests.size !== 1 || dests.has(null)) return choices.length === 1 && choices[0]?.do === "finish_turn" ? choices[0] : null;
  return shownMoves(view, choices.filter((a) => a.do !== "finish_turn"))[0] ?? null;
}

// ------------------------------------------------------------ where the page stops for the player

/** The open windows a player may choose not to be stopped at, on their own turn (where moving on
 * is all one usually does) and on the opponent's (where only responses are possible). Main
 * Phases and the Battle Step of one's own turn always stop: that is where one plays. */
export const OWN_STOPS = ["draw", "standby", "battle/start", "battle/end", "damage", "end"] as const;
export const THEIR_STOPS = ["draw", "standby", "main1", "battle", "damage", "main2", "end"] as const;
export const STOP_NAMES: Record<string, string> = {
  draw: "Draw Phase",
  standby: "Standby Phase",
  main1: "Main Phase 1",
  battle: "Battle Phase",
  "battle/start": "Start Step",
  "battle/end": "End Step",
  damage: "Damage Step",
  main2: "Main Phase 2",
  end: "End Phase",
};

export interface Stops {
  own: string[];
  theirs: string[];
}

const STOPS_KEY = "duel.stops";

/** A new player's stops: of their own turn, the Damage Step only (the page moves on through
 * their Draw and Standby Phases, the Start and End Steps and the End Phase); of the opponent's
 * turn, the Standby Phase, the Battle Phase, the Damage Step and the End Phase, where cards are
 * most often activated outside a chain (answers to a summon, an attack or a chain always stop). */
export function defaultStops(): Stops {
  return { own: ["damage"], theirs: ["standby", "battle", "damage", "end"] };
}

export function loadStops(): Stops {
  try {
    const s = JSON.parse(localStorage.getItem(STOPS_KEY) ?? "null") as Partial<Stops> | null;
    if (s && Array.isArray(s.own) && Array.isArray(s.theirs)) return { own: s.own.map(String), theirs: s.theirs.map(String) };
  } catch {
    // a broken setting: the defaults
  }
  return defaultStops();
}

export function saveStops(s: Stops): void {
  localStorage.setItem(STOPS_KEY, JSON.stringify(s));
}

/** The key of the window the view is in, as the stop settings name it (null: a window that
 * always stops: one's own Main Phases and Battle Step, and every answer to something). */
export function stopKey(view: View): string | null {
  const own = view.you === view.turn_player;
  if (view.damage_step) return view.chain.length === 0 ? "damage" : null;
  if (!view.moves) return null;
  if (view.phase === "battle") {
    if (!own) return "battle";
    return view.step === "start" || view.step === "end" ? `battle/${view.step}` : null;
  }
  if (own && (view.phase === "main1" || view.phase === "main2")) return null;
  return view.phase;
}

/** In an open window of a phase the player does not stop at: the move the page makes for them
 * (the nearest; the opponent's pass). The same whatever their cards are: nothing hidden decides
 * it, so the opponent learns nothing from it. */
export function stopMove(view: View, legal: Action[], stops: Stops, kind: string): Action | null {
  if (view.you === null || kind !== "priority") return null;
  const key = stopKey(view);
  if (key === null) return null;
  const own = view.you === view.turn_player;
  if ((own ? stops.own : stops.theirs).includes(key)) return null;
  if (own && key !== "damage") return shownMoves(view, legal)[0] ?? null;
  return legal.find((a) => a.do === "pass") ?? null;
}
