// The lobby: a name, a format (the catalogue's formats: `current`, `goat`),
// a deck of that format (one of the server's demo decks, offered by title
// with its description, one built in the deck editor and kept in this
// browser, or a pasted decklist, `.ydk` list or `ydke://` link), a clock;
// play against the server's bot (which brings a demo deck of the format),
// create a match to share, quick match (paired with a player of the same
// format), join by id or link; the live matches (to join or watch) and the
// finished ones (to replay), a page at a time; a replay file to open.

import { END_REASONS, SEATS } from "./actions";
import type { App } from "./app";
import { parseDecklist } from "./cards";
import { checkDeck, deckFormats, formatNamed } from "./deckrules";
import { getDeck, loadDecks, type SavedDeck } from "./deckstore";
import { h } from "./dom";
import type { MatchRow } from "./proto";
import { replayFileInput } from "./replay";

const NAME_KEY = "duel.name";
const FORMAT_KEY = "duel.format";
const PAGE = 20;

type Status = "live" | "finished";

interface ListState {
  rows: MatchRow[];
  more: boolean; // the last page was full: there may be older rows
  loading: boolean;
}

/** The bot's level the player chose last (create_match.bot_level). */
const BOT_LEVEL_KEY = "duel.bot_level";

export type SeatRequest = "create" | "bot" | "quick" | "join";

export function loadName(): string {
  return localStorage.getItem(NAME_KEY) ?? "";
}

export class Lobby {
  lists: Record<Status, ListState> = {
    live: { rows: [], more: false, loading: false },
    finished: { rows: [], more: false, loading: false },
  };
  error: string | null = null;
  deckErrors: string[] = [];
  joinId: string | null = null;
  busy: string | null = null;
  form: Record<string, string> = { deck: "server", decklist: "", clock: "0", increment: "0", best_of: "1", bot_level: localStorage.getItem(BOT_LEVEL_KEY) ?? "normal", join_id: "", format: localStorage.getItem(FORMAT_KEY) ?? "current" };
  private sideDeck: number[] = []; // the Side Deck of the deck to send (a saved or pasted list's)
  /** The lists asked for, in order: one connection answers its requests in order. */
  private asked: { status: Status; older: boolean }[] = [];

  constructor(private readonly app: App) {}

  /** A new connection: answers to asks on the old one never come. */
  reset(): void {
    this.asked = [];
  }

  ask(status: Status, older = false): void {
    const list = this.lists[status];
    const msg: Record<string, unknown> = { type: "list_matches", status, limit: PAGE };
    const last = list.rows[list.rows.length - 1];
    if (older && last !== undefined) {
      // a tie-safe cursor: the last row's time and its id (rows of one millisecond are neither skipped nor repeated)
      msg["before_ms"] = status === "finished" ? (last.finished_ms ?? last.created_ms) : last.created_ms;
      msg["before_id"] = last.match_id;
    }
    if (this.app.session.send(msg)) {
      this.asked.push({ status, older: older && last !== undefined });
      list.loading = true;
    }
  }

  refresh(): void {
    this.ask("live");
    this.ask("finished");
  }

  onMatchList(rows: MatchRow[]): void {
    const asked = this.asked.shift();
    if (asked === undefined) return;
    const list = this.lists[asked.status];
    list.loading = false;
    list.more = rows.length >= PAGE;
    if (asked.older) {
      const have = new Set(list.rows.map((r) => r.match_id));
      list.rows.push(...rows.filter((r) => !have.has(r.match_id)));
    } else {
      list.rows = rows;
    }
  }

  /** The format the lobby makes matches of (one the catalogue lists; the default until it has loaded). */
  format(): string {
    return formatNamed(this.app.cat, this.form["format"]).name;
  }

  /** Choose a deck built in the deck editor (and its format) for the next match. */
  useDeck(deck: SavedDeck): void {
    this.form["format"] = deck.format;
    this.form["deck"] = `saved:${deck.id}`;
    localStorage.setItem(FORMAT_KEY, deck.format);
    this.deckErrors = [];
  }

  /** The deck to send: passcodes, null for the server's choice, false when the list has errors. */
  private deck(): number[] | null | false {
    const choice = this.form["deck"] ?? "server";
    const cat = this.app.cat;
    this.deckErrors = [];
    this.sideDeck = [];
    if ((choice === "paste" || choice.startsWith("saved:")) && !cat.loaded) {
      this.deckErrors = ["the card list is still loading from the server; try again in a moment"];
      return false;
    }
    const fmt = formatNamed(cat, this.form["format"]);
    if (choice === "paste") {
      const parsed = parseDecklist(this.form["decklist"] ?? "", cat, fmt);
      this.deckErrors = parsed.errors;
      this.sideDeck = parsed.deck.side;
      return parsed.errors.length ? false : parsed.cards;
    }
    if (choice.startsWith("saved:")) {
      const saved = getDeck(choice.slice(6));
      if (saved === null) {
        this.deckErrors = ["that deck is no longer kept in this browser; choose another"];
        return false;
      }
      this.deckErrors = checkDeck(saved, fmt, cat).map((p) => `${saved.name || "Untitled deck"}: ${p}`);
      this.sideDeck = [...saved.side];
      return this.deckErrors.length ? false : [...saved.main, ...saved.extra];
    }
    if (choice.startsWith("demo:")) return cat.decks.find((d) => d.name === choice.slice(5))?.cards ?? null;
    return null;
  }

