// The application: one connection, three screens (lobby, match, replay),
// routing by the URL's hash, and everything the server says.

import { actionCard, cardLabel, describeAction, key, SEATS } from "./actions";
import { cardBox, cardDetail, formatClock, renderBoard, type BoardHooks, type BoardModel, type Seatinfo } from "./board";
import { Catalogue, parseDecklist } from "./cards";
import { describe } from "./describe";
import { append, h, replaceChildren } from "./dom";
import {
  Connection,
  randomId,
  wsUrl,
  type Action,
  type CardView,
  type ConnState,
  type MatchRow,
  type Pending,
  type ReplayEntry,
  type ServerMessage,
  type Update,
  type View,
} from "./proto";

interface LogLine {
  seq: number;
  text: string;
}

interface MatchState {
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
  lpDelta: (number | null)[];
  lpFreshSeq: number;
  inflight: { id: string; msg: Record<string, unknown> } | null;
  awaitSeq: number;
  selecting: { attacker: string } | null;
  retargeting: boolean;
  names: string[];
  delay: number;
  error: string | null;
}

type Viewpoint = "0" | "1" | "spectator" | "all";

interface ReplayState {
  matchId: string;
  viewpoint: Viewpoint;
  entries: ReplayEntry[];
  total: number | null;
  loading: boolean;
  error: string | null;
  index: number;
  playing: boolean;
  names: string[];
  keepSeq: number | null; // after a viewpoint switch: the entry to show again
}

interface LobbyState {
  live: MatchRow[];
  finished: MatchRow[];
  error: string | null;
  deckErrors: string[];
  joinId: string | null;
  busy: string | null;
  form: Record<string, string>; // what the player typed or chose (kept across renders)
}

const NAME_KEY = "duel.name";
const BOT_UNSUPPORTED = "This server cannot start a bot opponent (it offers no opponent option): create a match and invite someone instead.";
const AUTOPASS_KEY = "duel.autopass";
const SEAT_KEY = (id: string) => `duel.seat.${id}`;

export class App {
  cat = new Catalogue();
  catLoaded = false;
  conn: Connection | null = null;
  connState: ConnState = { kind: "connecting" };
  name: string;
  lobby: LobbyState = {
    live: [],
    finished: [],
    error: null,
    deckErrors: [],
    joinId: null,
    busy: null,
    form: { deck: "demo", decklist: "", clock: "0", increment: "0", join_id: "" },
  };
  match: MatchState | null = null;
  replay: ReplayState | null = null;
  screen: "lobby" | "match" | "replay" = "lobby";
  pendingRequest: Record<string, unknown> | null = null;
  requestRetry = 0;
  hovered: CardView | null = null;
  autoPass = localStorage.getItem(AUTOPASS_KEY) !== "off";
  private autoPassTimer: number | null = null;
  private listAsked: string[] = [];
  private actionPrefix = randomId(8);
  private actionCount = 0;
  private root: HTMLElement;
  private dialog: HTMLDialogElement;
  private playTimer: number | null = null;
  private requestTimer: number | null = null;

  constructor(root: HTMLElement) {
    this.root = root;
    this.dialog = h("dialog", { class: "dlg", "aria-modal": "true" });
    document.body.appendChild(this.dialog);
    this.name = localStorage.getItem(NAME_KEY) ?? "";
    window.addEventListener("hashchange", () => this.route());
    window.setInterval(() => this.tickClocks(), 250);
    // for tests and the curious: the live state, read-only
    (window as unknown as { duelApp: App }).duelApp = this;
  }

  start(): void {
    this.route();
  }

  // ------------------------------------------------------------ routing

  private route(): void {
    const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
    const [what, id] = [parts[0] ?? "", decodeURIComponent(parts[1] ?? "")];
    if (what === "seat" && id) {
      // a seat token (a puzzle's, or one kept elsewhere): remember it for this tab, then take the seat
      const [, matchId] = id.split(".");
      if (matchId) {
        sessionStorage.setItem(SEAT_KEY(matchId), id);
        history.replaceState(null, "", `#/match/${matchId}`);
        this.enterMatch(matchId, id, Number(id.split(".")[2] ?? 0));
        return;
      }
    }
    if (what === "match" && id) {
      if (this.match?.matchId === id && this.screen === "match") return;
      const token = sessionStorage.getItem(SEAT_KEY(id));
      this.enterMatch(id, token, token === null ? null : Number(token.split(".")[2] ?? 0));
    } else if (what === "watch" && id) {
      if (this.match?.matchId === id && this.match.seat === null) return;
      this.enterMatch(id, null, null);
    } else if (what === "replay" && id) {
      if (this.replay?.matchId === id && this.screen === "replay") return;
      this.openReplay(id);
    } else {
      this.lobby.joinId = what === "join" && id ? id : null;
      this.toLobby();
    }
  }

  private go(hash: string): void {
    if (location.hash !== hash) history.pushState(null, "", hash);
    this.route();
  }

  // ------------------------------------------------------------ connection

  private freshConnection(): void {
    this.conn?.stop("left");
    this.pendingRequest = null;
    this.listAsked = [];
    const conn = new Connection(wsUrl(), {
      message: (msg) => {
        if (this.conn === conn) this.onMessage(msg);
      },
      state: (s) => {
        if (this.conn !== conn) return;
        this.connState = s;
        this.render();
      },
      resume: (welcome, again) => {
        if (this.conn === conn) this.onResume(welcome, again);
      },
    });
    this.conn = conn;
    conn.start();
  }

