// A match as a seat or a spectator sees it: the state kept from the
// server's updates (view, decision, clocks, presence, names, the log of
// story lines), the actions sent (one at a time, from `legal`), auto-pass,
// and the match screen.

import { key, SEATS } from "./actions";
import type { App } from "./app";
import { CHOICE_KINDS, formatClock, renderBoard, type BoardHooks, type BoardModel, type Seatinfo } from "./board";
import { h, Kept } from "./dom";
import { SidePanel, storyLines, type LogLine } from "./log";
import { onlyMovingOn, saveStops, stopMove } from "./moves";
import { Story } from "./story";
import type { Action, Pending, ServerMessage, Update, View } from "./proto";
import type { LpChange } from "./board";
import { renderDuels, renderScore, resultWords, watchedDuel, type MatchInfo } from "./matchscore";
import { Siding, tickDeadline } from "./siding";

const AUTOPASS_KEY = "duel.autopass";
const LOG_MAX = 3000;

export interface MatchState {
  matchId: string;
  seat: number | null; // null: spectating
  token: string | null;
  started: boolean;
  seq: number;
  view: View | null;
  pending: Pending | null;
  legal: Action[];
  clocks: number[] | null;
  clockAt: number;
  presence: boolean[] | null;
  log: LogLine[];
  lpDelta: (LpChange | null)[]; // each seat's last LP change of this turn, as the log has it
  lpTurn: number; // the turn lpDelta is of
  lpFreshSeq: number;
  inflight: { id: string; msg: Record<string, unknown> } | null;
  awaitSeq: number;
  autoPassing: boolean; // a pass is about to be sent for the player
  selecting: { attacker: string } | null;
  retargeting: boolean;
  names: string[];
  delay: number;
  error: string | null;
  duelId: string; // the duel whose updates come now (a match of several: its current one)
  match: MatchInfo | null; // a match of several duels, as `match_state` last said (matchscore.ts)
}

/** How long a pass made for the player waits, so the board can be seen (ms;
 * localStorage "duel.autopass_ms" overrides it: the tests make it 0). */
function autoPassDelay(): number {
  const ms = Number(localStorage.getItem("duel.autopass_ms") ?? 250);
  return Number.isFinite(ms) && ms >= 0 ? ms : 250;
}

export function autoPassDefault(): boolean {
  return localStorage.getItem(AUTOPASS_KEY) !== "off";
}

export class Game {
  readonly m: MatchState;
  private autoPassTimer: number | null = null;
  private choiceShownFor = -1;
  readonly side = new SidePanel();
  private readonly story = new Story();
  private readonly siding = new Siding();
  private readonly kept = new Kept();

  constructor(
    private readonly app: App,
    matchId: string,
    seat: number | null,
    token: string | null,
  ) {
    this.m = {
      matchId,
      seat,
      token,
      started: false,
      seq: 0,
      view: null,
      pending: null,
      legal: [],
      clocks: null,
      clockAt: Date.now(),
      presence: null,
      log: [],
      lpDelta: [null, null],
      lpTurn: 0,
      lpFreshSeq: -1,
      inflight: null,
      awaitSeq: 0,
      autoPassing: false,
      selecting: null,
      retargeting: false,
      names: ["", ""],
      delay: 0,
      error: null,
      duelId: matchId,
      match: null,
    };
  }

  /** After a (re)handshake: take the seat back, or watch again, from the last seq seen. */
  resume(): void {
    const m = this.m;
    const duel = m.match === null ? 1 : watchedDuel(m.match);
    if (m.token !== null) this.app.session.send({ type: "reconnect", token: m.token, last_seq: m.seq, duel });
    else if (m.seat === null) this.app.session.send({ type: "spectate", match_id: m.matchId, last_seq: m.seq, duel });
    if (m.inflight !== null) this.app.session.send(m.inflight.msg); // same id: applied once at most
  }

  stop(): void {
    this.clearAutoPass();
  }

