// The decks a player built, kept in this browser (localStorage, one key for all of them): each
// with its name, its format, its Main, Extra and Side Deck (passcodes, copies repeated, in the
// order they were added), and when it last changed. Nothing of it goes to the server until the
// player plays one (its Main and Extra Deck, as a match's deck).

import { randomId } from "./proto";
import type { DeckList } from "./ydk";

const KEY = "duel.decks";
/** The most decks kept (a list of 60 + 15 + 15 passcodes is about 1 KiB). */
export const MAX_DECKS = 200;

export interface SavedDeck extends DeckList {
  id: string;
  name: string;
  format: string;
  updated: number;
}

function codes(x: unknown): number[] | null {
  return Array.isArray(x) && x.length <= 1000 && x.every((c) => Number.isInteger(c) && c > 0) ? (x as number[]) : null;
}

/** A stored deck, or null when the stored value is not one (edited by hand, an older client). */
function asDeck(x: unknown): SavedDeck | null {
  if (typeof x !== "object" || x === null) return null;
  const o = x as Record<string, unknown>;
  const [main, extra, side] = [codes(o["main"]), codes(o["extra"]), codes(o["side"])];
  if (typeof o["id"] !== "string" || typeof o["name"] !== "string" || main === null || extra === null || side === null) return null;
  return { id: o["id"], name: o["name"], format: typeof o["format"] === "string" ? o["format"] : "current", main, extra, side, updated: Number(o["updated"]) || 0 };
}

/** Every deck kept in this browser, the last changed first. */
export function loadDecks(): SavedDeck[] {
  let raw: unknown;
  try {
    raw = JSON.parse(localStorage.getItem(KEY) ?? "[]");
  } catch {
    raw = [];
  }
  const decks = Array.isArray(raw) ? raw.map(asDeck).filter((d): d is SavedDeck => d !== null) : [];
  return decks.sort((a, b) => b.updated - a.updated);
}

export function getDeck(id: string): SavedDeck | null {
  return loadDecks().find((d) => d.id === id) ?? null;
}

function store(decks: SavedDeck[]): string | null {
  try {
    localStorage.setItem(KEY, JSON.stringify(decks.slice(0, MAX_DECKS)));
    return null;
  } catch {
    return "this browser refused to keep the deck (its storage is full or turned off)";
  }
}

/** Keep `deck` (a new one, or a new version of one kept); an error in words, or null. */
export function saveDeck(deck: SavedDeck): string | null {
  const others = loadDecks().filter((d) => d.id !== deck.id);
  return store([{ ...deck, updated: Date.now() }, ...others]);
}

export function deleteDeck(id: string): void {
  store(loadDecks().filter((d) => d.id !== id));
}

export function newDeck(format: string, name = "", list: DeckList = { main: [], extra: [], side: [] }): SavedDeck {
  return { id: randomId(12), name, format, main: [...list.main], extra: [...list.extra], side: [...list.side], updated: 0 };
}
