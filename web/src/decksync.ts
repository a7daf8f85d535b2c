// The decks of the deck editor (deckstore.ts, in this browser) kept in step with the decks kept
// with the account (PROTOCOL.md section 4a: `list_decks`, `save_deck`, `delete_deck`), while the
// player is logged in.
//
// When a connection logs in, the account's decks are listed and merged with this browser's:
// * a deck changed here since its last sync (`dirty`), or never synced, is saved to the account;
// * otherwise the account's version replaces this browser's if it is newer (saved elsewhere);
// * a deck synced with the account before and no longer kept by it (deleted elsewhere) goes;
// * a deck deleted here while not logged in is deleted from the account (a tombstone remembers it).
// Afterwards each change made in the editor is saved to the account a moment later, and a deck
// deleted in the editor is deleted from it. Logging out removes the account's decks from this
// browser (they stay with the account). The server keeps a deck as one list (Main and Extra Deck)
// and a Side Deck: the Extra Deck is told apart by the card catalogue (splitDeck).

import type { App } from "./app";
import { splitDeck } from "./deckrules";
import { deckHooks, loadDecks, putDecks, type SavedDeck } from "./deckstore";
import type { ServerMessage } from "./proto";

const TOMBS_KEY = "duel.decks.deleted";
const PUSH_AFTER_MS = 700;

interface ServerDeck {
  deck_id: string;
  name: string;
  format: string;
  deck: number[];
  side: number[];
  updated_ms: number;
}

function asServerDeck(x: unknown): ServerDeck | null {
  if (typeof x !== "object" || x === null) return null;
  const o = x as Record<string, unknown>;
  const codes = (v: unknown) => (Array.isArray(v) && v.every((c) => Number.isInteger(c)) ? (v as number[]) : null);
  const [deck, side] = [codes(o["deck"]), codes(o["side"])];
  if (typeof o["deck_id"] !== "string" || typeof o["name"] !== "string" || typeof o["format"] !== "string" || deck === null || side === null) return null;
  return { deck_id: o["deck_id"], name: o["name"], format: o["format"], deck, side, updated_ms: Number(o["updated_ms"]) || 0 };
}

