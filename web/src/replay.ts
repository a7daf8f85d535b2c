// The replay viewer: a finished match, fetched in pages (`get_replay` with
// `views`), from one viewpoint: everything, A's, B's or a spectator's. The
// board is the server's view after each entry, the log the server's story
// lines up to it; nothing is recomputed here. Switching the viewpoint asks
// the server again and keeps the position.
//
// A replay file (docs/replay-format.md) the user opens (a file input, or
// dropped onto the page) plays back the same way: its bytes go to the server
// in parts (`upload_replay`, paced under the server's rate limit), which reads
// and checks it (`replay_loaded`, or `replay/invalid` or `replay/too_large` with
// its reason; `replay/busy`: sent again a moment later) and then pages through
// it like a stored match (`get_replay` with `upload_id`).
// The upload belongs to the connection: after a reconnect it is sent again.

import { END_REASONS, SEATS } from "./actions";
import type { App } from "./app";
import { lastLpChanges, renderBoard, type BoardHooks, type BoardModel } from "./board";
import { Story } from "./story";
import { h, Kept } from "./dom";
import { SidePanel, storyLines, type LogLine } from "./log";
import { randomId, type ReplayEntry, type ReplayMatch, type ReplayPage, type ServerMessage } from "./proto";

export type Viewpoint = "all" | "0" | "1" | "spectator";

const PAGE = 100;
const STEP_MS = 700; // an entry's time on screen when playing at 1×
const STORY_STEPS = 20; // a step forward of at most this many entries (skipping passes) tells their story
export const SPEEDS = [0.5, 1, 2, 4, 8];
const SPEED_KEY = "duel.replay.speed";
const SKIP_KEY = "duel.replay.skip_passes";

/** An entry in which nothing happened but passing (a pass, the priority it moved, the window it
 * closed): what "skip passes" steps over. */
export function onlyPasses(e: ReplayEntry): boolean {
  // "event" (the window a pass closed) is only in the log's own facts (viewpoint "all")
  return e.facts.length > 0 && e.facts.every((f) => f.t === "passed" || f.t === "priority" || (f.t as string) === "event");
}
/** Bytes per part: 3000 bytes are exactly 4000 base64 characters (PROTOCOL: at most 4000). */
const PART_BYTES = 3000;
const MAX_PARTS = 1024;
/** Attempts at an upload the server refused for the rate (each on a fresh connection). */
const MAX_UPLOAD_ATTEMPTS = 3;
/** Times in a row a page the server refused for the rate is asked again (a moment later each time). */
const MAX_PAGE_RETRIES = 5;

/** A replay file being sent to the server, or sent. */
export interface ReplayFile {
  name: string;
  size: number;
  parts: number;
  sent: number; // parts sent on this connection
  uploadId: string;
  /** The server read it (`replay_loaded`): the rules that recorded it, and whether it is signed. */
  loaded: { rulesVersion: string; sameRules: boolean; signed: boolean; total: number } | null;
  /** The server refused it (`replay/invalid`): its reason, verbatim. */
  error: string | null;
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The file's provenance in plain words. */
export function fileStatus(f: ReplayFile): string {
  const l = f.loaded;
  if (l === null) return f.sent < f.parts ? `Sending the file to the server: part ${f.sent} of ${f.parts}…` : "The server is reading the file…";
  const rules = l.sameRules
    ? "Recorded by the rules this server runs: every entry's state was checked."
    : `Recorded by another version of the rules (${l.rulesVersion || "unknown"}): played back from its record, not re-checked against today's rules.`;
  const signed = l.signed ? "Signed by this server." : "Not signed by this server: its entries hold together, but where it comes from cannot be checked.";
  return `${rules} ${signed}`;
}

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
  file: ReplayFile | null; // a replay file the user opened (null: a stored match)
  speed: number; // playing: entries per 700 ms (0.5× ... 8×)
  skipPasses: boolean; // play and step over the entries where nothing but passing happened
  match: ReplayMatch | null; // a duel of a match of several duels: the match (its duels in order)
}

function savedSpeed(): number {
  const s = Number(localStorage.getItem(SPEED_KEY) ?? 1);
  return SPEEDS.includes(s) ? s : 1;
}

export class ReplayViewer {
  readonly r: ReplayState;
  private playTimer: number | null = null;
  readonly side = new SidePanel();
  private readonly kept = new Kept();
  private readonly story = new Story();
  private storyAt: { index: number; viewpoint: string } = { index: -1, viewpoint: "" };
  private log: LogLine[] = []; // every story line of the entries fetched
  private logUpTo: number[] = []; // logUpTo[i]: how many lines entries 0..i tell

