// One rendering of a card, wherever the page shows one: the small face on the board (and in a
// hand), the large view (the side panel, the view shown on hover or long-press, the dialogs, the
// deck editor's card). A frame per kind in the usual colours (Normal yellow, Effect orange,
// Fusion violet, Ritual blue, Spell green, Trap magenta, Token grey: cards.css), the name, the
// Attribute, the Level stars, an art box, the type line and ATK/DEF. No artwork: the frame is
// drawn by the style sheet, and the art box shows the card's Attribute and Type in words.

import { h, type Child } from "./dom";
import type { CardInfo } from "./proto";

/** The frame a card is drawn in. */
export type Frame = "normal" | "effect" | "fusion" | "ritual" | "synchro" | "xyz" | "link" | "token" | "spell" | "trap";

const EXTRA_FRAMES: readonly Frame[] = ["fusion", "ritual", "synchro", "xyz", "link", "token"];

const PROPS: Record<string, string> = { "quick-play": "Quick-Play", continuous: "Continuous", counter: "Counter", field: "Field", equip: "Equip", ritual: "Ritual", normal: "Normal" };

/** A glyph per Spell/Trap property (none for a Normal one), as the cards print an icon. */
const PROP_GLYPHS: Record<string, string> = { "quick-play": "⚡", continuous: "∞", counter: "↩", field: "▲", equip: "+", ritual: "◆" };

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function stat(n: number | undefined): string {
  return n === undefined || n < 0 ? "?" : String(n);
}

export function frameOf(c: CardInfo): Frame {
  if (c.kind === "spell" || c.kind === "trap") return c.kind;
  for (const k of EXTRA_FRAMES) if (c.monster_kinds.includes(k)) return k;
  return c.monster_kinds.includes("normal") || c.monster_kinds.length === 0 ? "normal" : "effect";
}

/** "Quick-Play Spell", "Effect Monster", "Flip / Effect Monster". */
export function kindWords(c: CardInfo): string {
  if (c.kind !== "monster") return `${PROPS[c.prop] ?? cap(c.prop)} ${cap(c.kind)}`.trim();
  const kinds = c.monster_kinds.length ? c.monster_kinds : ["normal"];
  return `${kinds.map(cap).join(" / ")} Monster`;
}

/** "★4 · DARK · Spellcaster" and "ATK 1800 / DEF 1000" for a monster; the kind for the others. */
export function statWords(c: CardInfo): string[] {
  if (c.kind !== "monster") return [kindWords(c)];
  return [`★${c.level} · ${c.attribute} · ${c.type}`, `ATK ${stat(c.atk)} / DEF ${stat(c.def)}`];
}

/** The type line as the cards print it: "[Spellcaster / Effect]", "[Quick-Play Spell Card]". */
export function typeLine(c: CardInfo): string {
  if (c.kind !== "monster") return `[${kindWords(c)} Card]`;
  const kinds = c.monster_kinds.filter((k) => k !== "normal").map(cap);
  return `[${[c.type, ...kinds].filter(Boolean).join(" / ")}]`;
}

/** The name in words that are never broken: each word (and each part of a hyphenated word,
 * its hyphen kept) is a box of its own, so a line breaks only between them ("Sakuretsu Armor",
 * never "Sakurets u Armor"); `--longest` (its longest word, in letters) and `--chars` (its
 * length) let the style sheet size the letters so that it fits the card (cards.css). */
export function nameWords(name: string, cls: string, tag: "span" | "h3" = "span"): HTMLElement {
  const parts: string[] = [];
  let longest = 4;
  for (const word of name.split(/\s+/).filter(Boolean)) {
    const pieces = word.match(/[^-]+-+|[^-]+$|-+/g) ?? [word];
    parts.push(...pieces);
    // a hyphenated word is sized to stay whole ("Blue-Eyes"); a long one may break at its hyphen
    longest = Math.max(longest, word.length <= 11 ? word.length : Math.max(...pieces.map((p) => p.length)));
  }
  const kids: Child[] = [];
  parts.forEach((p, i) => {
    if (i > 0 && !(parts[i - 1] ?? "").endsWith("-")) kids.push(" ");
    kids.push(h("span", { class: "w" }, p));
  });
  const el = h(tag, { class: cls }, kids);
  // through the CSSOM: the page's Content-Security-Policy refuses style attributes
  el.style.setProperty("--longest", String(longest));
  el.style.setProperty("--chars", String(Math.max(8, name.length)));
  return el;
}

