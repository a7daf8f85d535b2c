// The leaderboard of a format (#/ladder, #/ladder/FORMAT): `get_ladder`, a page of rows at a
// time, ranked by `rating - 2 * rd` (PROTOCOL.md section 4a); each name links to its page.

import type { App } from "./app";
import { deckFormats, formatNamed } from "./deckrules";
import { h } from "./dom";
import type { ServerMessage } from "./proto";
import { type RatingRow, ratingColumn, ratingTable, rdColumn, recordColumns } from "./ratingtable";

const PAGE = 25;

export interface LadderRow extends RatingRow {
  rank: number;
  name: string;
}

export class LadderPage {
  rows: LadderRow[] = [];
  total = 0;
  offset = 0;
  next: number | null = null;
  loading = false;
  error: string | null = null;

  constructor(
    private readonly app: App,
    public format: string,
  ) {}

  /** A (new) connection: ask for the page shown. */
  resume(): void {
    this.ask(this.offset);
  }

  ask(offset: number): void {
    this.offset = Math.max(0, offset);
    this.loading = this.app.session.send({ type: "get_ladder", format: this.format, offset: this.offset, limit: PAGE });
    this.app.renderSoon();
  }

  onLadder(msg: ServerMessage): void {
    if (String(msg["format"]) !== this.format) return; // an answer for the format shown before
    this.loading = false;
    this.error = null;
    this.rows = Array.isArray(msg["rows"]) ? (msg["rows"] as LadderRow[]) : [];
    this.total = Number(msg["total"]) || 0;
    this.offset = Number(msg["offset"]) || 0;
    this.next = typeof msg["next_offset"] === "number" ? msg["next_offset"] : null;
  }

  onError(text: string): void {
    this.loading = false;
    this.error = text;
  }

  render(): HTMLElement {
    const app = this.app;
    const fmt = formatNamed(app.cat, this.format);
    const select = h(
      "select",
      { id: "ladder-format", "data-key": "ladder-format", onchange: (e: Event) => app.go(`#/ladder/${(e.target as HTMLSelectElement).value}`) },
      deckFormats(app.cat).map((f) => h("option", { value: f.name }, f.title)),
    );
    select.value = this.format;
    const me = app.account.name;
    const table =
      this.rows.length === 0
        ? h("p", { class: "muted", "data-testid": "ladder-empty" }, this.loading ? "Loading…" : `Nobody has played a rated match of ${fmt.title} yet.`)
        : ratingTable(
            "ladder",
            [
              { head: "Rank", num: true, cell: (r) => h("td", { class: "num" }, String(r.rank)) },
              { head: "Player", num: false, cell: (r) => h("td", null, h("a", { href: `#/player/${encodeURIComponent(r.name)}` }, r.name)) },
              ratingColumn(),
              rdColumn(),
              ...recordColumns(),
            ],
            this.rows,
            (r) => ({ "data-player": r.name, class: r.name === me ? "me" : "" }),
          );
    return h(
      "main",
      { class: "ladder-page" },
      h(
        "section",
        { class: "panel" },
        h("h1", null, `Ladder · ${fmt.title}`),
        h("div", { class: "field" }, h("label", { for: "ladder-format" }, "Format"), select),
        h("p", { class: "muted small" }, "Ranked by rating − 2 × deviation: a rating the ladder is fairly sure of. Rated matches are played from the lobby (rated quick match) by logged-in players."),
        this.error ? h("p", { class: "error", role: "alert" }, this.error) : null,
        table,
        h(
          "div",
          { class: "buttons" },
          h("button", { type: "button", class: "act small", "data-key": "ladder-prev", disabled: this.offset === 0 || this.loading, onclick: () => this.ask(this.offset - PAGE) }, "← Higher ranks"),
          h("span", { class: "muted small", "data-testid": "ladder-range" }, this.total ? `${this.offset + 1}–${this.offset + this.rows.length} of ${this.total}` : ""),
          h("button", { type: "button", class: "act small", "data-key": "ladder-next", disabled: this.next === null || this.loading, onclick: () => this.next !== null && this.ask(this.next) }, "Lower ranks →"),
        ),
      ),
    );
  }
}