  private bytes: Uint8Array | null = null;
  private uploadTimer: number | null = null;
  private pageTimer: number | null = null;
  /** Pages refused for the rate in a row (the page-by-page estimate of the rate can be early:
   * frames held up on the way reach the server together). */
  private pageRetries = 0;
  private uploadGen = 0;
  private attempts = 0;

  /** A stored match (`matchId`), or the replay file `file` (its name and bytes); neither: the
   * page was reloaded on a file's replay, whose bytes are gone: it asks for the file. */
  constructor(
    private readonly app: App,
    matchId: string,
    file: { name: string; bytes: Uint8Array } | null = null,
  ) {
    this.r = { matchId, viewpoint: "all", entries: [], total: null, nextSeq: 1, loading: matchId !== "" || file !== null, error: null, index: 0, playing: false, names: ["", ""], result: null, keepSeq: null, file: null, speed: savedSpeed(), skipPasses: localStorage.getItem(SKIP_KEY) === "on", match: null };
    if (file !== null) {
      this.bytes = file.bytes;
      const parts = Math.max(1, Math.ceil(file.bytes.length / PART_BYTES));
      this.r.file = { name: file.name, size: file.bytes.length, parts, sent: 0, uploadId: "", loaded: null, error: null };
      if (parts > MAX_PARTS) {
        this.r.file.error = `the file is ${(file.bytes.length / 1e6).toFixed(1)} MB; the server takes files of at most ${(MAX_PARTS * PART_BYTES) / 1e6} MB`;
        this.r.loading = false;
      }
    }
  }

  /** A file's replay: nothing from a stored match. */
  get isFile(): boolean {
    return this.r.file !== null || this.r.matchId === "";
  }

  /** After a (re)handshake: fetch from where the pages stopped (a file: send it again first,
   * since an upload lives on its connection only). */
  resume(): void {
    const f = this.r.file;
    if (f !== null) {
      if (f.error === null) this.upload();
      return;
    }
    this.clearPageTimer();
    if (this.r.matchId !== "" && this.r.nextSeq !== null) this.ask(this.r.nextSeq);
  }

  stop(): void {
    this.pause();
    this.stopUpload();
    this.clearPageTimer();
  }

  private ask(fromSeq: number): void {
    const r = this.r;
    r.loading = true;
    const msg: Record<string, unknown> = { type: "get_replay", match_id: r.matchId, viewpoint: r.viewpoint, from_seq: fromSeq, limit: PAGE, views: true };
    if (r.file !== null) msg["upload_id"] = r.file.uploadId;
    this.app.session.send(msg);
  }

  /** The next page, when the server's rate limit allows. */
  private askPaced(fromSeq: number): void {
    this.clearPageTimer();
    const wait = this.app.session.paceMs();
    if (wait === 0) {
      this.ask(fromSeq);
      return;
    }
    this.r.loading = true;
    this.pageTimer = window.setTimeout(() => {
      this.pageTimer = null;
      if (this.r.nextSeq === fromSeq) this.ask(fromSeq);
    }, wait);
  }

  private clearPageTimer(): void {
    if (this.pageTimer !== null) window.clearTimeout(this.pageTimer);
    this.pageTimer = null;
  }

  // ------------------------------------------------------------ a replay file

  private stopUpload(): void {
    this.uploadGen += 1;
    if (this.uploadTimer !== null) window.clearTimeout(this.uploadTimer);
    this.uploadTimer = null;
  }

  /** Send the file from its first part, on this connection. */
  private upload(): void {
    const f = this.r.file;
    if (f === null || this.bytes === null) return;
    this.stopUpload();
    this.clearPageTimer();
    f.uploadId = `f${randomId(12)}`;
    f.sent = 0;
    f.loaded = null;
    this.r.loading = true;
    this.pump(this.uploadGen);
  }