/** A monster's Attribute as a coloured mark; "SPELL"/"TRAP" for the others. */
function attributeMark(c: CardInfo): HTMLElement {
  const word = c.kind === "monster" ? c.attribute || "?" : c.kind.toUpperCase();
  return h("span", { class: `cf-attr attr-${word.toLowerCase()}`, title: word, "aria-hidden": "true" }, h("span", { class: "cf-attr-word" }, word));
}

/** Above this Level a small face shows one star and the number ("★8"): eight stars across a
 * board card are too small to count. */
const SMALL_STARS = 4;

/** The Level stars (monsters) or the Spell/Trap property line (`small`: a board card's). */
function levelLine(c: CardInfo, small = false): HTMLElement {
  if (c.kind !== "monster") {
    const glyph = PROP_GLYPHS[c.prop];
    return h("span", { class: "cf-level cf-prop" }, `${cap(c.kind)}${glyph ? ` ${glyph}` : ""}`);
  }
  const n = Math.max(0, Math.min(12, c.level));
  const counted = small && n > SMALL_STARS;
  const el = h(
    "span",
    { class: counted ? "cf-level counted" : "cf-level", title: `Level ${c.level}` },
    h("span", { class: "stars", "aria-hidden": "true" }, counted ? `★${n}` : "★".repeat(n)),
    h("span", { class: "lv" }, `Level ${c.level}`),
  );
  el.style.setProperty("--lv", String(counted ? 2 : Math.max(n, SMALL_STARS)));
  return el;
}

/** The art box: no artwork, the Attribute and Type (monsters) or the property (others). */
function artBox(c: CardInfo): HTMLElement {
  if (c.kind !== "monster") {
    return h("span", { class: `cf-art art-${c.kind}`, "aria-hidden": "true" }, h("span", { class: "glyph" }, PROP_GLYPHS[c.prop] ?? (c.kind === "spell" ? "✦" : "✧")), h("span", { class: "what" }, kindWords(c)));
  }
  const attr = (c.attribute || "?").toLowerCase();
  return h("span", { class: `cf-art art-${attr}`, "aria-hidden": "true" }, h("span", { class: "attrword" }, c.attribute), h("span", { class: "what" }, c.type));
}

/** ATK/DEF now, marked up or down against the printed values. */
function statsLine(c: CardInfo, atk: number | undefined, def: number | undefined): HTMLElement {
  const one = (label: string, now: number | undefined, base: number) => {
    const v = now ?? base;
    const cls = now === undefined || now === base || base < 0 ? "" : now > base ? " up" : " down";
    return h("span", { class: `st${cls}` }, h("i", null, `${label}/`), stat(v));
  };
  return h("span", { class: "cf-stats" }, one("ATK", atk, c.atk), h("b", { "aria-hidden": "true" }, "/"), " ", one("DEF", def, c.def));
}

export interface FaceState {
  atk?: number | undefined; // now, when on the field
  def?: number | undefined;
  counters?: Record<string, number> | undefined;
  tag?: string | null; // "Set"
}

function countersWords(counters: Record<string, number> | undefined): string | null {
  if (!counters || !Object.keys(counters).length) return null;
  return Object.entries(counters).map(([k, v]) => `${v} ${k.replaceAll("_", " ")}`).join(", ");
}

/** The small face of a card (the board's and a hand's): what goes inside its `.card` box
 * (whose class names the frame: `frameClass`). Unknown to the catalogue (not loaded yet): the
 * name alone. */
export function cardFace(c: CardInfo | undefined, name: string, s: FaceState): Child[] {
  const counters = countersWords(s.counters);
  const tags = [s.tag ? h("span", { class: "tag" }, s.tag) : null, counters ? h("span", { class: "tag counters" }, counters) : null];
  if (c === undefined) return [h("span", { class: "cf-top" }, nameWords(name, "name")), h("span", { class: "cf-art" }), ...tags];
  // small: the name has the whole width; the Attribute sits by the Level stars
  return [
    h("span", { class: "cf-top" }, nameWords(name, "name")),
    h("span", { class: "cf-row" }, attributeMark(c), levelLine(c, true)),
    artBox(c),
    h("span", { class: "cf-type" }, typeLine(c)),
    c.kind === "monster" ? statsLine(c, s.atk, s.def) : null, // a Spell's or Trap's kind is in its art box
    ...tags,
  ];
}

