// A table of ratings, as the ladder (one row per player) and a player's page (one row per
// format) show them: the columns each page names, then the numbers every rating has.

import { h } from "./dom";

/** What every row of a rating table has (the ladder's and the player page's rows). */
export interface RatingRow {
  rating: number;
  rd: number;
  games: number;
  wins: number;
  losses: number;
  draws: number;
}

/** One column: its heading, whether it holds a number (right-aligned), and its cell. */
export interface Column<R> {
  head: string;
  num: boolean;
  cell: (r: R) => HTMLElement;
}

const numCell = (text: string, cls = "num", testid?: string): HTMLElement => h("td", testid === undefined ? { class: cls } : { class: cls, "data-testid": testid }, text);

/** The rating (one decimal), with a `data-testid` from `testid` when given. */
export function ratingColumn<R extends RatingRow>(testid?: (r: R) => string): Column<R> {
  return { head: "Rating", num: true, cell: (r) => numCell(r.rating.toFixed(1), "num", testid?.(r)) };
}

/** The rating's uncertainty (the ± column). */
export function rdColumn<R extends RatingRow>(): Column<R> {
  return { head: "±", num: true, cell: (r) => numCell(r.rd.toFixed(0), "num muted") };
}

/** Games, wins, losses and draws. */
export function recordColumns<R extends RatingRow>(): Column<R>[] {
  return [
    { head: "Games", num: true, cell: (r) => numCell(String(r.games)) },
    { head: "W", num: true, cell: (r) => numCell(String(r.wins)) },
    { head: "L", num: true, cell: (r) => numCell(String(r.losses)) },
    { head: "D", num: true, cell: (r) => numCell(String(r.draws)) },
  ];
}

/** The table (`data-testid` `testid`); each row's own attributes from `rowAttrs`. */
export function ratingTable<R extends RatingRow>(testid: string, columns: Column<R>[], rows: R[], rowAttrs: (r: R) => Record<string, string>): HTMLElement {
  return h(
    "table",
    { class: "ladder", "data-testid": testid },
    h("thead", null, h("tr", null, columns.map((c) => h("th", { scope: "col", class: c.num ? "num" : "" }, c.head)))),
    h("tbody", null, rows.map((r) => h("tr", rowAttrs(r), columns.map((c) => c.cell(r))))),
  );
}