  /** Send the parts as fast as the server's rate limit allows, then wait for its answer. */
  private pump(gen: number): void {
    this.uploadTimer = null;
    const f = this.r.file;
    const bytes = this.bytes;
    if (gen !== this.uploadGen || f === null || bytes === null || f.error !== null) return;
    while (f.sent < f.parts) {
      const wait = this.app.session.paceMs();
      if (wait > 0) {
        this.uploadTimer = window.setTimeout(() => this.pump(gen), wait);
        break;
      }
      const part = base64(bytes.subarray(f.sent * PART_BYTES, (f.sent + 1) * PART_BYTES));
      if (!this.app.session.send({ type: "upload_replay", upload_id: f.uploadId, index: f.sent, total: f.parts, part })) return; // not connected: resume() sends it again
      f.sent += 1;
    }
    this.app.renderSoon();
  }

  /** The server read the file: page through it like a stored match. */
  onLoaded(msg: ServerMessage): void {
    const r = this.r;
    const f = r.file;
    if (f === null || msg["upload_id"] !== f.uploadId) return;
    this.attempts = 0;
    f.loaded = {
      rulesVersion: String(msg["rules_version"] ?? ""),
      sameRules: Boolean(msg["same_rules"]),
      signed: Boolean(msg["signed"]),
      total: Number(msg["total"] ?? 0),
    };
    const matchId = String(msg["match_id"] ?? "");
    if (matchId !== r.matchId) {
      r.matchId = matchId;
      r.entries = [];
      r.nextSeq = 1;
      this.relog();
    }
    r.total = f.loaded.total;
    const players = msg["players"];
    if (Array.isArray(players)) players.forEach((p, i) => {
      if (typeof p === "string" && p) r.names[i] = p;
    });
    const result = msg["result"] as { winner?: unknown; reason?: unknown } | null | undefined;
    if (result && (result.winner === 0 || result.winner === 1 || result.winner === "draw")) r.result = { winner: result.winner, reason: String(result.reason ?? "") };
    this.clearPageTimer();
    if (r.nextSeq !== null) this.ask(r.nextSeq);
    else r.loading = false;
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
    if (page.match) r.match = page.match;
    r.error = null;
    this.pageRetries = 0;
    if (r.keepSeq !== null) {
      const keep = r.keepSeq;
      const i = r.entries.findIndex((e) => e.seq >= keep);
      if (i >= 0 || r.nextSeq === null) {
        r.index = i < 0 ? Math.max(0, r.entries.length - 1) : i;
        r.keepSeq = null;
      }
    }
    // the next page right away (paced: a long replay is many requests): the viewer is usable from the first one
    if (r.nextSeq !== null) this.askPaced(r.nextSeq);
    else r.loading = false;
  }

  onError(code: string, reason: string, text: string): void {
    const f = this.r.file;
    if (f !== null && f.loaded === null) {
      if ((code === "rate/limited" || code === "replay/busy") && this.attempts < MAX_UPLOAD_ATTEMPTS) {
        // a part was refused for the rate (the parts after it would be out of order), or the
        // server reads as many files as it can now: start again on a fresh connection, a moment later
        this.attempts += 1;
        this.stopUpload();
        this.uploadTimer = window.setTimeout(() => this.app.session.open(), 1000 * this.attempts);
        return;
      }
      if (code === "replay/invalid" || code === "replay/too_large" || code === "replay/busy" || code === "rate/limited") {
        this.stopUpload();
        f.error = code === "rate/limited" ? `its parts came too fast for the server (${reason}); open it again` : reason;
        this.r.loading = false;
        return;
      }
    }
    const seq = this.r.nextSeq;
    if (code === "rate/limited" && seq !== null && this.pageRetries < MAX_PAGE_RETRIES) {
      // a page asked for too soon: ask for it again a moment later (not an error the viewer must see)
      this.pageRetries += 1;
      this.clearPageTimer();
      this.r.loading = true;
      this.pageTimer = window.setTimeout(() => {
        this.pageTimer = null;
        if (this.r.nextSeq === seq) this.ask(seq);
      }, 600 * this.pageRetries);
      return;
    }
    if (f !== null && code === "match/not_found" && f.error === null && this.attempts < MAX_UPLOAD_ATTEMPTS) {
      this.attempts += 1;
      this.upload(); // the server no longer has the upload: send it again
      return;
    }
    this.r.error = text;
    this.r.loading = false;
  }

