// A player's page (#/player/NAME; the header links the logged-in player's own): the account's
// rating in each format it has played rated matches in (`get_profile`), and its matches, newest
// first, a page at a time (`get_history`), each with its result for the player and a link to
// its replay (or to watch it, while it is played).

import { END_REASONS } from "./actions";
import type { App } from "./app";
import { formatNamed } from "./deckrules";
import { h } from "./dom";
import type { MatchRow, ServerMessage } from "./proto";
import { type RatingRow, ratingColumn, ratingTable, rdColumn, recordColumns } from "./ratingtable";

const PAGE = 20;

interface Rated extends RatingRow {
  format: string;
  rank: number;
}

/** A row of `get_history`: a match row with the account's seat in it. */
type HistoryRow = MatchRow & { seat?: number; rated?: boolean };

export class ProfilePage {
  shown: string | null = null; // the name as registered (from `profile`)
  createdMs = 0;
  ratings: Rated[] = [];
  rows: HistoryRow[] = [];
  more = false;
  loading = false;
  error: string | null = null;
  /** The history pages asked for, in order (true: an older page, appended). */
  private asked: boolean[] = [];

  constructor(
    private readonly app: App,
    public readonly name: string,
  ) {}

  /** A (new) connection: ask for the profile and the newest matches. */
  resume(): void {
    this.asked = [];
    this.rows = [];
    this.app.session.send({ type: "get_profile", name: this.name });
    this.askHistory(false);
  }

  askHistory(older: boolean): void {
    const msg: Record<string, unknown> = { type: "get_history", name: this.name, limit: PAGE };
    const last = this.rows[this.rows.length - 1];
    if (older && last !== undefined) {
      msg["before_ms"] = last.created_ms;
      msg["before_id"] = last.match_id;
    }
    if (this.app.session.send(msg)) {
      this.asked.push(older && last !== undefined);
      this.loading = true;
    }
    this.app.renderSoon();
  }

  onProfile(msg: ServerMessage): void {
    this.shown = String(msg["name"]);
    this.createdMs = Number(msg["created_ms"]) || 0;
    this.ratings = Array.isArray(msg["ratings"]) ? (msg["ratings"] as Rated[]) : [];
  }

  onHistory(rows: HistoryRow[]): void {
    const older = this.asked.shift();
    if (older === undefined) return;
    this.loading = false;
    this.more = rows.length >= PAGE;
    if (older) {
      const have = new Set(this.rows.map((r) => r.match_id));
      this.rows.push(...rows.filter((r) => !have.has(r.match_id)));
    } else this.rows = rows;
  }

  onError(code: string, text: string): void {
    this.loading = false;
    this.asked = [];
    this.error = code === "account/not_found" ? `No player is named ${this.name}.` : text;
  }

  render(): HTMLElement {
    const app = this.app;
    const title = this.shown ?? this.name;
    const own = app.account.name !== null && this.shown === app.account.name;
    const ratings =
      this.ratings.length === 0
        ? h("p", { class: "muted", "data-testid": "no-ratings" }, this.shown === null ? "Loading…" : "No rated match played yet.")
        : ratingTable(
            "ratings",
            [
              { head: "Format", num: false, cell: (r) => h("td", null, h("a", { href: `#/ladder/${r.format}` }, formatNamed(app.cat, r.format).title)) },
              ratingColumn<Rated>((r) => `rating-${r.format}`),
              rdColumn(),
              { head: "Rank", num: true, cell: (r) => h("td", { class: "num" }, r.rank ? `#${r.rank}` : "–") },
              ...recordColumns(),
            ],
            this.ratings,
            (r) => ({ "data-format": r.format }),
          );
    const history =
      this.rows.length === 0
        ? h("p", { class: "muted" }, this.loading ? "Loading…" : "No matches yet.")
        : h("ul", { class: "matches", "data-list": "history" }, this.rows.map((r) => historyRow(r)));
    return h(
      "main",
      { class: "profile" },
      h(
        "section",
        { class: "panel" },
        h("h1", { "data-testid": "profile-name" }, title),
        this.error ? h("p", { class: "error", role: "alert", "data-testid": "profile-error" }, this.error) : null,
        this.createdMs ? h("p", { class: "muted small" }, `${own ? "Your account, " : ""}registered ${new Date(this.createdMs).toLocaleDateString()}.`) : null,
        h("h2", null, "Ratings"),
        ratings,
        h("h2", null, "Matches"),
        history,
        this.more ? h("button", { type: "button", class: "act small more", "data-key": "history-more", disabled: this.loading, onclick: () => this.askHistory(true) }, "Earlier matches…") : null,
      ),
    );
  }
}

function historyRow(r: HistoryRow): HTMLElement {
  const seat = r.seat ?? 0;
  const opponent = r.players?.[1 - seat] || "(nobody yet)";
  const w = r.winner;
  const result = r.status !== "finished" ? r.status : w === "draw" ? "draw" : w === seat ? "won" : w === 0 || w === 1 ? "lost" : "unfinished";
  const why = END_REASONS[r.end_reason ?? ""] ?? r.end_reason ?? "";
  const when = new Date(r.finished_ms ?? r.created_ms).toLocaleString();
  const link =
    r.status === "finished"
      ? h("a", { class: "act small", href: `#/replay/${r.match_id}`, "data-replay": r.match_id }, "Replay")
      : r.spectators
        ? h("a", { class: "act small", href: `#/watch/${r.match_id}`, "data-watch": r.match_id }, "Watch")
        : null;
  return h(
    "li",
    { "data-match": r.match_id, "data-result": result },
    h(
      "div",
      { class: "what" },
      h("span", { class: "mname" }, `vs ${opponent}`),
      h("span", { class: `result ${result}` }, ` · ${result}`),
      h("span", { class: "muted details" }, `${why && r.status === "finished" ? ` (${why})` : ""}${r.rated ? " · rated" : ""}${r.format && r.format !== "current" ? ` · ${r.format}` : ""} · ${when}`),
    ),
    h("div", { class: "row-acts" }, link),
  );
}