  setNames(players: unknown): void {
    if (!Array.isArray(players)) return;
    players.forEach((p, i) => {
      if (typeof p === "string" && p !== "") this.m.names[i] = p;
    });
  }

  onSeated(msg: ServerMessage): void {
    const m = this.m;
    m.seat = Number(msg["seat"]);
    m.token = String(msg["token"]);
    m.started = Boolean(msg["started"]) || m.started;
    this.setNames(msg["players"]);
  }

  /** Messages about the match; false for anything else. */
  onMessage(msg: ServerMessage): boolean {
    const m = this.m;
    switch (msg.type) {
      case "spectating":
        m.delay = Number(msg["delay"] ?? 0);
        m.started = true;
        this.setNames(msg["players"]);
        return true;
      case "update":
        this.onUpdate(msg as unknown as Update);
        return true;
      case "match_state":
        this.onMatchState(msg as unknown as MatchInfo);
        return true;
      case "presence":
        if (msg["match_id"] === m.duelId) {
          m.presence = msg["seats"] as boolean[];
          this.setNames(msg["players"]);
        }
        return true;
      case "accepted":
        if (m.inflight?.id === msg["client_action_id"]) {
          m.inflight = null;
          m.awaitSeq = Number(msg["seq"]);
        }
        return true;
      case "rejected":
        if (m.inflight?.id === msg["client_action_id"]) m.inflight = null;
        m.error = `The server refused that action: ${String(msg["reason"])} (${String(msg["code"])})`;
        if (msg["code"] === "action/stale") this.app.session.send({ type: "sync", last_seq: m.seq });
        return true;
      default:
        return false;
    }
  }

  onError(code: string, text: string): void {
    const m = this.m;
    m.error = text;
    if (code === "server/unavailable" || code === "server/internal") {
      if (m.inflight !== null) {
        const again = m.inflight.msg;
        window.setTimeout(() => {
          if (this.m.inflight?.msg === again) this.app.session.send(again);
        }, 1000);
      }
    } else if (m.inflight !== null && code.startsWith("message/")) {
      m.inflight = null;
    }
  }

  /** A match of several duels changed: a new duel's updates start from seq 1. */
  private onMatchState(ms: MatchInfo): void {
    const m = this.m;
    if (ms.duel_id !== m.duelId) {
      m.duelId = ms.duel_id;
      Object.assign(m, { seq: 0, view: null, pending: null, legal: [], inflight: null, awaitSeq: 0, lpDelta: [null, null], lpTurn: 0, selecting: null });
      this.clearAutoPass();
      m.log.push(...storyLines(0, [`=== Duel ${ms.duel} of a best of ${ms.best_of} ===`]));
    }
    m.match = ms;
    this.siding.onState(ms);
  }

  private onUpdate(u: Update): void {
    const m = this.m;
    if (u.match_id !== m.duelId) return;
    if (!u.snapshot && u.seq <= m.seq) return; // already have it
    if (!u.snapshot && m.seq > 0 && u.seq > m.seq + 1) {
      this.app.session.send({ type: "sync", last_seq: m.seq }); // a gap: ask for what is missing
      return;
    }
    m.started = true;
    if (u.seq > m.seq) {
      m.log.push(...storyLines(u.seq, u.story));
      // the LP badge: each seat's last LP change of this turn, as its fact says (the damage dealt:
      // 300 damage from 250 LP is -300, as the log says, not the -250 the LP went down)
      for (const f of u.facts) {
        if (f.t === "turn") {
          m.lpDelta = [null, null];
          m.lpTurn = f.turn;
        } else if (f.t === "lp") {
          m.lpDelta[f.seat] = { delta: f.delta, reason: f.reason };
          m.lpFreshSeq = u.seq;
        }
      }
    }
    if (m.log.length > LOG_MAX) m.log.splice(0, m.log.length - LOG_MAX);
    if (u.snapshot || u.seq > m.seq) this.story.take(u.facts, u.view, this.app.cat, !u.snapshot && u.seq === m.seq + 1);
    m.seq = u.seq;
    if (u.view === null) return; // a caught-up entry: its view comes with the last one
    if (u.view.turn !== m.lpTurn) {
      m.lpDelta = [null, null]; // a snapshot of a later turn: what changed in it is not known here
      m.lpTurn = u.view.turn;
    }
    m.view = u.view;
    m.pending = u.pending;
    m.legal = u.legal ?? [];
    if (u.clocks) {
      m.clocks = u.clocks;
      m.clockAt = Date.now();
    }
    if (u.presence) m.presence = u.presence;
    if (m.legal.length === 0) {
      m.selecting = null;
      m.retargeting = false;
    }
    if (m.selecting !== null && !m.legal.some((a) => a.do === "attack" && key(a["with"]) === m.selecting?.attacker)) m.selecting = null;
    const dlg = this.app.dialogs.kind;
    if (dlg === "actions" || dlg === "choice") this.app.dialogs.close();
    this.maybeAutoPass();
    this.maybeOpenChoice();
  }

