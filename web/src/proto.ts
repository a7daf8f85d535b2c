// The wire contract of PROTOCOL.md: message shapes and one websocket
// connection that speaks msgpack and reconnects by itself.
//
// Integers: the server sends some integers above 2^31 (created_ms,
// clocks) and, in unredacted replays only, PRNG states (`rng`, 64-bit)
// above 2^53. We decode with `useBigInt64: false`: every integer is a JS
// number; the only ones that lose precision are those `rng` fields, which
// this client never reads. Everything it does read fits in 2^53.

import { decode, encode } from "@msgpack/msgpack";
import type { ActionKind } from "./actionkinds";
import type { Fact } from "./facts";

export type { ActionKind, TypedAction } from "./actionkinds"; // generated from engine/actions.py
export type { Fact } from "./facts"; // one interface per fact type, generated from engine/facts.py
export type Id = number | string; // card ids are opaque (per-viewer aliases)
// an action as `legal` lists it and the client sends it back (actionkinds.ts types each kind)
export type Action = { do: ActionKind } & Record<string, unknown>;

export interface CardView {
  id?: Id;
  zone: string;
  controller: number;
  position?: string;
  slot?: number;
  face_up?: boolean;
  hidden?: boolean;
  code?: number;
  name?: string;
  atk?: number;
  def?: number;
  attacks_remaining?: number | null;
  counters?: Record<string, number>;
  equipped_to?: Id;
}

export interface PlayerView {
  lp: number;
  hand: CardView[];
  hand_count: number;
  deck_count: number;
  extra_count: number;
  monsters: (CardView | null)[];
  spells_traps: (CardView | null)[];
  field: CardView | null;
  graveyard: CardView[];
  banished: CardView[];
  normal_summoned?: boolean;
}

export interface ChainLink {
  link: number;
  card: Id;
  code?: number;
  controller: number;
  targets?: Id[];
  negated?: boolean;
}

export interface View {
  you: number | null;
  pending?: Pending | null;
  turn: number;
  turn_player: number;
  phase: string;
  step: string | null;
  damage_step: string | null;
  battle_phases?: number;
  priority?: number;
  chain: ChainLink[];
  attack: { attacker: Id; target: Id | null; replay?: boolean; calculated?: boolean } | null;
  players: PlayerView[];
  winner: number | "draw" | null;
  end_reason: string | null;
  /** For the seat that must decide in an open window: where each of its moves through the turn
   * goes, by `do` (`main1`, `battle/start`, `battle/end`, `end`, `next_turn`, ...). */
  moves?: Record<string, string> | null;
}

/** Who must decide now. The deciding seat gets the prompt in plain words and,
 * for a trigger decision or a resolution-time choice, the card it is about
 * (`card`: the trigger's card; `source`: the card whose effect asks; `cards`:
 * the candidates of a `cards` choice); others
 * get "waiting for A". Kinds: priority, trigger, replay, discard, ahead,
 * cards, options. */
export interface Pending {
  seat: number;
  kind: string;
  prompt: string;
  card?: Id;
  source?: Id;
  /** kind "cards", for the deciding seat: the candidates, named where it knows them
   * (its own Deck when it searches it, face-up cards). */
  cards?: PendingCard[];
}

export interface PendingCard {
  id: Id;
  code?: number;
  name?: string;
}

export interface Update {
  type: "update";
  match_id: string;
  seq: number;
  actor: number | null;
  facts: Fact[];
  state_hash: string;
  view: View | null;
  pending: Pending | null;
  legal: Action[];
  snapshot?: boolean;
  clocks?: number[] | null;
  presence?: boolean[] | null;
  story?: string[];
}

export interface CardInfo {
  code: number;
  name: string;
  kind: string; // monster | spell | trap
  prop: string;
  monster_kinds: string[];
  attribute: string;
  type: string;
  level: number;
  atk: number; // -1: ?
  def: number;
  text: string;
  supported?: boolean;
  /** The text a format plays where it is not `text` (format name -> text: the Goat-era wordings). */
  texts?: Record<string, string>;
}