  /** A rated quick match is asked for (and may be: logged in). */
  private rated(): boolean {
    return this.form["rated"] === "1" && this.app.account.name !== null;
  }

  private saveName(): string {
    const name = this.app.name.trim().slice(0, 32);
    this.app.name = name;
    localStorage.setItem(NAME_KEY, name);
    return name;
  }

  start(kind: SeatRequest): void {
    const deck = this.deck();
    if (deck === false) {
      this.app.render();
      return;
    }
    const f = this.form;
    // a rated match shows the account's name (the ladder's); otherwise the name typed, or the account's
    const account = this.app.account.name;
    const msg: Record<string, unknown> = { deck, name: (kind === "quick" && this.rated() ? account : null) ?? (this.saveName() || account || "Duelist") };
    if (this.sideDeck.length) msg["side"] = this.sideDeck; // matches of several duels side from it
    if (kind === "create" || kind === "bot") {
      msg["type"] = "create_match";
      const clock = Number(f["clock"] ?? 0);
      if (clock > 0) {
        msg["clock_ms"] = clock * 1000;
        msg["increment_ms"] = Number(f["increment"] ?? 0) * 1000;
      }
      if (kind === "bot") {
        msg["opponent"] = "bot";
        msg["bot_level"] = f["bot_level"] ?? "normal"; // how it plays (PROTOCOL.md: create_match.bot_level)
        localStorage.setItem(BOT_LEVEL_KEY, msg["bot_level"] as string);
      }
      msg["best_of"] = Number(f["best_of"] ?? 1); // 1, 3 or 5 duels (PROTOCOL.md section 5b)
      msg["format"] = this.format();
    } else if (kind === "quick") {
      msg["type"] = "quick_match";
      msg["format"] = this.format();
      if (this.rated()) msg["rated"] = true; // paired by rating, on the ladder (account.ts logs the connection in)
    } else {
      msg["type"] = "join";
      msg["match_id"] = (this.joinId ?? f["join_id"] ?? "").trim();
    }
    this.error = null;
    this.busy = kind === "quick" && this.rated() ? "Looking for an opponent of your rating…" : busyText(kind);
    this.app.session.ask(msg);
    this.app.render();
  }

