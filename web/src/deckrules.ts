// Deck-building rules per format, as the server checks them (engine/deckcheck.py,
// docs/formats.md), from the catalogue's `formats` (PROTOCOL.md, `cards`): the Main Deck's
// size, the Extra (Goat: Fusion) Deck's and the Side Deck's; Extra Deck monsters in the Extra
// Deck and nothing else there; the copies of a card over the three parts within the format's
// Forbidden/Limited list; every card known, in the format's pool and played by the server.
// Every problem is one sentence naming the card and the limit, worded as the server words it.

import type { Catalogue } from "./cards";
import type { CardInfo, FormatInfo } from "./proto";
import type { DeckList } from "./ydk";

export const LIST_NAMES: Record<number, string> = { 0: "Forbidden", 1: "Limited", 2: "Semi-Limited" };
const EXTRA_KINDS = ["fusion", "synchro", "xyz", "link"];

/** A format as the deck editor uses it: its limits looked up by passcode. */
export class DeckFormat {
  readonly pool: Set<number>;
  readonly limits: Map<number, number>;
  readonly aliases: Map<number, number>;

  constructor(readonly info: FormatInfo) {
    this.pool = new Set(info.cards ?? []);
    this.limits = new Map((info.limits ?? []).map(([code, n]) => [code, n]));
    this.aliases = new Map((info.aliases ?? []).map(([alt, code]) => [alt, code]));
  }

  get name(): string {
    return this.info.name;
  }

  get title(): string {
    return this.info.title;
  }

  /** What the format calls the Extra Deck ("Fusion Deck" in Goat). */
  get extraName(): string {
    return this.info.deck?.extra_name ?? "Extra Deck";
  }

  /** The passcode a card is counted as (an alternate artwork is its card). */
  canonical(code: number): number {
    return this.aliases.get(code) ?? code;
  }

  /** The copies of a card a deck may hold (0: Forbidden). */
  limit(code: number): number {
    return this.limits.get(this.canonical(code)) ?? this.info.copies ?? 3;
  }

  /** "Limited (1)" for a card the list names, null for one it does not. */
  listed(code: number): string | null {
    const n = this.limits.get(this.canonical(code));
    return n === undefined ? null : (LIST_NAMES[n] ?? `at most ${n}`);
  }

  /** The sizes a deck must have, in words ("40–60", "at most 15", "0 or 15"). */
  sizes(): { main: string; extra: string; side: string } {
    const d = this.info.deck;
    const [lo, hi] = d?.main ?? [40, 60];
    const side = d?.side_max ?? 15;
    return { main: `${lo}–${hi}`, extra: `at most ${d?.extra_max ?? 15}`, side: d?.side_full_or_empty ? `0 or ${side}` : `at most ${side}` };
  }
}

/** The formats the catalogue lists (the default first); `current` alone until it has loaded. */
export function deckFormats(cat: Catalogue): DeckFormat[] {
  const infos = cat.formats.length ? cat.formats : [{ name: "current", title: "Current rules", description: "" }];
  return infos.map((f) => new DeckFormat(f));
}

export function formatNamed(cat: Catalogue, name: string | undefined): DeckFormat {
  const all = deckFormats(cat);
  return all.find((f) => f.name === name) ?? (all[0] as DeckFormat);
}

export function isExtraDeck(card: CardInfo | undefined): boolean {
  return card !== undefined && card.monster_kinds.some((k) => EXTRA_KINDS.includes(k));
}

/** One list of passcodes (the protocol's deck) as a deck: Extra Deck monsters to the Extra Deck. */
export function splitDeck(codes: number[], cat: Catalogue): DeckList {
  return { main: codes.filter((c) => !isExtraDeck(cat.get(c))), extra: codes.filter((c) => isExtraDeck(cat.get(c))), side: [] };
}

function named(code: number, cat: Catalogue): string {
  const card = cat.get(code);
  return card ? `${card.name} (${code})` : `card ${code}`;
}

/** Every problem of `deck` in format `f`, one sentence each ([]: it may be played). */
export function checkDeck(deck: DeckList, f: DeckFormat, cat: Catalogue): string[] {
  const out: string[] = [];
  const d = f.info.deck;
  const [lo, hi] = d?.main ?? [40, 60];
  if (deck.main.length < lo || deck.main.length > hi) out.push(`the Main Deck has ${deck.main.length} cards; it must have ${lo} to ${hi}`);
  const extraMax = d?.extra_max ?? 15;
  if (deck.extra.length > extraMax) out.push(`the ${f.extraName} has ${deck.extra.length} cards; it may have at most ${extraMax}`);
  const sideMax = d?.side_max ?? 15;
  if (d?.side_full_or_empty && deck.side.length !== 0 && deck.side.length !== sideMax) {
    out.push(`the Side Deck has ${deck.side.length} cards; it must have 0 or ${sideMax}`);
  } else if (deck.side.length > sideMax) {
    out.push(`the Side Deck has ${deck.side.length} cards; it may have at most ${sideMax}`);
  }
  for (const code of new Set(deck.main)) {
    if (isExtraDeck(cat.get(f.canonical(code)))) out.push(`${named(code, cat)} is an Extra Deck monster: it goes in the ${f.extraName}, not the Main Deck`);
  }
  for (const code of new Set(deck.extra)) {
    const card = cat.get(f.canonical(code));
    if (card !== undefined && !isExtraDeck(card)) out.push(`${named(code, cat)} is not an Extra Deck monster: it goes in the Main Deck, not the ${f.extraName}`);
  }
  const counts = new Map<number, number>();
  for (const c of [...deck.main, ...deck.extra, ...deck.side]) counts.set(f.canonical(c), (counts.get(f.canonical(c)) ?? 0) + 1);
  for (const [code, n] of counts) {
    const card = cat.get(code);
    if (card === undefined) {
      out.push(`unknown card ${code}: no card has this passcode`);
      continue;
    }
    const limit = f.limit(code);
    if (n > limit) {
      if (limit === 0) out.push(`${named(code, cat)} is Forbidden in ${f.title} (${f.info.list ?? "its list"}); the deck has ${n}`);
      else if (f.limits.has(code)) out.push(`${n} copies of ${named(code, cat)}: it is ${LIST_NAMES[limit] ?? "limited"} in ${f.title}, at most ${limit} over the Main, Extra and Side Deck`);
      else out.push(`${n} copies of ${named(code, cat)}: at most ${limit} of a card over the Main, Extra and Side Deck`);
    }
    if (f.pool.size && !f.pool.has(code)) out.push(`${named(code, cat)} is not in the ${f.title} card pool`);
    else if (card.supported === false) out.push(`${named(code, cat)} is not supported by the engine yet (its effect has no script)`);
  }
  return out;
}

/** How many copies of `code` (as its card) the deck holds over its three parts. */
export function copiesIn(deck: DeckList, code: number, f: DeckFormat): number {
  const want = f.canonical(code);
  return [...deck.main, ...deck.extra, ...deck.side].filter((c) => f.canonical(c) === want).length;
}