/** A format as the catalogue describes it (PROTOCOL.md, `cards.formats`; docs/formats.md). */
export interface FormatInfo {
  name: string;
  title: string;
  description: string;
  deck?: { main: [number, number]; extra_max: number; extra_name: string; side_max: number; side_full_or_empty: boolean };
  pool?: number;
  supported?: number;
  /** The passcodes of its card pool. */
  cards?: number[];
  /** Copies of a card a deck may hold when the list names it not. */
  copies?: number;
  /** The Forbidden/Limited list's title. */
  list?: string;
  /** [passcode, copies] for each card its list names (0 Forbidden, 1 Limited, 2 Semi-Limited). */
  limits?: [number, number][];
  /** [alternate-artwork passcode, the card's passcode]. */
  aliases?: [number, number][];
}

export interface DeckInfo {
  name: string;
  title: string;
  description: string;
  cards: number[];
  format?: string; // the format it is a deck of (absent: "current")
  playable?: boolean; // does the server play every card of it
}

export interface MatchRow {
  match_id: string;
  status: string;
  seq: number;
  spectators: boolean;
  created_ms: number;
  spectator_delay: number;
  players?: string[];
  format?: string; // the format the duel is played under (absent: "current")
  winner?: number | "draw" | null;
  end_reason?: string | null;
  length?: number;
  turns?: number;
  finished_ms?: number;
}

export interface ReplayEntry {
  seq: number;
  actor: number | null;
  action?: Action;
  // As the viewpoint was sent them. Viewpoint "all" gives the log's own facts instead (every
  // type and key, engine ids), which `Fact` does not describe in full; this client reads only
  // their `turn` facts, which are the same in both.
  facts: Fact[];
  state_hash: string;
  time_ms?: number;
  story?: string[];
  view?: View | null;
}

export interface ReplayPage {
  type: "replay";
  match_id: string;
  entries: ReplayEntry[];
  viewpoint: string;
  total: number;
  next_seq: number | null;
  players: string[];
  result: { winner: number | "draw"; reason: string } | null;
  /** A duel of a match of several duels: the match's record, and this duel's number. */
  match?: ReplayMatch | null;
}

/** The record of a match of several duels on a page of one of its duels' replay (`replay.match`). */
export interface ReplayMatch {
  match_id: string;
  best_of: number;
  duel: number;
  players: string[];
  score: number[];
  result: { winner: number | "draw"; reason: string } | null;
  duels: { duel: number; duel_id: string; first: number; winner: number | "draw"; reason: string; replay: string }[];
  replay: string; // the whole match's file, every duel in order
}

export type ServerMessage = { type: string } & Record<string, unknown>;

export const PROTOCOL_VERSIONS = [1];

export function encodeMessage(msg: Record<string, unknown>): Uint8Array {
  return encode(msg);
}

export function decodeMessage(data: ArrayBuffer): ServerMessage {
  const msg = decode(new Uint8Array(data), { useBigInt64: false }) as unknown;
  if (typeof msg !== "object" || msg === null || typeof (msg as { type?: unknown }).type !== "string") {
    throw new Error("the server sent a frame that is not a message");
  }
  return msg as ServerMessage;
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** `n` random characters of [A-Za-z0-9_-] (6 random bits each: 22 make 132 bits). */
export function randomId(n = 12): string {
  const bytes = new Uint8Array(n);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => ID_ALPHABET[b & 63]).join("");
}