  private owesChoice(): boolean {
    const m = this.m;
    return m.seat !== null && m.view !== null && m.pending !== null && m.pending.seat === m.seat && CHOICE_KINDS.has(m.pending.kind) && m.legal.length > 0;
  }

  /** A decision away from the board opens its dialog by itself, once per entry. */
  private maybeOpenChoice(): void {
    if (!this.owesChoice() || this.choiceShownFor === this.m.seq) return;
    this.choiceShownFor = this.m.seq;
    this.openChoice();
  }

  openChoice(): void {
    const m = this.m;
    if (m.view !== null && m.pending !== null && this.owesChoice()) this.app.dialogs.choice(m.view, m.pending, m.legal);
  }

  private clearAutoPass(): void {
    if (this.autoPassTimer !== null) window.clearTimeout(this.autoPassTimer);
    this.autoPassTimer = null;
    this.m.autoPassing = false;
  }

  /** The moves the page makes for the player (after a moment, so the board can be seen): in an
   * open window of a phase they do not stop at, the nearest move (whatever their cards: the
   * opponent learns nothing from it); with auto-pass on, a window in which the only choice is
   * to pass, or to move on to one place. */
  maybeAutoPass(): void {
    this.clearAutoPass();
    const m = this.m;
    if (m.seat === null || m.view === null || m.legal.length === 0 || !this.online) return;
    const choices = m.legal.filter((a) => a.do !== "concede");
    let only = stopMove(m.view, m.legal, this.app.stops, m.pending?.kind ?? "");
    if (only === null && this.app.autoPass) {
      only = onlyMovingOn(m.view, m.legal) ?? (choices.length === 1 && choices[0]?.do === "pass" ? choices[0] : null);
    }
    if (only === null) return;
    const seq = m.seq;
    m.autoPassing = true;
    this.autoPassTimer = window.setTimeout(() => {
      this.autoPassTimer = null;
      m.autoPassing = false;
      if (m.seq === seq && m.inflight === null && only !== null && m.legal.includes(only)) this.sendAction(only, false);
    }, autoPassDelay());
  }

  /** Send `a` (one of `legal`). `byPlayer`: the player chose it, and the focus goes back to the
   * decision after it; a move the page makes for them leaves their focus where it is (a player
   * Tabbing through the Stop-at settings is not pulled out of them). */
  sendAction(a: Action, byPlayer = true): void {
    const m = this.m;
    if (m.inflight !== null) return;
    // only ever an action from `legal`, verbatim (concede: the contract allows it any time)
    if (a.do !== "concede" && !m.legal.includes(a)) return;
    const id = this.app.session.nextActionId();
    const msg = { type: "action", client_action_id: id, expected_seq: m.seq, action: a };
    m.inflight = { id, msg };
    m.error = null;
    m.selecting = null;
    m.retargeting = false;
    this.clearAutoPass();
    if (byPlayer) this.app.refocusDecision = true; // after the player's action, the focus is the decision's again
    this.app.dialogs.close();
    this.app.session.send(msg); // not connected: sent again after the reconnect, with the same id
    this.app.render();
  }