function tombs(): string[] {
  try {
    const raw = JSON.parse(localStorage.getItem(TOMBS_KEY) ?? "[]") as unknown;
    return Array.isArray(raw) ? raw.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
}

function setTombs(ids: string[]): void {
  if (ids.length) localStorage.setItem(TOMBS_KEY, JSON.stringify(ids.slice(-500)));
  else localStorage.removeItem(TOMBS_KEY);
}

export class DeckSync {
  /** The account this browser syncs with (logged in on this connection), or null. */
  private account: string | null = null;
  /** What the last sync said, for the editor ("3 decks kept with your account"). */
  status: string | null = null;
  /** The account's list, waiting for the card catalogue (to tell the Extra Deck apart). */
  private shelf: ServerDeck[] | null = null;
  private timers = new Map<string, number>();
  /** The saves sent, in order (an error answers the first). */
  private saving: string[] = [];

  constructor(private readonly app: App) {
    deckHooks.saved = (deck) => this.changed(deck);
    deckHooks.deleted = (deck) => this.deleted(deck);
  }

  loggedIn(name: string): void {
    this.account = name;
    this.saving = [];
    // where decks are chosen or edited (a duel or a replay does without)
    if (this.app.screen === "lobby" || this.app.screen === "decks" || this.app.screen === "account") this.app.account.ask({ type: "list_decks" }, "list_decks");
  }

  loggedOut(name: string): void {
    this.account = null;
    this.shelf = null;
    for (const t of this.timers.values()) window.clearTimeout(t);
    this.timers.clear();
    putDecks(loadDecks().filter((d) => d.owner !== name));
    setTombs([]);
    this.status = null;
  }

  /** The catalogue arrived: a list that waited for it is merged now. */
  catalogueLoaded(): void {
    if (this.shelf !== null) this.merge(this.shelf);
  }

  onMessage(msg: ServerMessage): void {
    if (msg.type === "decks") {
      const list = Array.isArray(msg["decks"]) ? (msg["decks"] as unknown[]).map(asServerDeck).filter((d): d is ServerDeck => d !== null) : [];
      if (this.app.cat.loaded) this.merge(list);
      else this.shelf = list;
    } else if (msg.type === "deck_saved") {
      const id = String(msg["deck_id"]);
      const at = this.saving.indexOf(id);
      if (at >= 0) this.saving.splice(at, 1);
      this.patch(id, (d) => ({ ...d, synced: Number(msg["updated_ms"]), dirty: false, owner: this.account ?? d.owner }));
      this.status = `${Number(msg["count"])} deck${Number(msg["count"]) === 1 ? "" : "s"} kept with your account.`;
    }
    this.app.renderSoon();
  }

  onError(asked: string, text: string): void {
    if (asked === "save_deck") {
      const id = this.saving.shift();
      const deck = id === undefined ? undefined : loadDecks().find((d) => d.id === id);
      this.status = `Not kept with your account${deck ? ` ("${deck.name || "Untitled deck"}")` : ""}: ${text}`;
    } else {
      this.status = text;
    }
    this.app.renderSoon();
  }

  // ------------------------------------------------------------ the merge

  private merge(list: ServerDeck[]): void {
    this.shelf = null;
    const me = this.account;
    if (me === null) return;
    const dead = new Set(tombs());
    for (const id of dead) if (list.some((s) => s.deck_id === id)) this.app.account.ask({ type: "delete_deck", deck_id: id }, "delete_deck");
    setTombs([]);
    const theirs = new Map(list.filter((s) => !dead.has(s.deck_id)).map((s) => [s.deck_id, s]));
    const out: SavedDeck[] = [];
    const push: SavedDeck[] = [];
    for (const d of loadDecks()) {
      const s = theirs.get(d.id);
      theirs.delete(d.id);
      if (d.owner !== undefined && d.owner !== me) out.push(d); // another account's (same browser): left alone
      else if (s === undefined && d.owner === me && !d.dirty) continue; // deleted from the account elsewhere
      else if (s === undefined || d.dirty || d.owner === undefined) {
        out.push({ ...d, owner: me });
        push.push(d);
      } else out.push((d.synced ?? 0) < s.updated_ms ? this.local(s, me) : d);
    }
    for (const s of theirs.values()) out.push(this.local(s, me));
    putDecks(out);
    for (const d of push) this.send(d);
    const mine = out.filter((d) => d.owner === me).length;
    this.status = `${mine} deck${mine === 1 ? "" : "s"} kept with your account.`;
    this.app.renderSoon();
  }

  private local(s: ServerDeck, owner: string): SavedDeck {
    const { main, extra } = splitDeck(s.deck, this.app.cat);
    return { id: s.deck_id, name: s.name, format: s.format, main, extra, side: [...s.side], updated: s.updated_ms, owner, synced: s.updated_ms };
  }

  // ------------------------------------------------------------ changes made here

  private changed(deck: SavedDeck): void {
    if (this.account === null || !this.app.account.live) return;
    if (deck.owner === undefined) this.patch(deck.id, (d) => ({ ...d, owner: this.account ?? undefined }));
    const before = this.timers.get(deck.id);
    if (before !== undefined) window.clearTimeout(before);
    this.timers.set(
      deck.id,
      window.setTimeout(() => {
        this.timers.delete(deck.id);
        const now = loadDecks().find((d) => d.id === deck.id);
        if (now !== undefined && now.dirty) this.send(now);
      }, PUSH_AFTER_MS),
    );
  }

  private deleted(deck: SavedDeck): void {
    if (deck.owner === undefined) return; // never kept with an account
    if (this.account === deck.owner && this.app.account.live) this.app.account.ask({ type: "delete_deck", deck_id: deck.id }, "delete_deck");
    else setTombs([...tombs(), deck.id]);
  }

  private send(d: SavedDeck): void {
    const msg = { type: "save_deck", deck_id: d.id, name: d.name, format: d.format, deck: [...d.main, ...d.extra], side: d.side };
    if (this.app.account.ask(msg, "save_deck")) this.saving.push(d.id);
  }

  private patch(id: string, change: (d: SavedDeck) => SavedDeck): void {
    putDecks(loadDecks().map((d) => (d.id === id ? change(d) : d)));
  }
}
