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

export function renderSide(cat: Catalogue, hovered: CardView | null, log: LogLine[], currentSeq: number, showUpTo = Infinity): HTMLElement {
  const lines = showUpTo === Infinity ? log : log.filter((l) => l.seq <= showUpTo);
  return h(
    "aside",
    { class: "side" },
    h("section", { class: "detail-slot", "aria-label": "card text" }, cardDetail(hovered, cat)),
    h(
      "section",
      { class: "log", "aria-label": "battle log" },
      h("h2", null, "Battle log"),
      h(
        "ol",
        { "data-testid": "log", "aria-live": "polite" },
        lines.map((l) => {
          const indent = /^ */.exec(l.text)?.[0] ?? "";
          return h(
            "li",
            { class: `${l.seq === currentSeq ? "current" : ""}${/^===/.test(l.text) ? " heading" : ""}`, "data-seq": l.seq },
            indent ? h("span", { class: "indent" }, indent) : null,
            h("span", { class: "line" }, l.text.slice(indent.length)),
          );
        }),
      ),
    ),
  );
}
