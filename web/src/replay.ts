// The replay viewer: a finished match, fetched in pages (`get_replay` with
// `views`), from one viewpoint: everything, A's, B's or a spectator's. The
// board is the server's view after each entry, the log the server's story
// lines up to it; nothing is recomputed here. Switching the viewpoint asks
// the server again and keeps the position.

import { SEATS } from "./actions";
import type { App } from "./app";
import { renderBoard, type BoardHooks, type BoardModel } from "./board";
import { h, Kept } from "./dom";
import { SidePanel, storyLines, type LogLine } from "./log";
import type { ReplayEntry, ReplayPage } from "./proto";

export type Viewpoint = "all" | "0" | "1" | "spectator";

const PAGE = 100;
const STEP_MS = 700;

export interface ReplayState {
  matchId: string;
  viewpoint: Viewpoint;
  entries: ReplayEntry[];
  total: number | null;
  nextSeq: number | null; // the first entry not fetched yet (null: all fetched)
  loading: boolean;
  error: string | null;
  index: number;
  playing: boolean;
  names: string[];
  result: ReplayPage["result"];
  keepSeq: number | null; // after a viewpoint switch: the entry to show again
}

export class ReplayViewer {
  readonly r: ReplayState;
  private playTimer: number | null = null;
  readonly side = new SidePanel();
  private readonly kept = new Kept();
  private log: LogLine[] = []; // every story line of the entries fetched
  private logUpTo: number[] = []; // logUpTo[i]: how many lines entries 0..i tell

  constructor(
    private readonly app: App,
    matchId: string,
  ) {
    this.r = { matchId, viewpoint: "all", entries: [], total: null, nextSeq: 1, loading: true, error: null, index: 0, playing: false, names: ["", ""], result: null, keepSeq: null };
  }

  /** After a (re)handshake: fetch from where the pages stopped. */
  resume(): void {
    if (this.r.nextSeq !== null) this.ask(this.r.nextSeq);
  }

  stop(): void {
    this.pause();
  }

  private ask(fromSeq: number): void {
    const r = this.r;
    r.loading = true;
    this.app.session.send({ type: "get_replay", match_id: r.matchId, viewpoint: r.viewpoint, from_seq: fromSeq, limit: PAGE, views: true });
  }

  onPage(page: ReplayPage): void {
    const r = this.r;
    if (page.match_id !== r.matchId || page.viewpoint !== r.viewpoint) return; // an answer for the viewpoint before a switch
    const have = new Set(r.entries.map((e) => e.seq));
    for (const e of page.entries) if (!have.has(e.seq)) r.entries.push(e);
    r.entries.sort((a, b) => a.seq - b.seq);
    this.relog();
    r.total = page.total;
    r.nextSeq = page.next_seq;
    page.players.forEach((p, i) => {
      if (p) r.names[i] = p;
    });
    r.result = page.result;
    r.error = null;
    if (r.keepSeq !== null) {
      const keep = r.keepSeq;
      const i = r.entries.findIndex((e) => e.seq >= keep);
      if (i >= 0 || r.nextSeq === null) {
        r.index = i < 0 ? Math.max(0, r.entries.length - 1) : i;
        r.keepSeq = null;
      }
    }
    // the next page right away: the viewer is usable from the first one
    if (r.nextSeq !== null) this.ask(r.nextSeq);
    else r.loading = false;
  }

  onError(text: string): void {
    this.r.error = text;
    this.r.loading = false;
  }

  setViewpoint(v: Viewpoint): void {
    const r = this.r;
    if (r.viewpoint === v) return;
    r.keepSeq = r.entries[r.index]?.seq ?? 1;
    r.viewpoint = v;
    r.entries = [];
    this.relog();
    r.nextSeq = 1;
    this.ask(1);
    this.app.render();
  }

  private relog(): void {
    this.log = [];
    this.logUpTo = [];
    for (const e of this.r.entries) {
      this.log.push(...storyLines(e.seq, e.story));
      this.logUpTo.push(this.log.length);
    }
  }

  step(to: number): void {
    const r = this.r;
    if (r.entries.length === 0) return;
    r.index = Math.max(0, Math.min(r.entries.length - 1, to));
    if (r.index === r.entries.length - 1 && r.nextSeq === null) this.pause();
    this.app.render();
  }

  togglePlay(): void {
    const r = this.r;
    if (r.playing) {
      this.pause();
    } else {
      r.playing = true;
      if (r.index >= r.entries.length - 1) r.index = 0;
      this.playTimer = window.setInterval(() => this.step(this.r.index + 1), STEP_MS);
    }
    this.app.render();
  }

  private pause(): void {
    if (this.playTimer !== null) window.clearInterval(this.playTimer);
    this.playTimer = null;
    this.r.playing = false;
  }

  private nameOf(seat: number): string {
    return this.r.names[seat] || (SEATS[seat] ?? "?");
  }

  /** "A (Ann)", or "A" when the seat has no name. */
  private who(seat: number): string {
    const letter = SEATS[seat] ?? "?";
    const name = this.r.names[seat] ?? "";
    return name && name !== letter ? `${letter} (${name})` : letter;
  }