  render(): HTMLElement {
    const app = this.app;
    const f = this.form;
    const bind = (field: string) => (e: Event) => {
      const el = e.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
      if (field === "name") app.name = el.value;
      else f[field] = el.value;
      if (field === "format") {
        localStorage.setItem(FORMAT_KEY, el.value);
        f["deck"] = "server"; // the decks offered are the format's
        this.deckErrors = [];
      }
      if (field === "deck" || field === "format") app.render();
    };
    const select = (id: string, options: [string, string][]) => {
      const el = h("select", { id, name: id, "data-key": id, onchange: bind(id) }, options.map(([v, label]) => h("option", { value: v }, label)));
      el.value = f[id] ?? options[0]?.[0] ?? "";
      return el;
    };
    const deckOption = (value: string, title: string, description: string | null) =>
      h(
        "label",
        { class: `deck-option${f["deck"] === value ? " chosen" : ""}` },
        h("input", { type: "radio", name: "deck", value, "data-key": `deck-${value}`, checked: f["deck"] === value, onchange: bind("deck") }),
        h("span", { class: "deck-title" }, title),
        description ? h("span", { class: "deck-desc", title: description }, description) : null,
      );
    const fmt = formatNamed(app.cat, f["format"]);
    const formats = deckFormats(app.cat);
    const formatField = h(
      "div",
      { class: "field" },
      h("label", { for: "format" }, "Format"),
      select("format", formats.map((x) => [x.name, x.title])),
      fmt.info.description ? h("p", { class: "muted small", "data-testid": "format-desc" }, fmt.info.description) : null,
    );
    const mine = loadDecks().filter((d) => d.format === fmt.name);
    const decks = h(
      "fieldset",
      { class: "decks", "data-testid": "decks" },
      h("legend", null, `Deck (${fmt.title})`),
      deckOption("server", "The server's choice", `A demo deck of ${fmt.title} picked by the server.`),
      // the format's playable demo decks (docs/formats.md)
      app.cat.decks
        .filter((d) => (d.format ?? "current") === fmt.name && d.playable !== false)
        .map((d) => deckOption(`demo:${d.name}`, d.title || d.name, d.description || null)),
      !app.cat.loaded ? h("p", { class: "muted" }, "Loading the demo decks…") : null,
      mine.map((d) => deckOption(`saved:${d.id}`, `${d.name || "Untitled deck"} (yours)`, `Built in the deck editor: ${d.main.length} Main, ${d.extra.length} ${fmt.extraName}, ${d.side.length} Side.`)),
      deckOption("paste", "Paste a decklist…", "A .ydk list, a ydke:// link, or card names."),
      h("p", { class: "editor-link" }, h("a", { href: "#/decks", "data-key": "open-editor" }, "Build or edit your decks in the deck editor…")),
    );
    const btn = (kind: SeatRequest, label: string, primary = false) =>
      h("button", { type: "button", class: `act${primary ? " primary" : ""}`, "data-key": `lobby-${kind}-${label}`, "data-lobby": kind, disabled: this.busy !== null, onclick: () => this.start(kind) }, label);
    const form = h(
      "form",
      { class: "lobby-form", "aria-label": "start a duel", onsubmit: (e: Event) => { e.preventDefault(); this.start(this.joinId !== null ? "join" : "bot"); } },
      h("div", { class: "field" }, h("label", { for: "name" }, "Your name"), h("input", { id: "name", name: "name", maxlength: 32, autocomplete: "nickname", value: app.name, "data-key": "name", placeholder: "Duelist", oninput: bind("name") })),
      formatField,
      decks,
      f["deck"] === "paste"
        ? h(
            "div",
            { class: "paste" },
            h("label", { for: "decklist" }, "Decklist"),
            h("textarea", {
              name: "decklist",
              id: "decklist",
              rows: 8,
              "data-key": "decklist",
              value: f["decklist"] ?? "",
              oninput: bind("decklist"),
              placeholder: "A .ydk list (#main, #extra, !side), a ydke:// link, or one card a line: a passcode or a name, optionally with a count\n3 Honest\n37742478\nBlue-Eyes White Dragon x2",
              "aria-describedby": "deck-errors",
            }),
          )
        : null,
      this.deckErrors.length ? h("ul", { class: "errors", id: "deck-errors", role: "alert" }, this.deckErrors.map((e) => h("li", null, e))) : h("div", { id: "deck-errors" }),
      h(
        "div",
        { class: "field row2" },
        h("span", null, h("label", { for: "clock" }, "Chess clock"), select("clock", [["0", "none"], ["60", "1 minute"], ["300", "5 minutes"], ["600", "10 minutes"], ["1800", "30 minutes"]])),
        h("span", null, h("label", { for: "increment" }, "Increment"), select("increment", [["0", "none"], ["2", "+2 s"], ["5", "+5 s"], ["10", "+10 s"]])),
      ),
      h("div", { class: "field" }, h("label", { for: "best_of" }, "Match"), select("best_of", [["1", "one duel"], ["3", "best of 3 (siding between duels)"], ["5", "best of 5"]])),
      h(
        "div",
        { class: "field" },
        h("label", { for: "bot_level" }, "The bot plays"),
        select("bot_level", [
          ["beginner", "as a beginner (uses its cards, looks ahead at nothing)"],
          ["quick", "quickly (looks ahead 0.1 s a decision)"],
          ["normal", "well (looks ahead 0.5 s a decision)"],
          ["strong", "its best (looks ahead 1.5 s a decision)"],
        ]),
      ),
      this.joinId !== null ? h("div", { class: "joinbox" }, h("p", null, `You were invited to match ${this.joinId}.`), btn("join", "Join this match", true)) : null,
      h("div", { class: "buttons" }, btn("bot", "Play against the bot", this.joinId === null), btn("create", "Create a match (invite a friend)"), btn("quick", "Quick match")),
      app.account.name !== null
        ? h("label", { class: "inline rated-opt" }, h("input", { type: "checkbox", "data-key": "rated", checked: f["rated"] === "1", onchange: (e: Event) => (f["rated"] = (e.target as HTMLInputElement).checked ? "1" : "") }), " Rated quick match: paired by rating, on the ladder")
        : h("p", { class: "muted small" }, h("a", { href: "#/account" }, "Log in"), " to play rated quick matches on the ladder."),
      h(
        "details",
        { class: "joinbyid", open: (f["join_id"] ?? "") !== "" },
        h("summary", null, "Join by match id"),
        h("label", { for: "join_id" }, "Match id"),
        h("input", { id: "join_id", name: "join_id", "data-key": "join-id", value: f["join_id"] ?? "", oninput: bind("join_id") }),
        btn("join", "Join"),
      ),
      h(
        "details",
        { class: "joinbyid" },
        h("summary", null, "Resume a seat with its token"),
        h("label", { for: "seat_token" }, "Seat token (from a puzzle or `duel play`)"),
        h("input", { id: "seat_token", name: "seat_token", "data-key": "seat-token", value: f["seat_token"] ?? "", oninput: bind("seat_token") }),
        h("button", { type: "button", class: "act", "data-key": "resume", onclick: () => app.go(`#/seat/${encodeURIComponent((f["seat_token"] ?? "").trim())}`) }, "Take the seat"),
      ),
    );
    return h(
      "main",
      { class: "lobby" },
      h("section", { class: "panel" }, h("h1", null, "Duel in the browser"), this.busy ? h("p", { class: "busy", role: "status" }, this.busy) : null, this.error ? h("p", { class: "error", role: "alert" }, this.error) : null, form),
      h(
        "section",
        { class: "panel" },
        h("h2", null, "Live matches"),
        this.renderList("live"),
        h("h2", null, "Finished matches"),
        this.renderList("finished"),
        h("button", { type: "button", class: "act small", "data-key": "refresh", onclick: () => this.refresh() }, "Refresh the lists"),
        h("h2", null, "Replay files"),
        h("p", { class: "muted" }, "A match's replay file (from its replay, or `duel export`) plays back here, checked by the server."),
        replayFileInput(app, "replay-file-input", "Open a replay file"),
      ),
    );
  }