  /** Parts of the protocol this server turned out not to speak (it answered
   * `message/bad_field` "unknown field ..."): the client then uses the older form. */
  legacy = { list: false, replay: false, bot: false, lobby: false };

  get modern(): boolean {
    return this.conn?.supportsCatalogue ?? false;
  }

  private onResume(_welcome: ServerMessage, _again: boolean): void {
    this.listAsked = []; // answers to asks on the old socket never come
    if (this.modern && !this.catLoaded) this.conn?.send({ type: "get_cards" });
    if (this.screen === "match" && this.match !== null) {
      const m = this.match;
      if (m.token !== null) this.conn?.send({ type: "reconnect", token: m.token, last_seq: m.seq });
      else if (m.seat === null && m.matchId) this.conn?.send({ type: "spectate", match_id: m.matchId, last_seq: m.seq });
      else if (this.pendingRequest !== null) this.conn?.send(this.pendingRequest);
      if (m.inflight !== null) window.setTimeout(() => this.resendInflight(), 300);
    } else if (this.screen === "replay" && this.replay !== null) {
      this.requestReplay(this.replay.entries.length ? (this.replay.entries[this.replay.entries.length - 1]?.seq ?? 0) + 1 : 0);
    } else if (this.screen === "lobby") {
      if (this.pendingRequest !== null) this.conn?.send(this.pendingRequest);
      this.refreshLists();
    }
    this.render();
  }

  private resendInflight(): void {
    const m = this.match;
    if (m?.inflight) this.conn?.send(m.inflight.msg);
  }

  private request(msg: Record<string, unknown>): void {
    this.pendingRequest = msg;
    this.requestRetry = 0;
    this.conn?.send(msg);
  }

  private retryRequest(): void {
    if (this.pendingRequest === null) return;
    this.requestRetry += 1;
    const delay = Math.min(10000, 500 * 2 ** Math.min(this.requestRetry, 5)) * (0.75 + Math.random() * 0.5);
    if (this.requestTimer !== null) window.clearTimeout(this.requestTimer);
    this.requestTimer = window.setTimeout(() => {
      this.requestTimer = null;
      if (this.pendingRequest !== null) this.conn?.send(this.pendingRequest);
    }, delay);
  }

  private onMessage(msg: ServerMessage): void {
    switch (msg.type) {
      case "cards":
        this.cat.load(msg as { version?: unknown; cards?: unknown; decks?: unknown });
        this.catLoaded = true;
        break;
      case "match_list":
        this.onMatchList(msg["matches"] as MatchRow[]);
        break;
      case "seated":
        this.onSeated(msg);
        break;
      case "spectating":
        if (this.match !== null) {
          this.match.delay = Number(msg["delay"] ?? 0);
          this.match.started = true;
        }
        this.pendingRequest = null;
        break;
      case "update":
        this.onUpdate(msg as unknown as Update);
        break;
      case "presence":
        if (this.match !== null && msg["match_id"] === this.match.matchId) this.match.presence = msg["seats"] as boolean[];
        break;
      case "accepted":
        if (this.match !== null && this.match.inflight?.id === msg["client_action_id"]) {
          this.match.inflight = null;
          this.match.awaitSeq = Number(msg["seq"]);
        }
        break;
      case "rejected":
        if (this.match !== null) {
          if (this.match.inflight?.id === msg["client_action_id"]) this.match.inflight = null;
          this.match.error = `The server refused that action: ${String(msg["reason"])} (${String(msg["code"])})`;
          if (msg["code"] === "action/stale") this.conn?.send({ type: "sync", last_seq: this.match.seq });
        }
        break;
      case "replay":
        this.onReplay(msg);
        break;
      case "error":
        this.onError(msg);
        break;
      case "closing":
        // reconnect false: the seat was taken over elsewhere (close 4004 follows; no retry)
        if (msg["reconnect"] !== false) {
          this.connState = { kind: "waiting", retryAt: Date.now() + 500, attempt: 1, why: String(msg["reason"] ?? "the server is restarting") };
        }
        break;
      default:
        break;
    }
    this.render();
  }

  /** An older server refused a field this client sent: remember, and ask again the old way. */
  private degrade(field: string): boolean {
    if (field === "status" || field === "before_ms") {
      this.legacy.list = true;
      this.listAsked = [];
      if (this.screen === "lobby") this.refreshLists();
      return true;
    }
    if (["viewpoint", "views", "from_seq", "limit"].includes(field)) {
      this.legacy.replay = true;
      if (this.replay !== null) {
        this.replay.entries = [];
        this.requestReplay(0);
      }
      return true;
    }
    if (field === "opponent") {
      this.legacy.bot = true;
      this.pendingRequest = null;
      this.lobby.busy = null;
      this.lobby.error = BOT_UNSUPPORTED;
      return true;
    }
    if ((field === "name" || field === "request_id") && this.pendingRequest !== null) {
      this.legacy.lobby = true;
      const again = { ...this.pendingRequest };
      delete again["name"];
      delete again["request_id"];
      this.request(again);
      return true;
    }
    return false;
  }