export function wsUrl(): string {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/`;
}

export type ConnState =
  | { kind: "connecting" }
  | { kind: "open" }
  | { kind: "waiting"; retryAt: number; attempt: number; why: string }
  | { kind: "closed"; why: string };

export interface ConnHooks {
  /** Every server message (after the handshake). */
  message(msg: ServerMessage): void;
  /** The connection's state changed. */
  state(s: ConnState): void;
  /** Called after every (re)handshake: send what binds this connection again. */
  resume(welcome: ServerMessage, again: boolean): void;
}

/** A `ping` every this many ms while connected (PROTOCOL.md section 9). */
export const HEARTBEAT_MS = 2000;
/** Nothing heard from the server for this long: the connection is held up somewhere (its socket
 * may look open for a minute): the page says it is offline and connects again. */
export const SILENT_MS = 4500;
/** What the server is asked to allow (`ping.silence_ms`) before it closes a quiet connection
 * and tells the other seat this one is gone. */
const SERVER_SILENCE_MS = 7000;
/** A socket that has not said `welcome` within this long is given up and another one tried. */
const HANDSHAKE_MS = 4000;

/** One logical connection to the server: a websocket that says hello, keeps a heartbeat, and
 * reconnects when it drops or goes quiet (unless told not to): while the page is visible within
 * a second, else with backoff. */
export class Connection {
  private ws: WebSocket | null = null;
  private attempt = 0;
  private timer: number | null = null;
  private stopped = false;
  private opened = false;
  private beat: number | null = null;
  private nonce = 0;
  private heardAt = 0; // performance.now() of the last frame from the server
  private readonly onVisible = () => {
    if (document.visibilityState === "visible") this.retryNow();
  };
  private readonly onOnline = () => this.retryNow();
  welcome: ServerMessage | null = null;
  /** How many handshakes this connection has made (1 + reconnects). */
  opens = 0;
  /** The server's rate limit (`welcome.rate_per_second`; bursts of twice that), mirrored:
   * the frames this socket may still send at once (see paceMs). */
  private rate = 50;
  private tokens = 0;
  private tokensAt = 0;

  constructor(private readonly url: string, private readonly hooks: ConnHooks) {}

  start(): void {
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  /** Whether a welcomed socket is open and the server was heard from lately. */
  get live(): boolean {
    return this.ws !== null && this.welcome !== null && this.ws.readyState === WebSocket.OPEN && performance.now() - this.heardAt < SILENT_MS;
  }

  send(msg: Record<string, unknown>): boolean {
    if (this.ws === null || this.ws.readyState !== WebSocket.OPEN || this.welcome === null) return false;
    this.ws.send(encodeMessage(msg));
    this.refill();
    this.tokens -= 1;
    return true;
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(2 * this.rate, this.tokens + ((now - this.tokensAt) / 1000) * this.rate);
    this.tokensAt = now;
  }

  /** How long to wait (ms) before sending a frame of a long series (a file's parts), so
   * that the server's token bucket never refuses one: a quarter of the burst is kept in
   * hand for the page's other frames and for frames that arrive bunched together. */
  paceMs(): number {
    this.refill();
    const need = 1 + Math.max(1, Math.floor(this.rate / 2));
    return this.tokens >= need ? 0 : Math.ceil(((need - this.tokens) / this.rate) * 1000);
  }

  /** Close for good (no reconnect). */
  stop(why = "closed"): void {
    this.stopped = true;
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onOnline);
    this.stopBeat();
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
    const ws = this.ws;
    this.ws = null;
    if (ws !== null) ws.close(1000, "bye");
    this.hooks.state({ kind: "closed", why });
  }

  /** Drop the socket as if the network failed (tests, "reconnect now"). */
  drop(): void {
    this.ws?.close(4000, "client dropped");
  }

  retryNow(): void {
    if (this.stopped || this.timer === null) return;
    window.clearTimeout(this.timer);
    this.timer = null;
    this.connect();
  }

  private stopBeat(): void {
    if (this.beat !== null) window.clearInterval(this.beat);
    this.beat = null;
  }

  /** The heartbeat of a welcomed socket: a `ping` every HEARTBEAT_MS (the first asks the server
   * to close the connection if it goes quiet); a server not heard for SILENT_MS: give the socket
   * up (its events are ignored from then on) and connect again. */
  private startBeat(ws: WebSocket): void {
    this.stopBeat();
    const ping = (first: boolean) => {
      this.nonce = (this.nonce + 1) % 2 ** 31;
      const msg: Record<string, unknown> = { type: "ping", nonce: this.nonce };
      if (first) msg["silence_ms"] = SERVER_SILENCE_MS;
      this.send(msg); // counted against the rate limit like any frame (paceMs knows it)
    };
    ping(true);
    this.beat = window.setInterval(() => {
      if (this.ws !== ws) return this.stopBeat();
      if (performance.now() - this.heardAt >= SILENT_MS) {
        this.abandon(ws, `no answer from the server for ${SILENT_MS / 1000} s`);
        return;
      }
      if (ws.readyState === WebSocket.OPEN) ping(false);
    }, Math.min(HEARTBEAT_MS, SILENT_MS / 3));
  }

  /** Give a socket up (held up, or its handshake never came) and try another. */
  private abandon(ws: WebSocket, why: string): void {
    if (this.ws !== ws) return;
    this.ws = null;
    this.welcome = null;
    this.stopBeat();
    try {
      ws.close(4000, "client gave up");
    } catch {
      // closing a socket that never opened: nothing to do
    }
    if (!this.stopped) this.scheduleRetry(why);
  }

  private connect(): void {
    this.hooks.state({ kind: "connecting" });
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch (e) {
      this.scheduleRetry(String(e));
      return;
    }
    ws.binaryType = "arraybuffer";
    this.ws = ws;
    this.welcome = null;
    let welcomed = false;
    const handshake = window.setTimeout(() => {
      if (!welcomed) this.abandon(ws, "the server did not answer");
    }, HANDSHAKE_MS);
    ws.onopen = () => {
      ws.send(encodeMessage({ type: "hello", versions: PROTOCOL_VERSIONS, client: "duel-web/0.1" }));
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (this.ws !== ws) return;
      if (!(ev.data instanceof ArrayBuffer)) return;
      this.heardAt = performance.now();
      let msg: ServerMessage;
      try {
        msg = decodeMessage(ev.data);
      } catch {
        return;
      }
      if (!welcomed) {
        if (msg.type === "welcome") {
          welcomed = true;
          window.clearTimeout(handshake);
          this.welcome = msg;
          const rate = Number(msg["rate_per_second"]);
          this.rate = Number.isFinite(rate) && rate > 0 ? rate : 50;
          this.tokens = 2 * this.rate - 1; // the server's bucket starts full; hello took one
          this.tokensAt = performance.now();
          this.opens += 1;
          this.attempt = 0;
          const again = this.opened;
          this.opened = true;
          this.hooks.state({ kind: "open" });
          this.startBeat(ws);
          this.hooks.resume(msg, again);
          return;
        }
      }
      if (msg.type === "pong") return; // the heartbeat's: hearing it is all it is for
      this.hooks.message(msg);
    };
    ws.onclose = (ev: CloseEvent) => {
      window.clearTimeout(handshake);
      if (this.ws !== ws) return;
      this.ws = null;
      this.welcome = null;
      this.stopBeat();
      if (this.stopped) return;
      const fatal: Record<number, string> = {
        4001: "the seat token was refused",
        4002: "this server speaks another protocol version",
        4004: "this seat was taken over by a newer connection (another tab or device); this one stopped",
        1008: "the server closed the connection after too many errors",
      };
      const why = fatal[ev.code];
      if (why !== undefined) {
        this.stopped = true;
        this.hooks.state({ kind: "closed", why });
        return;
      }
      this.scheduleRetry(ev.code === 1012 ? "the server is restarting" : `connection lost (${ev.code})`);
    };
  }

  private scheduleRetry(why: string): void {
    this.attempt += 1;
    // while the page is visible, again within a second (the player is looking at it: back as soon
    // as the network is); hidden, backoff: 0.5 s, 1 s, 2 s, 4 s, ... at most 15 s, with jitter
    // (a page coming back into view, or the network coming back, tries at once)
    const visible = document.visibilityState === "visible";
    const base = visible ? 600 : Math.min(15000, 500 * 2 ** Math.min(this.attempt - 1, 5));
    const delay = Math.round(base * (visible ? 0.5 + Math.random() * 0.5 : 0.75 + Math.random() * 0.5));
    this.hooks.state({ kind: "waiting", retryAt: Date.now() + delay, attempt: this.attempt, why });
    this.timer = window.setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, delay);
  }
}
