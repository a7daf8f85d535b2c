// A card as the deck editor shows it: a row in its kind's frame colour (Normal, Effect, Fusion,
// Flip, Spell, Trap ...), its name, Level, Attribute, Type and ATK/DEF, and the format's limit on
// it (Forbidden, Limited, Semi-Limited); and the large view of one card (cardframe.ts, the same
// as the board's), with the text the format plays. No artwork: the frame is drawn by the style
// sheet (cards.css).

import { frameOf, kindWords, largeCard, statWords } from "./cardframe";
import type { DeckFormat } from "./deckrules";
import { h } from "./dom";
import type { CardInfo } from "./proto";

export { frameOf, kindWords, statWords };

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

/** The large view of one card (the board's: cardframe.ts), the text the format plays, and the
 * format's limit on it. */
export function cardView(c: CardInfo | null, f: DeckFormat, inDeck: number): HTMLElement {
  if (c === null) return h("div", { class: "bigcard empty", "data-testid": "card-view" }, "Choose a card to read it.");
  const listed = f.listed(c.code);
  const limit = f.limit(c.code);
  const text = c.texts?.[f.name];
  return h(
    "div",
    { class: "bigcard has-face", "data-testid": "card-view", "data-code": c.code },
    largeCard(c, c.name, {
      ...(text === undefined ? {} : { text }),
      extra: [
        h(
          "p",
          { class: "meta limits" },
          `${listed !== null ? `${listed} in ${f.title}: at most ${limit}` : `At most ${limit} in a deck`}` + ` · ${inDeck} in this deck` + (c.supported === false ? " · not playable on this server yet" : ""),
        ),
      ],
    }),
  );
}