  private onError(msg: ServerMessage): void {
    const code = String(msg["code"]);
    const text = `${String(msg["reason"])} (${code})`;
    const unknown = code === "message/bad_field" ? /^unknown field '([a-z_]+)'/.exec(String(msg["reason"])) : null;
    if (unknown?.[1] && this.degrade(unknown[1])) return;
    if (code === "server/unavailable" || code === "server/internal") {
      if (this.pendingRequest !== null) this.retryRequest();
      else if (this.match?.inflight) window.setTimeout(() => this.resendInflight(), 1000);
    } else {
      this.pendingRequest = null;
      this.lobby.busy = null;
    }
    if (this.screen === "replay" && this.replay !== null) {
      this.replay.error = text;
      this.replay.loading = false;
    } else if (this.screen === "match" && this.match !== null) {
      this.match.error = text;
      if (this.match.inflight && code.startsWith("message/")) this.match.inflight = null;
    } else {
      this.lobby.error = text;
      if (code === "deck/invalid") this.lobby.deckErrors = [String(msg["reason"])];
    }
  }

  // ------------------------------------------------------------ lobby

  private toLobby(): void {
    this.stopPlaying();
    this.screen = "lobby";
    this.match = null;
    this.replay = null;
    this.lobby.error = null;
    this.lobby.busy = null;
    this.freshConnection();
    this.render();
  }

  /** Ask for a list; answers come back in the order asked (one connection
   * handles its requests in order), so each answer is matched to its ask. */
  private askList(status: "live" | "finished" | "all"): void {
    // no `limit`: the server's default page is enough, and an older server that
    // refuses `status` is then told apart from one that refuses replay paging
    const msg: Record<string, unknown> = { type: "list_matches" };
    if (!this.legacy.list && status !== "all") msg["status"] = status;
    if (this.conn?.send(msg)) this.listAsked.push(msg["status"] === undefined ? "all" : status);
  }

  private refreshLists(): void {
    if (!this.legacy.list) {
      this.askList("live");
      this.askList("finished");
    } else {
      this.askList("all");
    }
  }

  private onMatchList(rows: MatchRow[]): void {
    const asked = this.listAsked.shift() ?? "all";
    if (this.match !== null) {
      const row = rows.find((r) => r.match_id === this.match?.matchId);
      if (row?.players) this.match.names = row.players.map((n, i) => n || (SEATS[i] ?? "?"));
    }
    if (this.replay !== null) {
      const row = rows.find((r) => r.match_id === this.replay?.matchId);
      if (row?.players) this.replay.names = row.players.map((n, i) => n || (SEATS[i] ?? "?"));
    }
    if (asked === "finished") this.lobby.finished = rows.filter((r) => r.status === "finished");
    else if (asked === "live") this.lobby.live = rows.filter((r) => r.status !== "finished");
    else this.lobby.live = rows.filter((r) => r.status !== "finished");
  }

  private deckFromForm(): number[] | null | false {
    const f = this.lobby.form;
    const choice = f["deck"] ?? "demo";
    if (choice === "paste") {
      const parsed = parseDecklist(f["decklist"] ?? "", this.cat);
      this.lobby.deckErrors = parsed.errors;
      if (parsed.errors.length) {
        this.render();
        return false;
      }
      return parsed.cards;
    }
    this.lobby.deckErrors = [];
    if (choice.startsWith("demo:")) {
      const d = this.cat.decks.find((x) => x.name === choice.slice(5));
      return d ? d.cards : null;
    }
    return null;
  }

  private saveName(): string {
    const name = this.name.trim().slice(0, 32);
    this.name = name;
    localStorage.setItem(NAME_KEY, name);
    return name;
  }

  private startRequest(kind: "create" | "bot" | "quick" | "join"): void {
    const deck = this.deckFromForm();
    if (deck === false) return;
    const name = this.saveName();
    const f = this.lobby.form;
    const msg: Record<string, unknown> = { deck };
    if (!this.legacy.lobby) {
      msg["name"] = name || "Duelist";
      msg["request_id"] = randomId(24);
    }
    if (kind === "create" || kind === "bot") {
      msg["type"] = "create_match";
      const clock = Number(f["clock"] ?? 0);
      if (clock > 0) {
        msg["clock_ms"] = clock * 1000;
        msg["increment_ms"] = Number(f["increment"] ?? 0) * 1000;
      }
      if (kind === "bot") {
        if (this.legacy.bot) {
          this.lobby.error = BOT_UNSUPPORTED;
          this.render();
          return;
        }
        msg["opponent"] = "bot";
      }
    } else if (kind === "quick") {
      msg["type"] = "quick_match";
    } else {
      msg["type"] = "join";
      msg["match_id"] = (this.lobby.joinId ?? f["join_id"] ?? "").trim();
    }
    this.lobby.error = null;
    this.lobby.busy = kind === "bot" ? "Starting a duel against the bot…" : kind === "quick" ? "Looking for an opponent…" : kind === "join" ? "Joining…" : "Creating the match…";
    this.request(msg);
    this.render();
  }

  private onSeated(msg: ServerMessage): void {
    this.pendingRequest = null;
    this.lobby.busy = null;
    const id = String(msg["match_id"]);
    const seat = Number(msg["seat"]);
    const token = String(msg["token"]);
    sessionStorage.setItem(SEAT_KEY(id), token);
    if (this.match === null || this.match.matchId !== id) {
      this.match = this.newMatch(id, seat, token);
    }
    this.match.seat = seat;
    this.match.token = token;
    this.match.started = Boolean(msg["started"]) || this.match.started;
    if (this.match.names[seat] === SEATS[seat] && this.name) this.match.names[seat] = this.name;
    this.screen = "match";
    if (location.hash !== `#/match/${id}`) history.replaceState(null, "", `#/match/${id}`);
    this.askList("live");
  }

