// The connection as the application uses it: one websocket at a time (a
// fresh one per screen), the card catalogue kept up to date, seat requests
// that survive a lost answer, and action ids that are never reused.
//
// Seat requests (`create_match`, `join`, `quick_match`) carry a random
// `request_id` (PROTOCOL.md section 4). Until `seated` (or a refusal) comes
// back, the request is kept, in sessionStorage too: it is sent again, with
// the same id, after every reconnect and after a reload of the page, so a
// lost answer gives back the same seat, never a second match.
//
// Action ids are a random part made per connection plus a counter, so they
// are unique for the seat across reconnects and reloads; an action whose
// answer never came is re-sent with its own id (the server applies it once).

import type { Catalogue } from "./cards";
import { Connection, randomId, wsUrl, type ConnState, type ServerMessage } from "./proto";

const REQUEST_KEY = "duel.request";
const REQUEST_TTL_MS = 10 * 60 * 1000;

export interface SessionHooks {
  /** A server message (after the handshake), except `cards`, which the session handles. */
  message(msg: ServerMessage): void;
  /** The connection's state changed. */
  state(s: ConnState): void;
  /** After every handshake: bind the connection again (reconnect, spectate, ask again). */
  resume(again: boolean): void;
}

interface KeptRequest {
  msg: Record<string, unknown>;
  at: number;
}

export class Session {
  conn: Connection | null = null;
  state: ConnState = { kind: "connecting" };
  private request: KeptRequest | null = null;
  private retries = 0;
  private retryTimer: number | null = null;
  private actionPrefix = randomId(10);
  private actionCount = 0;

  constructor(
    private readonly cat: Catalogue,
    private readonly hooks: SessionHooks,
  ) {
    try {
      const kept = JSON.parse(sessionStorage.getItem(REQUEST_KEY) ?? "null") as KeptRequest | null;
      if (kept !== null && Date.now() - kept.at < REQUEST_TTL_MS) this.request = kept;
      else sessionStorage.removeItem(REQUEST_KEY);
    } catch {
      sessionStorage.removeItem(REQUEST_KEY);
    }
  }

  /** Close the current socket for good and open a new one. */
  open(): void {
    this.conn?.stop("left");
    const conn = new Connection(wsUrl(), {
      message: (msg) => {
        if (this.conn !== conn) return;
        if (msg.type === "cards") this.cat.load(msg as { version?: unknown; cards?: unknown; decks?: unknown; formats?: unknown });
        this.hooks.message(msg);
      },
      state: (s) => {
        if (this.conn !== conn) return;
        this.state = s;
        this.hooks.state(s);
      },
      resume: (welcome, again) => {
        if (this.conn !== conn) return;
        this.actionPrefix = randomId(10);
        this.actionCount = 0;
        const version = welcome["cards_version"];
        if (typeof version === "string" && version !== "" && !this.cat.fromCache(version)) conn.send({ type: "get_cards" });
        this.hooks.resume(again);
      },
    });
    this.conn = conn;
    conn.start();
  }

  send(msg: Record<string, unknown>): boolean {
    return this.conn?.send(msg) ?? false;
  }

  /** Wait this long (ms) before the next frame of a long series (0: send it now). */
  paceMs(): number {
    return this.conn?.paceMs() ?? 0;
  }

  get opens(): number {
    return this.conn?.opens ?? 0;
  }

  // ------------------------------------------------------------ seat requests

  /** A seat request, kept (and re-sent with the same request_id) until answered. */
  ask(msg: Record<string, unknown>): void {
    this.request = { msg: { ...msg, request_id: randomId(22) }, at: Date.now() };
    sessionStorage.setItem(REQUEST_KEY, JSON.stringify(this.request));
    this.retries = 0;
    this.send(this.request.msg);
  }

  /** The request still waiting for its answer (its type), if any. */
  get asking(): string | null {
    return this.request === null ? null : String(this.request.msg["type"]);
  }

  /** Send the kept request again (after a reconnect or a reload). */
  askAgain(): void {
    if (this.request !== null) this.send(this.request.msg);
  }

  /** The answer came (`seated`, or a refusal that a retry would not change). */
  answered(): void {
    this.request = null;
    sessionStorage.removeItem(REQUEST_KEY);
    if (this.retryTimer !== null) window.clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /** The server could not answer now (`server/unavailable`): the same request again, later. */
  retryLater(): void {
    if (this.request === null) return;
    this.retries += 1;
    const delay = Math.min(10000, 500 * 2 ** Math.min(this.retries, 5)) * (0.75 + Math.random() * 0.5);
    if (this.retryTimer !== null) window.clearTimeout(this.retryTimer);
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = null;
      this.askAgain();
    }, delay);
  }

  // ------------------------------------------------------------ actions

  /** A new client_action_id: never used before by this page, for any seat. */
  nextActionId(): string {
    this.actionCount += 1;
    return `w${this.actionPrefix}-${this.actionCount}`;
  }
}