  setViewpoint(v: Viewpoint): void {
    const r = this.r;
    if (r.viewpoint === v) return;
    r.keepSeq = r.entries[r.index]?.seq ?? 1;
    r.viewpoint = v;
    this.clearPageTimer();
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
    let i = Math.max(0, Math.min(r.entries.length - 1, to));
    if (r.skipPasses && i !== r.index && i > 0 && i < r.entries.length - 1) {
      // over the entries where nothing but passing happened, in the direction of the step
      const dir = i > r.index ? 1 : -1;
      while (i > 0 && i < r.entries.length - 1 && onlyPasses(r.entries[i] as ReplayEntry)) i += dir;
    }
    r.index = i;
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
      this.startTimer();
    }
    this.app.render();
  }

  private startTimer(): void {
    if (this.playTimer !== null) window.clearInterval(this.playTimer);
    this.playTimer = window.setInterval(() => this.step(this.r.index + 1), STEP_MS / this.r.speed);
  }

  /** Play at `speed` × (0.5 to 8); one step of the list (+1/-1) from the current one. */
  setSpeed(speed: number): void {
    const r = this.r;
    r.speed = SPEEDS.includes(speed) ? speed : 1;
    localStorage.setItem(SPEED_KEY, String(r.speed));
    if (r.playing) this.startTimer();
    this.app.render();
  }

  faster(by: number): void {
    const i = SPEEDS.indexOf(this.r.speed);
    this.setSpeed(SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (i < 0 ? 1 : i) + by))] ?? 1);
  }

  setSkipPasses(on: boolean): void {
    this.r.skipPasses = on;
    localStorage.setItem(SKIP_KEY, on ? "on" : "off");
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
      stop: () => undefined,
      openChoice: () => undefined,
    };
  }

  render(): HTMLElement {
    const r = this.r;
    const entry = r.entries[r.index];
    const view = entry?.view ?? null;
    const turns: { turn: number; index: number }[] = [];
    r.entries.forEach((e, i) => {
      for (const f of e.facts) if (f.t === "turn") turns.push({ turn: f.turn, index: i });
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
      h("label", { for: "speed", class: "inline" }, "Speed"),
      h(
        "select",
        { id: "speed", "data-key": "speed", "data-testid": "replay-speed", onchange: (e: Event) => this.setSpeed(Number((e.target as HTMLSelectElement).value)) },
        SPEEDS.map((s) => h("option", { value: s, selected: s === r.speed }, `${s}×`)),
      ),
      h(
        "label",
        { class: "inline skip" },
        h("input", { type: "checkbox", "data-key": "skip-passes", "data-testid": "replay-skip-passes", checked: r.skipPasses, onchange: (e: Event) => this.setSkipPasses((e.target as HTMLInputElement).checked) }),
        " Skip passes",
      ),
      h("span", { class: "vp" }, h("label", { for: "viewpoint" }, "Viewpoint"), vp),
      this.isFile
        ? null
        : h("a", { class: "act small", href: `/replays/${encodeURIComponent(r.matchId)}.duelreplay`, download: `${r.matchId}.duelreplay`, "data-testid": "replay-file" }, "Download the replay file"),
      h(
        "span",
        { class: "pos", "data-testid": "replay-pos" },
        n ? `entry ${entry?.seq ?? "?"} of ${r.total ?? n}${r.nextSeq !== null ? ` (loaded ${n})` : ""}` : r.loading ? "loading…" : "no entries",
      ),
    );
    const f = r.file;
    const fileBox = this.isFile
      ? h(
          "div",
          { class: "replay-file" },
          f === null ? h("p", null, "This page showed a replay file, which is not kept after a reload: open it again.") : null,
          f !== null && f.error === null ? h("p", { class: `file-status${f.loaded ? "" : " busy"}`, role: "status", "data-testid": "replay-file-status" }, fileStatus(f)) : null,
          f !== null && f.error !== null ? h("p", { class: "error", role: "alert", "data-testid": "replay-file-error" }, `The server cannot play this file back: ${f.error}`) : null,
          replayFileInput(this.app, "replay-file-again", f === null ? "Open a replay file" : "Open another replay file"),
        )
      : null;
    let board: HTMLElement;
    if (view) {
      const me = r.viewpoint === "0" || r.viewpoint === "1" ? Number(r.viewpoint) : null;
      const changes = lastLpChanges(r.entries, r.index);
      const fresh = new Set((entry?.facts ?? []).filter((f) => f.t === "lp").map((f) => (f as { seat: number }).seat));
      const model: BoardModel = {
        view,
        me,
        bottom: me ?? 0,
        legal: [],
        pending: view.pending ?? null,
        seats: [0, 1].map((seat) => {
          return {
            name: this.nameOf(seat),
            lpDelta: changes[seat] ?? null,
            lpDeltaFresh: fresh.has(seat),
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
        stops: null,
      };
      // a step forward tells what its entries did on the board (story.ts); other moves just show
      const from = this.storyAt;
      if (from.index !== r.index || from.viewpoint !== r.viewpoint) {
        const forward = from.viewpoint === r.viewpoint && r.index > from.index && r.index - from.index <= STORY_STEPS;
        const facts = forward ? r.entries.slice(from.index + 1, r.index + 1).flatMap((e) => e.facts) : [];
        this.story.take(facts, view, this.app.cat, forward);
        this.storyAt = { index: r.index, viewpoint: r.viewpoint };
      }
      board = this.story.decorate(renderBoard(model, this.app.cat, this.hooks()));
    } else {
      board = h("p", { class: "muted" }, r.loading ? "Loading the replay…" : n > 0 ? "No board for this entry." : "");
    }
    const why = r.result ? END_REASONS[r.result.reason] : undefined;
    const result = r.result ? `${r.result.winner === "draw" ? "a draw" : `${this.who(r.result.winner)} won`}${why ? ` (${why})` : ""}` : null;
    return this.kept.render(
      { class: "match replay", "data-replay-index": r.index, "data-replay-seq": entry?.seq ?? 0 },
      h(
        "div",
        { class: "board-wrap" },
        h(
          "h1",
          { class: "replay-title" },
          f !== null ? `Replay file ${f.name}: ` : "Replay: ",
          `${this.nameOf(0)} vs ${this.nameOf(1)}`,
          result ? h("span", { class: "muted" }, ` · ${result}`) : null,
        ),
        fileBox,
        r.error ? h("p", { class: "error", role: "alert" }, r.error) : null,
        f !== null && f.error !== null ? null : controls,
        r.match ? matchBar(r.match, r.index >= n - 1 && r.nextSeq === null, (seat) => this.nameOf(seat)) : null,
        board,
      ),
      this.side.update(this.app.cat, this.app.hovered, this.log.slice(0, this.logUpTo[r.index] ?? 0), entry?.seq ?? 0),
    );
  }
}

/** The match a duel's replay belongs to: its duels in order (this one marked), the next duel one
 * step away (prominent once this duel's last entry is shown), and the whole match's file. */
export function matchBar(m: ReplayMatch, atEnd: boolean, nameOf: (seat: number) => string): HTMLElement {
  const next = m.duels.find((d) => d.duel === m.duel + 1);
  const result = m.result ? (m.result.winner === "draw" ? "a draw" : `${nameOf(m.result.winner)} won the match`) : "";
  return h(
    "nav",
    { class: "replay-match", "aria-label": "the duels of this match", "data-testid": "replay-match", "data-duel": m.duel },
    h("span", { class: "muted" }, `Best of ${m.best_of} · ${nameOf(0)} ${m.score[0] ?? 0} – ${m.score[1] ?? 0} ${nameOf(1)}${result ? ` · ${result}` : ""} · `),
    ...m.duels.map((d) =>
      d.duel === m.duel
        ? h("strong", { class: "duel-here", "aria-current": "page", "data-testid": `replay-match-duel-${d.duel}` }, `Duel ${d.duel}`)
        : h("a", { href: `#/replay/${encodeURIComponent(d.duel_id)}`, class: "act small", "data-testid": `replay-match-duel-${d.duel}` }, `Duel ${d.duel}`),
    ),
    next
      ? h("a", { href: `#/replay/${encodeURIComponent(next.duel_id)}`, class: `act${atEnd ? " primary" : " small"}`, "data-testid": "replay-next-duel" }, `Next duel (${next.duel}) ▶`)
      : null,
    h("a", { class: "act small", href: m.replay, download: `${m.match_id}.match.duelreplay`, "data-testid": "replay-match-file" }, "Download the whole match"),
  );
}

/** A file input for a replay file (the page also takes one dropped on it: app.ts). */
export function replayFileInput(app: App, key: string, label: string): HTMLElement {
  const input = h("input", {
    type: "file",
    id: key,
    accept: ".duelreplay",
    "data-testid": key,
    onchange: (e: Event) => {
      const el = e.target as HTMLInputElement;
      const file = el.files?.[0];
      if (file !== undefined) void app.openReplayFile(file);
    },
  });
  return h("div", { class: "dropzone", "data-dropzone": key }, h("label", { for: key }, label), input, h("span", { class: "muted" }, "or drop a .duelreplay file onto this page"));
}