  private newMatch(id: string, seat: number | null, token: string | null): MatchState {
    return {
      matchId: id,
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
      lpFreshSeq: -1,
      inflight: null,
      awaitSeq: 0,
      selecting: null,
      retargeting: false,
      names: [SEATS[0] ?? "A", SEATS[1] ?? "B"],
      delay: 0,
      error: null,
    };
  }

  // ------------------------------------------------------------ match

  private enterMatch(id: string, token: string | null, seat: number | null): void {
    this.stopPlaying();
    this.screen = "match";
    this.replay = null;
    this.match = this.newMatch(id, seat, token);
    if (token === null) this.match.started = false;
    this.freshConnection();
    this.render();
  }

  private onUpdate(u: Update): void {
    const m = this.match;
    if (m === null || u.match_id !== m.matchId) return;
    if (!u.snapshot && u.seq <= m.seq) return; // already have it
    if (!u.snapshot && m.seq > 0 && u.seq > m.seq + 1) {
      this.conn?.send({ type: "sync", last_seq: m.seq });
      return;
    }
    m.started = true;
    for (const f of u.facts) {
      const line = describe(f, (c) => this.cat.name(c));
      if (line !== null) m.log.push({ seq: u.seq, text: line });
    }
    if (m.log.length > 3000) m.log.splice(0, m.log.length - 3000);
    m.seq = u.seq;
    if (u.view !== null) {
      const before = m.view;
      if (before === null) this.askList("live"); // the players' names are in the lobby's row
      if (before !== null) {
        u.view.players.forEach((p, i) => {
          const was = before.players[i]?.lp;
          if (was !== undefined && was !== p.lp) {
            m.lpDelta[i] = p.lp - was;
            m.lpFreshSeq = u.seq;
          }
        });
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
      if (this.dialog.open && this.dialog.dataset["kind"] === "actions") this.dialog.close();
      this.maybeAutoPass();
    }
  }

  /** With auto-pass on, a window in which the only choice is to pass is passed
   * for the player (after a moment, so the board can be seen). */
  private maybeAutoPass(): void {
    if (this.autoPassTimer !== null) window.clearTimeout(this.autoPassTimer);
    this.autoPassTimer = null;
    const m = this.match;
    if (!this.autoPass || m === null || m.seat === null || m.view === null) return;
    const choices = m.legal.filter((a) => a.do !== "concede");
    const only = choices.length === 1 && choices[0]?.do === "pass" ? choices[0] : null;
    if (only === null) return;
    const seq = m.seq;
    this.autoPassTimer = window.setTimeout(() => {
      this.autoPassTimer = null;
      const now = this.match;
      if (now === m && now.seq === seq && now.inflight === null && now.legal.includes(only) && this.autoPass) this.sendAction(only);
    }, 250);
  }

  private sendAction(a: Action): void {
    const m = this.match;
    if (m === null || m.inflight !== null) return;
    // only ever an action from `legal`, verbatim (concede: the contract allows it any time)
    if (a.do !== "concede" && !m.legal.includes(a)) return;
    this.actionCount += 1;
    const id = `w${this.actionPrefix}-${this.actionCount}`;
    const msg = { type: "action", client_action_id: id, expected_seq: m.seq, action: a };
    m.inflight = { id, msg };
    m.error = null;
    m.selecting = null;
    m.retargeting = false;
    if (this.dialog.open) this.dialog.close();
    if (!this.conn?.send(msg)) {
      // not connected: it is sent again after the reconnect (same id: never applied twice)
    }
    this.render();
  }

  private boardHooks(): BoardHooks {
    return {
      send: (a) => this.sendAction(a),
      select: (attacker) => {
        if (this.match) {
          this.match.selecting = attacker === null ? null : { attacker };
          this.render();
          if (attacker !== null) {
            window.setTimeout(() => this.root.querySelector<HTMLElement>(".targetable, [data-action=attack-direct]")?.focus(), 0);
          }
        }
      },
      retarget: (on) => {
        if (this.match) {
          this.match.retargeting = on;
          this.render();
        }
      },
      openCard: (card, actions) => this.openCardDialog(card, actions),
      openPile: (seat, zone) => this.openPile(seat, zone),
      hover: (card) => {
        this.hovered = card;
        const panel = this.root.querySelector<HTMLElement>(".side .detail-slot");
        if (panel) replaceChildren(panel, cardDetail(card, this.cat));
      },
      concede: () => this.confirmConcede(),
      autoPass: (on) => {
        this.autoPass = on;
        localStorage.setItem(AUTOPASS_KEY, on ? "on" : "off");
        this.maybeAutoPass();
        this.render();
      },
    };
  }

  private openDialog(kind: string, title: string, ...body: (HTMLElement | null)[]): void {
    const close = h("button", { type: "button", class: "act", "data-key": "dlg-close", onclick: () => this.dialog.close() }, "Close");
    this.dialog.dataset["kind"] = kind;
    replaceChildren(this.dialog, h("h2", { id: "dlg-title" }, title), ...body, h("div", { class: "dlg-foot" }, close));
    this.dialog.setAttribute("aria-labelledby", "dlg-title");
    if (!this.dialog.open) this.dialog.showModal();
    this.dialog.querySelector<HTMLElement>("button.primary, button")?.focus();
  }

  private openCardDialog(card: CardView, actions: Action[]): void {
    const view = this.currentView();
    if (view === null) return;
    const attacks = actions.filter((a) => a.do === "attack");
    const others = actions.filter((a) => a.do !== "attack");
    const buttons = others.map((a, i) =>
      h("button", { type: "button", class: `act${others.length === 1 && i === 0 ? " primary" : ""}`, "data-action": a.do, onclick: () => this.sendAction(a) }, describeAction(view, this.cat, a, false)),
    );
    if (attacks.length) {
      buttons.push(
        h(
          "button",
          {
            type: "button",
            class: "act",
            "data-action": "attack",
            onclick: () => {
              this.dialog.close();
              this.boardHooks().select(key(card.id));
            },
          },
          "Declare an attack…",
        ),
      );
    }
    const title = card.hidden ? "Face-down card" : (card.name ?? this.cat.name(card.code) ?? "Card");
    this.openDialog(actions.length ? "actions" : "card", title, cardDetail(card, this.cat), buttons.length ? h("div", { class: "dlg-acts" }, buttons) : null);
  }

  private openPile(seat: number, zone: "graveyard" | "banished"): void {
    const view = this.currentView();
    if (view === null) return;
    const cards = view.players[seat]?.[zone] ?? [];
    const m = this.screen === "match" ? this.match : null;
    const legal = m?.legal ?? [];
    const items = cards.map((c) => {
      const acts = m !== null && c.id !== undefined ? legal.filter((a) => actionCard(a) === key(c.id)) : [];
      return h(
        "li",
        null,
        h("details", null, h("summary", null, c.hidden ? "face-down card" : (c.name ?? this.cat.name(c.code) ?? "?"), acts.length ? ` (${acts.length} action${acts.length > 1 ? "s" : ""})` : ""), cardDetail(c, this.cat)),
        acts.map((a) => h("button", { type: "button", class: "act", "data-action": a.do, onclick: () => this.sendAction(a) }, describeAction(view, this.cat, a, false))),
      );
    });
    const where = zone === "graveyard" ? "Graveyard" : "banished cards";
    this.openDialog(
      "pile",
      `${SEATS[seat]}'s ${where} (${cards.length})`,
      cards.length ? h("ol", { class: "pile-list", "data-pile-list": `${zone}-${seat}` }, items) : h("p", null, "Empty."),
    );
  }

  private confirmConcede(): void {
    this.openDialog(
      "confirm",
      "Concede the duel?",
      h("p", null, "Your opponent wins at once. This cannot be undone."),
      h("div", { class: "dlg-acts" }, h("button", { type: "button", class: "act danger", "data-action": "concede", onclick: () => this.sendAction({ do: "concede" }) }, "Yes, concede")),
    );
  }

  private currentView(): View | null {
    if (this.screen === "match") return this.match?.view ?? null;
    if (this.screen === "replay" && this.replay) return this.replay.entries[this.replay.index]?.view ?? null;
    return null;
  }

  private tickClocks(): void {
    const m = this.match;
    if (this.screen !== "match" || m === null || m.clocks === null) return;
    this.root.querySelectorAll<HTMLElement>("[data-clock]").forEach((el) => {
      const seat = Number(el.dataset["clock"]);
      el.textContent = `Clock ${formatClock(this.clockOf(m, seat))}`;
    });
  }

  private clockOf(m: MatchState, seat: number): number {
    const base = m.clocks?.[seat] ?? 0;
    const running = m.pending !== null && m.pending.seat === seat && m.view?.winner === null;
    return running ? base - (Date.now() - m.clockAt) : base;
  }

  // ------------------------------------------------------------ replay

  private openReplay(id: string): void {
    this.stopPlaying();
    this.screen = "replay";
    this.match = null;
    this.replay = { matchId: id, viewpoint: "all", entries: [], total: null, loading: true, error: null, index: 0, playing: false, names: ["A", "B"], keepSeq: null };
    this.freshConnection();
    this.render();
  }

  private requestReplay(fromSeq: number): void {
    const r = this.replay;
    if (r === null) return;
    r.loading = true;
    if (!this.legacy.replay) {
      const viewpoint: number | string = r.viewpoint === "0" || r.viewpoint === "1" ? Number(r.viewpoint) : r.viewpoint;
      const msg: Record<string, unknown> = { type: "get_replay", match_id: r.matchId, viewpoint, views: true, limit: 200 };
      if (fromSeq > 0) msg["from_seq"] = fromSeq;
      this.conn?.send(msg);
      if (fromSeq === 0) this.askList("finished");
    } else {
      this.conn?.send({ type: "get_replay", match_id: r.matchId });
    }
  }

  private onReplay(msg: ServerMessage): void {
    const r = this.replay;
    if (r === null || msg["match_id"] !== r.matchId) return;
    const entries = (msg["entries"] as ReplayEntry[]) ?? [];
    const have = new Set(r.entries.map((e) => e.seq));
    for (const e of entries) if (!have.has(e.seq)) r.entries.push(e);
    r.entries.sort((a, b) => a.seq - b.seq);
    r.total = typeof msg["total"] === "number" ? msg["total"] : r.entries.length;
    const next = msg["next_seq"];
    if (typeof next === "number" && !this.legacy.replay) {
      this.requestReplay(next);
    } else {
      r.loading = false;
      if (r.keepSeq !== null) {
        const keep = r.keepSeq;
        const i = r.entries.findIndex((e) => e.seq >= keep);
        r.index = i < 0 ? Math.max(0, r.entries.length - 1) : i;
        r.keepSeq = null;
      }
    }
  }

  private setViewpoint(v: Viewpoint): void {
    const r = this.replay;
    if (r === null || r.viewpoint === v) return;
    const keepSeq = r.entries[r.index]?.seq ?? 0;
    r.viewpoint = v;
    r.entries = [];
    r.keepSeq = keepSeq;
    this.requestReplay(0);
    this.render();
  }

  private stepReplay(to: number): void {
    const r = this.replay;
    if (r === null || r.entries.length === 0) return;
    r.index = Math.max(0, Math.min(r.entries.length - 1, to));
    if (r.index === r.entries.length - 1) this.stopPlaying();
    this.render();
  }

  private togglePlay(): void {
    const r = this.replay;
    if (r === null) return;
    if (r.playing) {
      this.stopPlaying();
    } else {
      r.playing = true;
      if (r.index >= r.entries.length - 1) r.index = 0;
      this.playTimer = window.setInterval(() => this.stepReplay((this.replay?.index ?? 0) + 1), 700);
    }
    this.render();
  }

  private stopPlaying(): void {
    if (this.playTimer !== null) window.clearInterval(this.playTimer);
    this.playTimer = null;
    if (this.replay) this.replay.playing = false;
  }

  // ------------------------------------------------------------ rendering

  render(): void {
    const body =
      this.screen === "lobby" ? this.renderLobby() : this.screen === "match" ? this.renderMatch() : this.renderReplay();
    replaceChildren(this.root, this.renderHeader(), body);
    document.title = this.title();
    const log = this.root.querySelector<HTMLElement>(".log ol");
    if (log && log.dataset["stick"] !== "no") log.scrollTop = log.scrollHeight;
  }

  private title(): string {
    const m = this.match;
    if (this.screen === "replay") return "Replay · Duel";
    if (this.screen !== "match" || m === null || m.view === null) return "Duel";
    const v = m.view;
    if (v.winner !== null && v.winner !== undefined) return "Duel over · Duel";
    if (m.seat !== null && m.legal.length > 0) return "(Your move) Duel";
    return `Turn ${v.turn} · Duel`;
  }

  private renderHeader(): HTMLElement {
    const s = this.connState;
    let status: string;
    let cls = "ok";
    if (s.kind === "open") status = "connected";
    else if (s.kind === "connecting") {
      status = "connecting…";
      cls = "warn";
    } else if (s.kind === "waiting") {
      status = `${s.why}; reconnecting (attempt ${s.attempt})…`;
      cls = "warn";
    } else {
      status = s.why === "left" ? "not connected" : `disconnected: ${s.why}`;
      cls = "bad";
    }
    return h(
      "header",
      { class: "top" },
      h("a", { href: "#/", class: "brand", "data-key": "home", onclick: (e: Event) => { e.preventDefault(); this.go("#/"); } }, "Duel"),
      h("span", { class: `conn ${cls}`, role: "status", "data-testid": "conn" }, status),
      s.kind === "waiting"
        ? h("button", { type: "button", class: "act small", onclick: () => this.conn?.retryNow() }, "Reconnect now")
        : null,
      s.kind === "closed" && s.why !== "left" && this.screen !== "lobby"
        ? h("button", { type: "button", class: "act small", onclick: () => this.route() }, "Try again")
        : null,
    );
  }

  private renderLobby(): HTMLElement {
    const L = this.lobby;
    const f = L.form;
    const bind = (field: string) => (e: Event) => {
      const el = e.target as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
      if (field === "name") this.name = el.value;
      else f[field] = el.value;
      if (field === "deck") this.render();
    };
    const select = (id: string, options: [string, string][]) => {
      const el = h("select", { id, name: id, "data-key": id, onchange: bind(id) }, options.map(([v, label]) => h("option", { value: v }, label)));
      el.value = f[id] ?? options[0]?.[0] ?? "";
      return el;
    };
    const deckSelect = select("deck", [
      ["demo", "Demo deck (the server's choice)"],
      ...this.cat.decks.map((d): [string, string] => [`demo:${d.name}`, `Demo: ${d.title || d.name}`]),
      ["paste", "Paste a decklist…"],
    ]);
    const pasteBox = h("textarea", {
      name: "decklist",
      id: "decklist",
      rows: 8,
      "data-key": "decklist",
      value: f["decklist"] ?? "",
      oninput: bind("decklist"),
      placeholder: "One card a line: a passcode or a name, optionally with a count\n3 Honest\n37742478\nBlue-Eyes White Dragon x2",
      "aria-describedby": "deck-errors",
    });
    const deckInfo = this.cat.decks.find((d) => `demo:${d.name}` === f["deck"]);
    const btn = (kind: "create" | "bot" | "quick" | "join", label: string, primary = false) =>
      h("button", { type: "button", class: `act${primary ? " primary" : ""}`, "data-key": `lobby-${kind}-${label}`, "data-lobby": kind, disabled: L.busy !== null, onclick: () => this.startRequest(kind) }, label);
    const form = h(
      "form",
      { class: "lobby-form", "aria-label": "start a duel", onsubmit: (e: Event) => { e.preventDefault(); this.startRequest(L.joinId !== null ? "join" : "bot"); } },
      h("div", { class: "field" }, h("label", { for: "name" }, "Your name"), h("input", { id: "name", name: "name", maxlength: 32, autocomplete: "nickname", value: this.name, "data-key": "name", placeholder: "Duelist", oninput: bind("name") })),
      h("div", { class: "field" }, h("label", { for: "deck" }, "Deck"), deckSelect, deckInfo ? h("p", { class: "muted" }, deckInfo.description) : null),
      f["deck"] === "paste" ? h("div", { class: "paste" }, h("label", { for: "decklist" }, "Decklist"), pasteBox) : null,
      L.deckErrors.length ? h("ul", { class: "errors", id: "deck-errors", role: "alert" }, L.deckErrors.map((e) => h("li", null, e))) : h("div", { id: "deck-errors" }),
      h(
        "div",
        { class: "field row2" },
        h("span", null, h("label", { for: "clock" }, "Chess clock"), select("clock", [["0", "none"], ["60", "1 minute"], ["300", "5 minutes"], ["600", "10 minutes"], ["1800", "30 minutes"]])),
        h("span", null, h("label", { for: "increment" }, "Increment"), select("increment", [["0", "none"], ["2", "+2 s"], ["5", "+5 s"], ["10", "+10 s"]])),
      ),
      L.joinId !== null ? h("div", { class: "joinbox" }, h("p", null, `You were invited to match ${L.joinId}.`), btn("join", "Join this match", true)) : null,
      h("div", { class: "buttons" }, btn("bot", "Play against the bot", L.joinId === null), btn("create", "Create a match (invite a friend)"), btn("quick", "Quick match")),
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
        h("button", { type: "button", class: "act", "data-key": "resume", onclick: () => this.go(`#/seat/${encodeURIComponent((f["seat_token"] ?? "").trim())}`) }, "Take the seat"),
      ),
    );
    const rows = (list: MatchRow[], kind: "watch" | "replay") =>
      list.length === 0
        ? h("p", { class: "muted" }, kind === "watch" ? "No live matches right now." : "No finished matches yet.")
        : h(
            "ul",
            { class: "matches", "data-list": kind },
            list.map((r) =>
              h(
                "li",
                null,
                h("span", { class: "mname" }, r.players ? r.players.map((p, i) => p ?? (r.status === "waiting" && i === 1 ? "(open seat)" : "?")).join(" vs ") : r.match_id),
                h("span", { class: "muted" }, ` ${r.status}${r.status === "finished" && r.winner !== undefined && r.winner !== null ? ` · ${r.winner === "draw" ? "draw" : `${SEATS[r.winner]} won`}` : ""} · ${r.seq} entries · ${new Date(r.created_ms).toLocaleTimeString()}`),
                kind === "watch"
                  ? [
                      r.status === "waiting" ? h("a", { class: "act small", href: `#/join/${r.match_id}`, "data-join": r.match_id }, "Join") : null,
                      r.spectators ? h("a", { class: "act small", href: `#/watch/${r.match_id}`, "data-watch": r.match_id }, `Watch${r.spectator_delay ? ` (${r.spectator_delay} behind)` : ""}`) : null,
                    ]
                  : h("a", { class: "act small", href: `#/replay/${r.match_id}`, "data-replay": r.match_id }, "Replay"),
              ),
            ),
          );
    return h(
      "main",
      { class: "lobby" },
      h("section", { class: "panel" }, h("h1", null, "Duel in the browser"), L.busy ? h("p", { class: "busy", role: "status" }, L.busy) : null, L.error ? h("p", { class: "error", role: "alert" }, L.error) : null, form),
      h(
        "section",
        { class: "panel" },
        h("h2", null, "Live matches"),
        rows(L.live, "watch"),
        h("h2", null, "Finished matches"),
        !this.legacy.list ? rows(L.finished, "replay") : h("p", { class: "muted" }, "This server does not list finished matches; open a replay with #/replay/MATCH_ID."),
        h("button", { type: "button", class: "act small", "data-key": "refresh", onclick: () => this.refreshLists() }, "Refresh lists"),
      ),
    );
  }