  selectAttacker(attacker: string | null): void {
    this.m.selecting = attacker === null ? null : { attacker };
    this.app.render();
    if (attacker !== null) {
      window.setTimeout(() => this.app.root.querySelector<HTMLElement>(".targetable, [data-action=attack-direct]")?.focus(), 0);
    }
  }

  private hooks(): BoardHooks {
    return {
      send: (a) => this.sendAction(a),
      select: (attacker) => this.selectAttacker(attacker),
      retarget: (on) => {
        this.m.retargeting = on;
        this.app.render();
      },
      openCard: (card, actions) => {
        if (this.m.view) this.app.dialogs.card(this.m.view, card, actions);
      },
      openPile: (seat, zone) => {
        if (this.m.view) this.app.dialogs.pile(this.m.view, seat, zone, this.m.seat === null ? [] : this.m.legal);
      },
      hover: (card) => this.app.hover(card),
      concede: () => this.app.dialogs.concede(this.m.match === null ? "duel" : "match"),
      autoPass: (on) => {
        this.app.autoPass = on;
        localStorage.setItem(AUTOPASS_KEY, on ? "on" : "off");
        this.maybeAutoPass();
        this.app.render();
      },
      stop: (whose, key, on) => {
        const stops = this.app.stops;
        const list = whose === "own" ? stops.own : stops.theirs;
        const next = on ? [...new Set([...list, key])] : list.filter((k) => k !== key);
        if (whose === "own") stops.own = next;
        else stops.theirs = next;
        saveStops(stops);
        this.maybeAutoPass();
        this.app.render();
      },
      openChoice: () => this.openChoice(),
    };
  }

  clockOf(seat: number): number {
    const m = this.m;
    const base = m.clocks?.[seat] ?? 0;
    const running = m.pending !== null && m.pending.seat === seat && m.view?.winner === null;
    return running ? base - (Date.now() - m.clockAt) : base;
  }

  tickClocks(root: HTMLElement): void {
    tickDeadline(root);
    if (this.m.clocks === null) return;
    root.querySelectorAll<HTMLElement>("[data-clock]").forEach((el) => {
      el.textContent = `Clock ${formatClock(this.clockOf(Number(el.dataset["clock"])))}`;
    });
  }

  nameOf(seat: number): string {
    const m = this.m;
    return m.names[seat] || (seat === m.seat && this.app.name ? this.app.name : (SEATS[seat] ?? "?"));
  }

  title(): string {
    const v = this.m.view;
    if (v === null) return "Duel";
    if (this.m.match?.phase === "siding") return "Between duels · Duel";
    if (v.winner !== null && v.winner !== undefined) return "Duel over · Duel";
    if (this.m.seat !== null && this.m.legal.length > 0) return "(Your move) Duel";
    return `Turn ${v.turn} · Duel`;
  }

  /** Whether the page has a live connection (a welcomed socket, its heartbeat answered). */
  get online(): boolean {
    return this.app.connState.kind === "open";
  }

  private seatInfos(view: View): Seatinfo[] {
    const m = this.m;
    const online = this.online;
    return [0, 1].map((seat) => {
      // presence as things are: offline, this page's own seat is not connected, and what the
      // other seat's is cannot be known until the page is back
      let connected = m.presence ? (m.presence[seat] ?? null) : null;
      let presenceWords: string | undefined;
      if (!online && m.presence !== null) {
        connected = false;
        presenceWords = seat === m.seat ? "offline (this page)" : "unknown (this page is offline)";
      }
      return {
        name: this.nameOf(seat),
        lpDelta: m.lpTurn === view.turn ? (m.lpDelta[seat] ?? null) : null,
        lpDeltaFresh: m.lpFreshSeq === m.seq,
        clockMs: m.clocks === null ? null : this.clockOf(seat),
        clockRunning: m.pending !== null && m.pending.seat === seat && view.winner === null,
        connected,
        ...(presenceWords === undefined ? {} : { presenceWords }),
      };
    });
  }

