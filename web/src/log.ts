// The side panel: the card text of the card last hovered, and the battle
// log. The log is the server's `story` (PROTOCOL.md section 5: one line per
// fact worth telling, in plain words, as the receiver may know it), shown
// verbatim: one narration, made in Python (engine/describe.py), for the
// terminal and the browser alike. Its leading spaces (the depth of a line:
// turn, phase, what happened in it) are kept in a span of their own, so a
// long line wraps under its own text (each item's text is the line as sent).

import { cardDetail } from "./board";
import type { Catalogue } from "./cards";
import { h } from "./dom";
import type { CardView } from "./proto";

export interface LogLine {
  seq: number;
  text: string;
}

/** The story lines of one entry, as log lines. */
export function storyLines(seq: number, story: string[] | undefined): LogLine[] {
  return (story ?? []).map((text) => ({ seq, text }));
}

/** A line that only says a player passed or moved on ("A passes", "B moves on", "A ends the
 * turn"): a run of them is folded into one row of the log (style.css: `li.pass`), each still
 * its own line of the story. */
export const PASS_LINE = /^ *[AB] (passes( \((nothing to activate|ending the turn)\))?|moves on( towards the End Phase)?|moves to the Battle Phase|ends the turn)$/;

function lineItem(l: LogLine): HTMLElement {
  const indent = /^ */.exec(l.text)?.[0] ?? "";
  return h(
    "li",
    { class: /^===/.test(l.text) ? "heading" : PASS_LINE.test(l.text) ? "pass" : null, "data-seq": l.seq },
    indent ? h("span", { class: "indent" }, indent) : null,
    h("span", { class: "line" }, l.text.slice(indent.length)),
  );
}

/** The log's list element, kept from one render to the next: only lines not
 * shown yet are added (a long duel's log is not rebuilt for every update). */
export class LogList {
  readonly el: HTMLOListElement = h("ol", { "data-testid": "log", "aria-live": "polite" });
  private shown: LogLine[] = [];
  private current: HTMLElement[] = [];

  /** Show `lines`, marking those of entry `currentSeq`. */
  sync(lines: LogLine[], currentSeq: number): void {
    const n = Math.min(lines.length, this.shown.length);
    const samePrefix = n === 0 || (lines[0] === this.shown[0] && lines[n - 1] === this.shown[n - 1]);
    if (!samePrefix) {
      this.el.replaceChildren();
      this.shown = [];
    }
    while (this.shown.length > lines.length) {
      this.el.lastElementChild?.remove();
      this.shown.pop();
    }
    if (lines.length > this.shown.length) {
      const add = lines.slice(this.shown.length);
      this.el.append(...add.map(lineItem));
      this.shown.push(...add);
    }
    for (const li of this.current) li.classList.remove("current");
    this.current = [];
    for (let i = this.shown.length - 1, li = this.el.lastElementChild; i >= 0 && li !== null && this.shown[i]?.seq === currentSeq; i--, li = li.previousElementSibling) {
      li.classList.add("current");
      this.current.push(li as HTMLElement);
    }
  }
}

/** The side panel, made once per screen: the card text slot and the log. */
export class SidePanel {
  readonly log = new LogList();
  private readonly detail: HTMLElement = h("section", { class: "detail-slot", "aria-label": "card text" });
  readonly el: HTMLElement = h("aside", { class: "side" }, this.detail, h("section", { class: "log", "aria-label": "battle log" }, h("h2", null, "Battle log"), this.log.el));
  private shown: CardView | null | undefined = undefined;

  /** Show `lines` (marking entry `currentSeq`) and the text of `hovered`. */
  update(cat: Catalogue, hovered: CardView | null, lines: LogLine[], currentSeq: number): HTMLElement {
    const atBottom = this.log.el.scrollHeight - this.log.el.scrollTop - this.log.el.clientHeight < 40;
    const before = this.log.el.childElementCount;
    this.log.sync(lines, currentSeq);
    if (this.shown !== hovered || !cat.loaded) {
      this.shown = hovered;
      this.detail.replaceChildren(cardDetail(hovered, cat));
    }
    // follow the end of the log, unless the reader scrolled up to read
    if (atBottom || before === 0 || this.log.el.childElementCount < before) this.scrollDown = true;
    return this.el;
  }

  /** Set by `update` when the log should show its last line (after the render). */
  scrollDown = false;

  afterRender(): void {
    if (!this.scrollDown) return;
    this.scrollDown = false;
    this.log.el.scrollTop = this.log.el.scrollHeight;
  }
}