  private seatInfos(m: MatchState, view: View): Seatinfo[] {
    return [0, 1].map((seat) => ({
      name: m.names[seat] ?? SEATS[seat] ?? "?",
      lpDelta: m.lpDelta[seat] ?? null,
      lpDeltaFresh: m.lpFreshSeq === m.seq,
      clockMs: m.clocks === null ? null : this.clockOf(m, seat),
      clockRunning: m.pending !== null && m.pending.seat === seat && view.winner === null,
      connected: m.presence ? (m.presence[seat] ?? null) : null,
    }));
  }

  private renderMatch(): HTMLElement {
    const m = this.match;
    if (m === null) return h("main");
    const inviteUrl = `${location.origin}${location.pathname}#/join/${m.matchId}`;
    if (m.view === null) {
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
          h("button", { type: "button", class: "act", onclick: () => this.go("#/") }, "Back to the lobby"),
        ),
      );
    }
    const view = m.view;
    const model: BoardModel = {
      view,
      me: m.seat,
      bottom: m.seat ?? 0,
      legal: m.seat === null ? [] : m.legal,
      pending: m.pending,
      seats: this.seatInfos(m, view),
      interactive: m.seat !== null,
      busy: m.inflight !== null || m.seq < m.awaitSeq,
      selecting: m.selecting,
      retargeting: m.retargeting,
      autoPass: this.autoPass,
    };
    const finished = view.winner !== null && view.winner !== undefined;
    return h(
      "main",
      { class: "match", "data-seq": m.seq, "data-role": m.seat === null ? "spectator" : `seat-${m.seat}` },
      h(
        "div",
        { class: "board-wrap" },
        m.seat === null ? h("p", { class: "banner" }, `Spectating match ${m.matchId}${m.delay ? ` (${m.delay} entries behind the live duel)` : ""}`) : null,
        m.error ? h("p", { class: "error", role: "alert", "data-testid": "error" }, m.error) : null,
        renderBoard(model, this.cat, this.boardHooks()),
        finished
          ? h(
              "div",
              { class: "after" },
              h("a", { class: "act primary", href: `#/replay/${m.matchId}`, "data-testid": "open-replay" }, "Watch the replay"),
              h("a", { class: "act", href: "#/" }, "Back to the lobby"),
            )
          : null,
      ),
      this.renderSide(m.log, m.seq),
    );
  }

  private renderSide(log: LogLine[], currentSeq: number, showUpTo = Infinity): HTMLElement {
    const lines = log.filter((l) => l.seq <= showUpTo);
    return h(
      "aside",
      { class: "side" },
      h("section", { class: "detail-slot", "aria-label": "card text" }, cardDetail(this.hovered, this.cat)),
      h(
        "section",
        { class: "log", "aria-label": "battle log" },
        h("h2", null, "Battle log"),
        h("ol", { "data-testid": "log", "aria-live": "polite" }, lines.map((l) => h("li", { class: l.seq === currentSeq ? "current" : "", "data-seq": l.seq }, l.text.trim()))),
      ),
    );
  }

  private renderReplay(): HTMLElement {
    const r = this.replay;
    if (r === null) return h("main");
    const entry = r.entries[r.index];
    const view = entry?.view ?? null;
    const turns: { turn: number; index: number }[] = [];
    r.entries.forEach((e, i) => {
      for (const f of e.facts) if (f.t === "turn") turns.push({ turn: Number(f["turn"]), index: i });
    });
    const log: LogLine[] = [];
    for (const e of r.entries) {
      for (const f of e.facts) {
        const line = describe(f, (c) => this.cat.name(c));
        if (line !== null) log.push({ seq: e.seq, text: line });
      }
    }
    const vp = h(
      "select",
      { id: "viewpoint", "data-key": "viewpoint", onchange: (e: Event) => this.setViewpoint((e.target as HTMLSelectElement).value as Viewpoint) },
      [
        h("option", { value: "all" }, "Everything (all cards revealed)"),
        h("option", { value: "0" }, `A's view (${r.names[0] ?? "A"})`),
        h("option", { value: "1" }, `B's view (${r.names[1] ?? "B"})`),
        h("option", { value: "spectator" }, "Spectator's view"),
      ],
    );
    vp.value = r.viewpoint;
    const turnSel = h(
      "select",
      { id: "jump", "data-key": "jump", onchange: (e: Event) => this.stepReplay(Number((e.target as HTMLSelectElement).value)) },
      [h("option", { value: "" }, "Jump to turn…"), ...turns.map((t) => h("option", { value: t.index }, `Turn ${t.turn}`))],
    );
    const n = r.entries.length;
    const controls = h(
      "div",
      { class: "replay-controls", role: "toolbar", "aria-label": "replay controls" },
      h("button", { type: "button", class: "act", "data-key": "rp-first", "data-replay-ctl": "first", disabled: n === 0 || r.index === 0, onclick: () => this.stepReplay(0) }, "|◀ Start"),
      h("button", { type: "button", class: "act", "data-key": "rp-back", "data-replay-ctl": "back", disabled: n === 0 || r.index === 0, onclick: () => this.stepReplay(r.index - 1) }, "◀ Step back"),
      h("button", { type: "button", class: "act primary", "data-key": "rp-play", "data-replay-ctl": "play", disabled: n === 0, onclick: () => this.togglePlay() }, r.playing ? "Pause" : "▶ Play"),
      h("button", { type: "button", class: "act", "data-key": "rp-fwd", "data-replay-ctl": "forward", disabled: n === 0 || r.index >= n - 1, onclick: () => this.stepReplay(r.index + 1) }, "Step forward ▶"),
      h("button", { type: "button", class: "act", "data-key": "rp-last", "data-replay-ctl": "last", disabled: n === 0 || r.index >= n - 1, onclick: () => this.stepReplay(n - 1) }, "End ▶|"),
      h("label", { for: "jump", class: "sr-only" }, "Jump to turn"),
      turnSel,
      !this.legacy.replay ? h("label", { for: "viewpoint" }, "Viewpoint") : null,
      !this.legacy.replay ? vp : null,
      h("span", { class: "pos", "data-testid": "replay-pos" }, n ? `entry ${entry?.seq ?? "?"} of ${r.total ?? n}` : r.loading ? "loading…" : "no entries"),
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
        pending: null,
        seats: [0, 1].map((seat) => {
          const was = prev?.players[seat]?.lp;
          const now = view.players[seat]?.lp;
          return {
            name: r.names[seat] ?? SEATS[seat] ?? "?",
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
      board = renderBoard(model, this.cat, this.boardHooks());
    } else if (n > 0) {
      board = h("p", { class: "muted" }, "This server sends no board views with replays; the log below tells the duel.");
    } else {
      board = h("p", { class: "muted" }, r.loading ? "Loading the replay…" : "");
    }
    return h(
      "main",
      { class: "match replay", "data-replay-index": r.index, "data-replay-seq": entry?.seq ?? 0 },
      h(
        "div",
        { class: "board-wrap" },
        h("h1", { class: "replay-title" }, `Replay of ${r.matchId}`),
        r.error ? h("p", { class: "error", role: "alert" }, r.error) : null,
        controls,
        board,
      ),
      this.renderSide(log, entry?.seq ?? 0, entry?.seq ?? 0),
    );
  }
}

export { cardBox, cardLabel };