  render(): HTMLElement {
    const m = this.m;
    if (m.view === null) return this.renderWaiting();
    const view = m.view;
    const model: BoardModel = {
      view,
      me: m.seat,
      bottom: m.seat ?? 0,
      legal: m.seat === null ? [] : m.legal,
      pending: m.pending,
      seats: this.seatInfos(view),
      interactive: m.seat !== null,
      busy: m.inflight !== null || m.seq < m.awaitSeq || (m.seat !== null && !this.online),
      offline: m.seat !== null && !this.online,
      selecting: m.selecting,
      retargeting: m.retargeting,
      autoPass: this.app.autoPass,
      stops: this.app.stops,
    };
    const ms = m.match;
    const finished = view.winner !== null && view.winner !== undefined && (ms === null || ms.phase === "finished");
    const nameOf = (seat: number) => this.nameOf(seat);
    const send = (msg: Record<string, unknown>) => {
      m.error = null;
      this.app.session.send(msg);
    };
    const concedeDuel = () => send({ type: "concede_duel", client_action_id: this.app.session.nextActionId() });
    return this.kept.render(
      { class: "match", "data-seq": m.seq, "data-role": m.seat === null ? "spectator" : `seat-${m.seat}`, "data-duel": ms?.duel ?? 1 },
      h(
        "div",
        { class: "board-wrap" },
        m.seat === null ? h("p", { class: "banner" }, `Watching ${this.nameOf(0)} vs ${this.nameOf(1)}${m.delay ? ` (${m.delay} entries behind the live duel)` : ""}`) : null,
        ms !== null ? renderScore(ms, nameOf, m.seat, concedeDuel) : null,
        m.error ? h("p", { class: "error", role: "alert", "data-testid": "error" }, m.error) : null,
        ms?.phase === "siding"
          ? this.siding.render(ms, m.seat, this.app.cat, { send, nameOf }, () => this.app.render())
          : this.story.decorate(renderBoard(model, this.app.cat, this.hooks())),
        ms?.phase === "finished" ? h("div", { class: "panel", "data-testid": "match-over" }, h("h2", null, resultWords(ms, nameOf)), renderDuels(ms, nameOf)) : null,
        finished
          ? h(
              "div",
              { class: "after" },
              h("a", { class: "act primary", href: `#/replay/${m.duelId}`, "data-testid": "open-replay" }, "Watch the replay"),
              h("a", { class: "act", href: "#/" }, "Back to the lobby"),
            )
          : null,
      ),
      this.side.update(this.app.cat, this.app.hovered, m.log, m.seq),
    );
  }

  private renderWaiting(): HTMLElement {
    const m = this.m;
    const inviteUrl = `${location.origin}${location.pathname}#/join/${m.matchId}`;
    const waiting = m.seat === 0 && !m.started;
    return h(
      "main",
      { class: "waiting" },
      h(
        "section",
        { class: "panel" },
        h("h1", null, waiting ? "Waiting for an opponent" : m.seat === null ? "Watching" : "Loading the duel…"),
        m.error ? h("p", { class: "error", role: "alert" }, m.error) : null,
        waiting
          ? [
              h("p", null, "Send this link to your opponent:"),
              h("p", null, h("input", { class: "invite", readonly: true, value: inviteUrl, "aria-label": "invite link", "data-testid": "invite" })),
              h("button", { type: "button", class: "act", onclick: () => void navigator.clipboard?.writeText(inviteUrl) }, "Copy the link"),
              h("p", { class: "muted" }, `Match id: ${m.matchId}`),
            ]
          : m.seat === null
            ? h("p", { class: "muted" }, m.delay ? `This match shows spectators the duel ${m.delay} entries behind.` : "Waiting for the first entry…")
            : null,
        h("button", { type: "button", class: "act", onclick: () => this.app.go("#/") }, "Back to the lobby"),
      ),
    );
  }
}