/** The classes of a card's frame: `face frame-effect`. */
export function frameClass(c: CardInfo | undefined): string {
  return c === undefined ? "face" : `face frame-${frameOf(c)}`;
}

export interface LargeOpts {
  atk?: number | undefined; // now (on the field): the printed values are shown beside
  def?: number | undefined;
  text?: string; // the text to show (a format's wording) instead of the card's
  counters?: Record<string, number> | undefined;
  extra?: Child[]; // lines under the card (the deck editor's limits)
  testid?: string;
}

/** The large view of a card, with all its text: a card frame as large as its box, the name,
 * Attribute, Level stars, the art box, the type line, the text and ATK/DEF (now and printed). */
export function largeCard(c: CardInfo | undefined, name: string, o: LargeOpts = {}): HTMLElement {
  const attrs = { class: `bigface ${frameClass(c)}`, "data-testid": o.testid ?? null, "data-code": c?.code ?? null };
  if (c === undefined) return h("div", attrs, h("div", { class: "cf-top" }, nameWords(name, "cf-title", "h3")), o.extra ?? []);
  const lines: Child[] = [];
  if (c.kind === "monster") {
    lines.push(h("p", { class: "meta" }, `Level ${c.level} · ${c.attribute} · ${c.type}${c.monster_kinds.length ? ` / ${c.monster_kinds.map(cap).join(" / ")}` : ""}`));
  } else {
    lines.push(h("p", { class: "meta" }, `${kindWords(c)} Card`));
  }
  const counters = countersWords(o.counters);
  const changed = (label: string, now: number | undefined, base: number) => {
    const b = stat(base);
    if (now === undefined || now === base) return `${label} ${b}`;
    const d = now - base;
    return `${label} ${now} (printed ${b}, ${d > 0 ? "+" : "−"}${Math.abs(d)} from effects)`;
  };
  return h(
    "div",
    attrs,
    h("div", { class: "cf-top" }, nameWords(name, "cf-title", "h3"), attributeMark(c)),
    levelLine(c),
    artBox(c),
    h(
      "div",
      { class: "cf-textbox" },
      h("p", { class: "cf-type" }, typeLine(c)),
      h("p", { class: "text" }, o.text ?? c.text),
      c.kind === "monster" ? h("p", { class: "cf-bigstats" }, `ATK/${stat(o.atk ?? c.atk)}  DEF/${stat(o.def ?? c.def)}`) : null,
    ),
    lines,
    c.kind === "monster" && (o.atk !== undefined || o.def !== undefined) && (o.atk !== c.atk || o.def !== c.def)
      ? h("p", { class: "meta stats" }, changed("ATK", o.atk, c.atk), " · ", changed("DEF", o.def, c.def))
      : null,
    counters ? h("p", { class: "meta" }, `Counters: ${counters}`) : null,
    o.extra ?? [],
  );
}

/** The smallest size a name's letters are made (px): a word too long even so ends in "…". */
const NAME_MIN_PX = 7;

/** Make the letters of each card name under `root` (`.card .name`, laid out) as large as the
 * style sheet's estimate but small enough that each word fits the card's width and the name its
 * lines: a few rounds of measuring (text scales with its size), run after the layout and before
 * the paint. */
export function fitNames(root: ParentNode): void {
  let names = Array.from(root.querySelectorAll<HTMLElement>(".card .name"));
  for (let round = 0; round < 3 && names.length; round++) {
    const sizes = names.map((el) => {
      const size = parseFloat(getComputedStyle(el).fontSize);
      // sizes as laid out, before any transform (a card in Defense Position is turned); a word's
      // text as wide as the room may be a fraction wider, which ends it in "…": too wide
      const room = el.clientWidth;
      let widest = 0;
      for (const w of el.querySelectorAll<HTMLElement>(".w")) widest = Math.max(widest, w.scrollWidth);
      let k = widest >= room ? (room - 1) / widest : 1;
      if (k === 1 && el.scrollHeight > el.clientHeight + 1) k = Math.max(0.85, Math.sqrt(el.clientHeight / el.scrollHeight));
      return k < 1 && size > NAME_MIN_PX ? Math.max(NAME_MIN_PX, Math.floor(size * k * 0.98 * 10) / 10) : null;
    });
    const next: HTMLElement[] = [];
    names.forEach((el, i) => {
      const px = sizes[i];
      if (px === null || px === undefined) return;
      el.style.fontSize = `${px}px`;
      next.push(el);
    });
    names = next;
  }
}
