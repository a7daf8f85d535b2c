// The decks a player built, kept in this browser (localStorage, one key for all of them): each
// with its name, its format, its Main, Extra and Side Deck (passcodes, copies repeated, in the
// order they were added), and when it last changed. While the player is logged in, decksync.ts
// keeps them in step with the decks kept with the account (save_deck, list_decks): a deck it
// synced names its account (`owner`) and the server's time of its last save (`synced`); a change
// made here since is `dirty` until the account has it.

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
  /** The account it is kept with too (its name), once synced. */
  owner?: string;
  /** The server's `updated_ms` of the version this browser has. */
  synced?: number;
  /** Changed in this browser since the account last had it. */
  dirty?: boolean;
}

/** Who hears of a deck kept or deleted here (decksync.ts: the account). */
export const deckHooks: { saved: (deck: SavedDeck) => void; deleted: (deck: SavedDeck) => void } = {
  saved: () => undefined,
  deleted: () => undefined,
};

function codes(x: unknown): number[] | null {
  return Array.isArray(x) && x.length <= 1000 && x.every((c) => Number.isInteger(c) && c > 0) ? (x as number[]) : null;
}

/** A stored deck, or null when the stored value is not one (edited by hand, an older client). */
function asDeck(x: unknown): SavedDeck | null {
  if (typeof x !== "object" || x === null) return null;
  const o = x as Record<string, unknown>;
  const [main, extra, side] = [codes(o["main"]), codes(o["extra"]), codes(o["side"])];
  if (typeof o["id"] !== "string" || typeof o["name"] !== "string" || main === null || extra === null || side === null) return null;
  const deck: SavedDeck = { id: o["id"], name: o["name"], format: typeof o["format"] === "string" ? o["format"] : "current", main, extra, side, updated: Number(o["updated"]) || 0 };
  if (typeof o["owner"] === "string") deck.owner = o["owner"];
  if (typeof o["synced"] === "number") deck.synced = o["synced"];
  if (o["dirty"] === true) deck.dirty = true;
  return deck;
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
  const decks = loadDecks();
  const before = decks.find((d) => d.id === deck.id);
  const others = decks.filter((d) => d.id !== deck.id);
  // what the sync knows of it stays (the editor's copy may be older than the last sync)
  const kept: SavedDeck = { ...deck, updated: Date.now(), dirty: true };
  const owner = deck.owner ?? before?.owner;
  const synced = Math.max(deck.synced ?? 0, before?.synced ?? 0);
  if (owner !== undefined) kept.owner = owner;
  if (synced > 0) kept.synced = synced;
  const refused = store([kept, ...others]);
  if (refused === null) deckHooks.saved(kept);
  return refused;
}

export function deleteDeck(id: string): void {
  const decks = loadDecks();
  const gone = decks.find((d) => d.id === id);
  store(decks.filter((d) => d.id !== id));
  if (gone !== undefined) deckHooks.deleted(gone);
}

/** Keep these decks as they are (decksync.ts: what the account has), without telling the hooks. */
export function putDecks(decks: SavedDeck[]): void {
  store(decks.sort((a, b) => b.updated - a.updated));
}

export function newDeck(format: string, name = "", list: DeckList = { main: [], extra: [], side: [] }): SavedDeck {
  return { id: randomId(12), name, format, main: [...list.main], extra: [...list.extra], side: [...list.side], updated: 0 };
}
