// A card as the deck editor shows it: a small frame in its kind's colour (Normal, Effect, Fusion,
// Flip, Spell, Trap ...), its name, Level, Attribute, Type and ATK/DEF, and the format's limit on
// it (Forbidden, Limited, Semi-Limited); and the large view of one card, with the text the
// format plays. No artwork: the frame is drawn by the style sheet.

import type { DeckFormat } from "./deckrules";
import { h } from "./dom";
import type { CardInfo } from "./proto";

const PROPS: Record<string, string> = { "quick-play": "Quick-Play", continuous: "Continuous", counter: "Counter", field: "Field", equip: "Equip", ritual: "Ritual", normal: "Normal" };

function cap(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The frame a card is drawn in: `fusion`, `effect`, `normal`, `spell`, `trap`, ... */
export function frameOf(c: CardInfo): string {
  if (c.kind !== "monster") return c.kind;
  for (const k of ["fusion", "ritual", "synchro", "xyz", "link", "token"]) if (c.monster_kinds.includes(k)) return k;
  return c.monster_kinds.includes("normal") ? "normal" : "effect";
}

/** "Quick-Play Spell", "Effect Monster", "Flip / Effect Monster". */
export function kindWords(c: CardInfo): string {
  if (c.kind !== "monster") return `${PROPS[c.prop] ?? cap(c.prop)} ${cap(c.kind)}`.trim();
  const kinds = c.monster_kinds.length ? c.monster_kinds : ["normal"];
  return `${kinds.map(cap).join(" / ")} Monster`;
}

function stat(n: number): string {
  return n < 0 ? "?" : String(n);
}

/** "★4 · DARK · Spellcaster" and "ATK 1800 / DEF 1000" for a monster; the kind for the others. */
export function statWords(c: CardInfo): string[] {
  if (c.kind !== "monster") return [kindWords(c)];
  return [`★${c.level} · ${c.attribute} · ${c.type}`, `ATK ${stat(c.atk)} / DEF ${stat(c.def)}`];
}

/** The format's limit on a card as a badge ("Limited 1"), or null when its list names it not. */
export function limitBadge(c: CardInfo, f: DeckFormat): HTMLElement | null {
  const listed = f.listed(c.code);
  if (listed === null) return c.supported === false ? h("span", { class: "badge unsupported", title: "the server does not play this card yet" }, "not playable") : null;
  const n = f.limit(c.code);
  return h("span", { class: `badge limit-${n}`, "data-limit": n, title: `${listed} in ${f.title}: at most ${n} in a deck` }, n === 0 ? "Forbidden" : `${listed} ${n}`);
}

/** A card's small frame (a button when `onclick` is given). */
export function cardTile(c: CardInfo, f: DeckFormat, key: string, onclick?: () => void, count?: number): HTMLElement {
  const attrs = {
    class: `ecard frame-${frameOf(c)}`,
    "data-code": c.code,
    "data-key": key,
    title: `${c.name} — ${kindWords(c)}`,
  };
  const body = [
    count !== undefined ? h("span", { class: "count", "aria-label": `${count} copies` }, `${count}×`) : null,
    h("span", { class: "ename" }, c.name),
    h("span", { class: "estats" }, statWords(c).join(" · ")),
    limitBadge(c, f),
  ];
  return onclick ? h("button", { ...attrs, type: "button", onclick }, body) : h("span", attrs, body);
}

/** The large view of one card: its frame, facts, the format's limit and the text it plays there. */
export function cardView(c: CardInfo | null, f: DeckFormat, inDeck: number): HTMLElement {
  if (c === null) return h("div", { class: "bigcard empty", "data-testid": "card-view" }, "Choose a card to read it.");
  const listed = f.listed(c.code);
  const limit = f.limit(c.code);
  return h(
    "div",
    { class: `bigcard frame-${frameOf(c)}`, "data-testid": "card-view", "data-code": c.code },
    h("h3", null, c.name),
    h("p", { class: "meta" }, kindWords(c)),
    c.kind === "monster" ? h("p", { class: "meta" }, `Level ${c.level} · ${c.attribute} · ${c.type}`) : null,
    h("p", { class: "text" }, c.texts?.[f.name] ?? c.text),
    c.kind === "monster" ? h("p", { class: "meta stats" }, `ATK ${stat(c.atk)} / DEF ${stat(c.def)}`) : null,
    h(
      "p",
      { class: "meta" },
      `${listed !== null ? `${listed} in ${f.title}: at most ${limit}` : `At most ${limit} in a deck`}` + ` · ${inDeck} in this deck` + (c.supported === false ? " · not playable on this server yet" : ""),
    ),
  );
}