  private hooks(): BoardHooks {
    const view = this.r.entries[this.r.index]?.view ?? null;
    return {
      send: () => undefined,
      select: () => undefined,
      retarget: () => undefined,
      openCard: (card) => {
        if (view) this.app.dialogs.card(view, card, []);
      },
      openPile: (seat, zone) => {
        if (view) this.app.dialogs.pile(view, seat, zone, []);
      },
      hover: (card) => this.app.hover(card),
      concede: () => undefined,
      autoPass: () => undefined,
      openChoice: () => undefined,
    };
  }

  render(): HTMLElement {
    const r = this.r;
    const entry = r.entries[r.index];
    const view = entry?.view ?? null;
    const turns: { turn: number; index: number }[] = [];
    r.entries.forEach((e, i) => {
      for (const f of e.facts) if (f.t === "turn") turns.push({ turn: Number(f["turn"]), index: i });
    });

    const vp = h(
      "select",
      { id: "viewpoint", "data-key": "viewpoint", onchange: (e: Event) => this.setViewpoint((e.target as HTMLSelectElement).value as Viewpoint) },
      [
        h("option", { value: "all" }, "Everything (all cards revealed)"),
        h("option", { value: "0" }, `A's view (${this.nameOf(0)})`),
        h("option", { value: "1" }, `B's view (${this.nameOf(1)})`),
        h("option", { value: "spectator" }, "A spectator's view"),
      ],
    );
    vp.value = r.viewpoint;
    const turnSel = h(
      "select",
      { id: "jump", "data-key": "jump", onchange: (e: Event) => this.step(Number((e.target as HTMLSelectElement).value)) },
      [h("option", { value: "" }, "Jump to turn…"), ...turns.map((t) => h("option", { value: t.index }, `Turn ${t.turn}`))],
    );
    const n = r.entries.length;
    const ctl = (what: string, label: string, disabled: boolean, onclick: () => void, primary = false) =>
      h("button", { type: "button", class: `act${primary ? " primary" : ""}`, "data-key": `rp-${what}`, "data-replay-ctl": what, disabled, onclick }, label);
    const controls = h(
      "div",
      { class: "replay-controls", role: "toolbar", "aria-label": "replay controls" },
      ctl("first", "|◀ Start", n === 0 || r.index === 0, () => this.step(0)),
      ctl("back", "◀ Step back", n === 0 || r.index === 0, () => this.step(r.index - 1)),
      ctl("play", r.playing ? "Pause" : "▶ Play", n === 0, () => this.togglePlay(), true),
      ctl("forward", "Step forward ▶", n === 0 || r.index >= n - 1, () => this.step(r.index + 1)),
      ctl("last", "End ▶|", n === 0 || r.index >= n - 1, () => this.step(n - 1)),
      h("label", { for: "jump", class: "sr-only" }, "Jump to turn"),
      turnSel,
      h("span", { class: "vp" }, h("label", { for: "viewpoint" }, "Viewpoint"), vp),
      h("a", { class: "act small", href: `/replays/${encodeURIComponent(r.matchId)}.duelreplay`, download: `${r.matchId}.duelreplay`, "data-testid": "replay-file" }, "Download the replay file"),
      h(
        "span",
        { class: "pos", "data-testid": "replay-pos" },
        n ? `entry ${entry?.seq ?? "?"} of ${r.total ?? n}${r.nextSeq !== null ? ` (loaded ${n})` : ""}` : r.loading ? "loading…" : "no entries",
      ),
    );
    let board: HTMLElement;
    if (view) {
      const me = r.viewpoint === "0" || r.viewpoint === "1" ? Number(r.viewpoint) : null;
      const prev = r.entries[r.index - 1]?.view ?? null;
      const model: BoardModel = {
        view,
        me,
        bottom: me ?? 0,
        legal: [],
        pending: view.pending ?? null,
        seats: [0, 1].map((seat) => {
          const was = prev?.players[seat]?.lp;
          const now = view.players[seat]?.lp;
          return {
            name: this.nameOf(seat),
            lpDelta: was !== undefined && now !== undefined && was !== now ? now - was : null,
            lpDeltaFresh: true,
            clockMs: null,
            clockRunning: false,
            connected: null,
          };
        }),
        interactive: false,
        busy: false,
        selecting: null,
        retargeting: false,
        autoPass: false,
      };
      board = renderBoard(model, this.app.cat, this.hooks());
    } else {
      board = h("p", { class: "muted" }, r.loading ? "Loading the replay…" : n > 0 ? "No board for this entry." : "");
    }
    const result = r.result ? (r.result.winner === "draw" ? "a draw" : `${this.who(r.result.winner)} won`) : null;
    return this.kept.render(
      { class: "match replay", "data-replay-index": r.index, "data-replay-seq": entry?.seq ?? 0 },
      h(
        "div",
        { class: "board-wrap" },
        h("h1", { class: "replay-title" }, `Replay: ${this.nameOf(0)} vs ${this.nameOf(1)}`, result ? h("span", { class: "muted" }, ` · ${result}`) : null),
        r.error ? h("p", { class: "error", role: "alert" }, r.error) : null,
        controls,
        board,
      ),
      this.side.update(this.app.cat, this.app.hovered, this.log.slice(0, this.logUpTo[r.index] ?? 0), entry?.seq ?? 0),
    );
  }
}