  private renderList(status: Status): HTMLElement {
    const list = this.lists[status];
    const kind = status === "live" ? "watch" : "replay";
    const more = list.more
      ? h("button", { type: "button", class: "act small more", "data-key": `more-${status}`, "data-more": status, disabled: list.loading, onclick: () => this.ask(status, true) }, status === "live" ? "Older matches…" : "Earlier finished matches…")
      : null;
    if (list.rows.length === 0) {
      return h("p", { class: "muted" }, list.loading ? "Loading…" : status === "live" ? "No live matches right now." : "No finished matches yet.");
    }
    return h(
      "div",
      null,
      h("ul", { class: "matches", "data-list": kind }, list.rows.map((r) => (status === "live" ? liveRow(r) : finishedRow(r)))),
      more,
    );
  }
}

function busyText(kind: SeatRequest): string {
  return kind === "bot" ? "Starting a duel against the bot…" : kind === "quick" ? "Looking for an opponent…" : kind === "join" ? "Joining…" : "Creating the match…";
}

/** " · goat" for a match of another format than the default. */
function formatTag(r: MatchRow): string {
  return r.format && r.format !== "current" ? ` · ${r.format}` : "";
}

function who(r: MatchRow, seat: number): string {
  const n = r.players?.[seat] ?? "";
  if (n) return n;
  return r.status === "waiting" && seat === 1 ? "(open seat)" : (SEATS[seat] ?? "?");
}

function liveRow(r: MatchRow): HTMLElement {
  return h(
    "li",
    { "data-match": r.match_id },
    h(
      "div",
      { class: "what" },
      h("span", { class: "mname" }, `${who(r, 0)} vs ${who(r, 1)}`),
      h("span", { class: "muted details" }, ` ${r.status}${formatTag(r)} · ${r.seq} entries · since ${new Date(r.created_ms).toLocaleTimeString()}`),
    ),
    h(
      "div",
      { class: "row-acts" },
      r.status === "waiting" ? h("a", { class: "act small", href: `#/join/${r.match_id}`, "data-join": r.match_id }, "Join") : null,
      r.spectators ? h("a", { class: "act small", href: `#/watch/${r.match_id}`, "data-watch": r.match_id }, `Watch${r.spectator_delay ? ` (${r.spectator_delay} behind)` : ""}`) : null,
    ),
  );
}

function finishedRow(r: MatchRow): HTMLElement {
  const w = r.winner;
  const result = w === "draw" ? "draw" : w === 0 || w === 1 ? `${who(r, w)} won` : "unfinished";
  const why = END_REASONS[r.end_reason ?? ""] ?? r.end_reason ?? "";
  const when = r.finished_ms ? new Date(r.finished_ms).toLocaleString() : "";
  return h(
    "li",
    { "data-match": r.match_id },
    h(
      "div",
      { class: "what" },
      h("span", { class: "mname" }, `${who(r, 0)} vs ${who(r, 1)}`),
      h("span", { class: "result" }, ` · ${result}`),
      h("span", { class: "muted details" }, `${why ? ` (${why})` : ""}${formatTag(r)} · ${r.turns === 1 ? "1 turn" : `${r.turns ?? "?"} turns`}, ${r.length ?? r.seq} entries${when ? ` · ${when}` : ""}`),
    ),
    h("div", { class: "row-acts" }, h("a", { class: "act small", href: `#/replay/${r.match_id}`, "data-replay": r.match_id }, "Replay")),
  );
}
