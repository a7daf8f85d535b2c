// The card catalogue: the server's `cards` message (get_cards), cached in
// localStorage under the server's `welcome.cards_version`, so a page asks for
// it only when the server's cards changed. No copy is bundled: the client is
// served by the server it talks to, which always has the catalogue; until it
// arrives, the board names cards from the view (which carries `name`) and
// the decklist box waits.

import { checkDeck, type DeckFormat, splitDeck } from "./deckrules";
import type { CardInfo, DeckInfo, FormatInfo } from "./proto";
import { type DeckList, DeckListError, isDeckList, parseDeckList } from "./ydk";

const CACHE_KEY = "duel.cards";

interface Cached {
  version: string;
  cards: CardInfo[];
  decks: DeckInfo[];
  formats?: FormatInfo[];
}

export class Catalogue {
  byCode = new Map<number, CardInfo>();
  decks: DeckInfo[] = [];
  formats: FormatInfo[] = [];
  version: string | null = null;

  get loaded(): boolean {
    return this.version !== null;
  }

  /** Use the copy kept in localStorage if it is of `version`; false: ask the server. */
  fromCache(version: string): boolean {
    if (this.version === version) return true;
    let cached: Cached | null = null;
    try {
      cached = JSON.parse(localStorage.getItem(CACHE_KEY) ?? "null") as Cached | null;
    } catch {
      cached = null;
    }
    if (cached === null || cached.version !== version || !Array.isArray(cached.cards)) return false;
    this.use(cached);
    return true;
  }

  /** The server's `cards` message: use it and keep it for next time. */
  load(msg: { version?: unknown; cards?: unknown; decks?: unknown; formats?: unknown }): void {
    if (typeof msg.version !== "string" || !Array.isArray(msg.cards)) return;
    const got: Cached = {
      version: msg.version,
      cards: msg.cards as CardInfo[],
      decks: Array.isArray(msg.decks) ? (msg.decks as DeckInfo[]) : [],
      formats: Array.isArray(msg.formats) ? (msg.formats as FormatInfo[]) : [],
    };
    this.use(got);
    try {
      localStorage.setItem(CACHE_KEY, JSON.stringify(got));
    } catch {
      // storage full or disabled: the page asks again next time
    }
  }

  private use(c: Cached): void {
    this.byCode = new Map(c.cards.map((card) => [card.code, card]));
    this.decks = c.decks;
    this.formats = c.formats ?? [];
    this.version = c.version;
  }

  get(code: unknown): CardInfo | undefined {
    return typeof code === "number" ? this.byCode.get(code) : undefined;
  }

  name(code: unknown): string | undefined {
    return this.get(code)?.name;
  }

  /** A card by passcode or name (case, spaces and punctuation ignored). */
  lookup(text: string): CardInfo | undefined {
    const t = text.trim();
    if (/^\d+$/.test(t)) return this.byCode.get(Number(t));
    const key = norm(t);
    for (const c of this.byCode.values()) if (norm(c.name) === key) return c;
    return undefined;
  }

  /** The closest names to a misspelt one (for error messages). */
  suggest(text: string): string[] {
    const key = norm(text);
    const scored: [number, string][] = [];
    for (const c of this.byCode.values()) {
      const d = distance(key, norm(c.name));
      if (d <= Math.max(2, Math.floor(key.length / 4)) || (key.length >= 4 && norm(c.name).includes(key))) scored.push([d, c.name]);
    }
    scored.sort((a, b) => a[0] - b[0]);
    return scored.slice(0, 3).map(([, n]) => n);
  }
}

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] ?? 0;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j] ?? 0;
      prev[j] = Math.min(up + 1, (prev[j - 1] ?? 0) + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length] ?? 0;
}

export interface ParsedDeck {
  /** The deck to send: the Main Deck, then the Extra Deck (the protocol's deck has no Side Deck). */
  cards: number[];
  /** The list as written (a `.ydk` file's or a `ydke://` link's Side Deck is checked, not sent). */
  deck: DeckList;
  errors: string[];
}

/** A pasted decklist, checked against format `fmt`: a `.ydk` file or a `ydke://` link (ydk.ts),
 * or one card a line, by passcode or name, optionally with a count ("3 Honest", "3x Honest",
 * "Honest x3"), `#` starting a comment. */
export function parseDecklist(text: string, cat: Catalogue, fmt: DeckFormat): ParsedDeck {
  if (isDeckList(text)) {
    let deck: DeckList;
    try {
      deck = parseDeckList(text);
    } catch (e) {
      const errors = e instanceof DeckListError ? e.problems : [String(e)];
      return { cards: [], deck: { main: [], extra: [], side: [] }, errors };
    }
    const canon = (codes: number[]) => codes.map((c) => fmt.canonical(c));
    deck = { main: canon(deck.main), extra: canon(deck.extra), side: canon(deck.side) };
    return { cards: [...deck.main, ...deck.extra], deck, errors: checkDeck(deck, fmt, cat) };
  }
  const cards: number[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, "").trim();
    if (line === "" || /^(main|extra|side)( deck)?:?$/i.test(line)) return;
    let count = 1;
    let name = line;
    let m = /^(\d{1,2})\s*[x×]?\s+(.+)$/i.exec(line);
    if (m && !/^\d{5,}$/.test(line)) {
      count = Number(m[1]);
      name = m[2] ?? "";
    } else if ((m = /^(.+?)\s+[x×](\d{1,2})$/i.exec(line))) {
      name = m[1] ?? "";
      count = Number(m[2]);
    }
    const card = cat.lookup(name);
    if (card === undefined) {
      const hint = /^\d+$/.test(name.trim()) ? "" : cat.suggest(name).map((s) => `"${s}"`).join(" or ");
      const what = /^\d+$/.test(name.trim()) ? `no card with passcode ${name.trim()}` : `no card named "${name.trim()}"`;
      errors.push(`line ${i + 1}: ${what}${hint ? ` (did you mean ${hint}?)` : ""}`);
      return;
    }
    for (let k = 0; k < count; k++) cards.push(card.code);
  });
  const deck = splitDeck(cards, cat);
  if (errors.length === 0) errors.push(...checkDeck(deck, fmt, cat));
  return { cards, deck, errors };
}
