// The application: three screens (lobby, match, replay) routed by the URL's
// hash, one connection (session.ts) whose messages go to the screen they
// are for, the header, and rendering.
//
// Routes: #/ (lobby), #/join/ID, #/match/ID (a seat whose token this tab
// keeps), #/watch/ID, #/replay/ID, #/replay-file (a replay file the user
// opened: a file input, or a file dropped on the lobby or the replay viewer),
// #/seat/TOKEN (take a seat by its token), #/decks and #/decks/ID (the deck editor),
// #/account (log in, register), #/ladder and #/ladder/FORMAT (the leaderboard), #/player/NAME
// (a player's ratings and matches).

import { Account } from "./account";
import { cardDetail } from "./board";
import { Catalogue } from "./cards";
import { DeckEditor } from "./deckeditor";
import { DeckSync } from "./decksync";
import { Dialogs } from "./dialogs";
import { h, replaceChildren, swap } from "./dom";
import { autoPassDefault, Game, type MatchState } from "./game";
import { focusDecision, installKeys } from "./keys";
import { LadderPage } from "./ladder";
import { loadName, Lobby } from "./lobby";
import { loadStops } from "./moves";
import { ProfilePage } from "./profile";
import type { CardView, ConnState, MatchRow, ReplayPage, ServerMessage } from "./proto";
import { ReplayViewer, type ReplayState } from "./replay";
import { Session } from "./session";

const SEAT_KEY = (id: string) => `duel.seat.${id}`;

type Screen = "lobby" | "match" | "replay" | "decks" | "account" | "ladder" | "player";

export class App {
  readonly cat = new Catalogue();
  readonly session: Session;
  readonly dialogs: Dialogs;
  readonly root: HTMLElement;
  readonly lobby: Lobby;
  readonly account: Account;
  readonly decks: DeckSync;
  ladder: LadderPage | null = null;
  profile: ProfilePage | null = null;
  screen: Screen = "lobby";
  game: Game | null = null;
  viewer: ReplayViewer | null = null;
  editor: DeckEditor | null = null;
  name = loadName();
  hovered: CardView | null = null;
  autoPass = autoPassDefault();
  stops = loadStops();
  renderPending = false;
  /** An action was just sent: the next render gives the focus back to the decision. */
  refocusDecision = false;

  constructor(root: HTMLElement) {
    this.root = root;
    this.lobby = new Lobby(this);
    this.account = new Account(this);
    this.decks = new DeckSync(this);
    this.session = new Session(this.cat, {
      message: (msg) => this.onMessage(msg),
      state: () => this.renderSoon(),
      resume: () => this.onResume(),
    });
    this.dialogs = new Dialogs({
      cat: this.cat,
      send: (a) => this.game?.sendAction(a),
      selectAttacker: (id) => this.game?.selectAttacker(id),
      // the element that opened the dialog may have been drawn again meanwhile: the decision
      closed: () => requestAnimationFrame(() => this.screen === "match" && !this.dialogs.el.open && focusDecision(this.root, false)),
    });
    installKeys({
      screen: () => (this.screen === "match" || this.screen === "replay" || this.screen === "decks" ? this.screen : "lobby"),
      dialog: () => (this.dialogs.el.open ? this.dialogs.el : null),
      root: () => this.root,
      help: () => (this.dialogs.kind === "help" ? this.dialogs.close() : this.dialogs.help()),
      replayStep: (by) => {
        const v = this.viewer;
        if (v === null) return;
        v.step(by === "first" ? 0 : by === "last" ? v.r.entries.length - 1 : v.r.index + by);
      },
      replayPlay: () => this.viewer?.togglePlay(),
      replayFaster: (by) => this.viewer?.faster(by),
    });
    window.addEventListener("hashchange", () => this.route());
    // a replay file dropped on the lobby or the replay viewer opens in the viewer (never
    // dropped on a duel: the browser would leave the page to show the file)
    const files = (e: DragEvent) => e.dataTransfer !== null && Array.from(e.dataTransfer.types).includes("Files");
    document.addEventListener("dragover", (e) => {
      if (!files(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = this.screen === "match" ? "none" : "copy";
      document.body.classList.toggle("dragging", this.screen !== "match");
    });
    document.addEventListener("dragleave", (e) => {
      if (e.relatedTarget === null) document.body.classList.remove("dragging");
    });
    document.addEventListener("drop", (e) => {
      if (!files(e)) return;
      e.preventDefault();
      document.body.classList.remove("dragging");
      const file = e.dataTransfer?.files[0];
      if (file === undefined || this.screen === "match") return;
      if (this.screen === "decks" && this.editor !== null) void this.editor.importFile(file); // a .ydk list
      else void this.openReplayFile(file);
    });
    window.setInterval(() => {
      if (this.screen === "match") this.game?.tickClocks(this.root);
    }, 250);
    // for tests and the curious: the live state, read-only
    (window as unknown as { duelApp: App }).duelApp = this;
  }

  start(): void {
    this.route();
  }

  // what tests and the failure reports read
  get match(): MatchState | null {
    return this.game?.m ?? null;
  }

  get replay(): ReplayState | null {
    return this.viewer?.r ?? null;
  }

  get conn(): Session["conn"] {
    return this.session.conn;
  }

  get connState(): ConnState {
    return this.session.state;
  }

  // ------------------------------------------------------------ routing

  /** Show the screen the hash names (`again`: even if it is already shown: a new connection). */
  private route(again = false): void {
    const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
    const [what, id] = [parts[0] ?? "", decodeURIComponent(parts[1] ?? "")];
    if (what === "seat" && id) {
      // a seat token (a puzzle's, or one kept elsewhere): remember it for this tab, then take the seat
      const [, matchId, seat] = id.split(".");
      if (matchId) {
        sessionStorage.setItem(SEAT_KEY(matchId), id);
        history.replaceState(null, "", `#/match/${matchId}`);
        this.enterMatch(matchId, id, Number(seat ?? 0));
        return;
      }
    }
    if (what === "match" && id) {
      if (!again && this.game?.m.matchId === id && this.screen === "match") return;
      const token = sessionStorage.getItem(SEAT_KEY(id));
      this.enterMatch(id, token, token === null ? null : Number(token.split(".")[2] ?? 0));
    } else if (what === "watch" && id) {
      if (!again && this.game?.m.matchId === id && this.game.m.seat === null && this.screen === "match") return;
      this.enterMatch(id, null, null);
    } else if (what === "replay-file") {
      if (!again && this.viewer?.isFile && this.screen === "replay") return;
      // a reload: the file's bytes are gone; the viewer asks for it again
      this.leave("replay");
      this.viewer = new ReplayViewer(this, "");
      this.session.open();
      this.render();
    } else if (what === "decks") {
      if (!again && this.screen === "decks" && this.editor !== null && (id === "" || this.editor.deck.id === id)) return;
      this.leave("decks");
      this.editor = new DeckEditor(this, id || null);
      this.session.open(); // for the card catalogue (kept in this browser by version)
      this.render();
    } else if (what === "account" || what === "ladder" || what === "player" || what === "profile") {
      const own = this.account.name;
      if (what === "profile" || (what === "player" && !id)) {
        if (own === null) return this.go("#/account");
        history.replaceState(null, "", `#/player/${encodeURIComponent(own)}`);
      }
      const name = what === "player" && id ? id : (own ?? "");
      if (!again && what === "ladder" && this.screen === "ladder" && this.ladder?.format === (id || this.lobby.format())) return;
      if (!again && what !== "ladder" && what !== "account" && this.screen === "player" && this.profile?.name === name) return;
      this.leave(what === "account" ? "account" : what === "ladder" ? "ladder" : "player");
      if (what === "ladder") this.ladder = new LadderPage(this, id || this.lobby.format());
      else if (what !== "account") this.profile = new ProfilePage(this, name);
      this.session.open();
      this.render();
    } else if (what === "replay" && id) {
      if (!again && this.viewer?.r.matchId === id && this.screen === "replay") return;
      this.leave("replay");
      this.viewer = new ReplayViewer(this, id);
      this.session.open();
      this.render();
    } else {
      this.lobby.joinId = what === "join" && id ? id : null;
      this.leave("lobby");
      this.lobby.error = null;
      this.lobby.busy = this.session.asking !== null ? "Taking your seat…" : null;
      this.session.open();
      this.render();
    }
  }

  /** Play back a replay file the user opened: on a fresh connection (an upload lives on its
   * connection), in the replay viewer. */
  async openReplayFile(file: File): Promise<void> {
    const bytes = new Uint8Array(await file.arrayBuffer());
    this.leave("replay");
    this.viewer = new ReplayViewer(this, "", { name: file.name, bytes });
    if (location.hash !== "#/replay-file") history.pushState(null, "", "#/replay-file");
    this.session.open();
    this.render();
  }

  go(hash: string): void {
    if (location.hash !== hash) history.pushState(null, "", hash);
    this.route();
  }

  private leave(next: Screen): void {
    this.game?.stop();
    this.viewer?.stop();
    this.game = null;
    this.viewer = null;
    if (next !== "decks") this.editor = null;
    if (next !== "ladder") this.ladder = null;
    if (next !== "player") this.profile = null;
    this.dialogs.close();
    this.hovered = null;
    this.lobby.reset();
    this.screen = next;
  }

  private enterMatch(id: string, token: string | null, seat: number | null): void {
    this.leave("match");
    this.game = new Game(this, id, seat, token);
    this.session.open();
    this.render();
  }

  // ------------------------------------------------------------ messages

  private onResume(): void {
    // logged in first: what follows may need the account (a rated seat, a rated quick match, the decks)
    this.account.resume(this.screen !== "replay" && this.screen !== "ladder" && this.screen !== "player");
    this.lobby.reset(); // answers to asks on the old socket never come
    if (this.screen === "match") this.game?.resume();
    else if (this.screen === "replay") this.viewer?.resume();
    else if (this.screen === "lobby") this.lobby.refresh();
    else if (this.screen === "ladder") this.ladder?.resume();
    else if (this.screen === "player") this.profile?.resume();
    this.session.askAgain(); // a seat request whose answer was lost: the same request_id again
    this.renderSoon();
  }

  private onMessage(msg: ServerMessage): void {
    if (this.account.onMessage(msg)) {
      this.renderSoon();
      return;
    }
    switch (msg.type) {
      case "cards":
        this.decks.catalogueLoaded(); // the session keeps the catalogue
        break;
      case "match_list":
        if (this.screen === "player") this.profile?.onHistory(msg["matches"] as MatchRow[]);
        else this.lobby.onMatchList(msg["matches"] as MatchRow[]);
        break;
      case "ladder":
        this.ladder?.onLadder(msg);
        break;
      case "profile":
        this.profile?.onProfile(msg);
        break;
      case "seated":
        this.onSeated(msg);
        break;
      case "replay":
        this.viewer?.onPage(msg as unknown as ReplayPage);
        break;
      case "replay_loaded":
        this.viewer?.onLoaded(msg);
        break;
      case "error":
        this.onError(msg);
        break;
      case "closing":
        break; // the close that follows says what to do (1012: reconnect; 4004: stop)
      default:
        this.game?.onMessage(msg);
    }
    this.renderSoon();
  }

  /** A seat was taken (created, joined, paired, or given back for a retried request). */
  private onSeated(msg: ServerMessage): void {
    this.session.answered();
    this.lobby.busy = null;
    const id = String(msg["match_id"]);
    const token = String(msg["token"]);
    sessionStorage.setItem(SEAT_KEY(id), token);
    if (this.game === null || this.game.m.matchId !== id) {
      // from the lobby: the same connection now holds the seat
      this.game?.stop();
      this.viewer?.stop();
      this.viewer = null;
      this.game = new Game(this, id, Number(msg["seat"]), token);
    }
    this.screen = "match";
    this.game.onSeated(msg);
    if (location.hash !== `#/match/${id}`) history.replaceState(null, "", `#/match/${id}`);
  }

  private onError(msg: ServerMessage): void {
    const code = String(msg["code"]);
    const text = `${String(msg["reason"])} (${code})`;
    const transient = code === "server/unavailable" || code === "server/internal";
    if (this.account.onError(code, text)) {
      this.renderSoon(); // it answered a login or a deck request
      return;
    }
    if (this.session.asking !== null) {
      if (transient) this.session.retryLater();
      else {
        this.session.answered();
        this.lobby.busy = null;
      }
    }
    if (this.screen === "replay") this.viewer?.onError(code, String(msg["reason"]), text);
    else if (this.screen === "ladder") this.ladder?.onError(text);
    else if (this.screen === "player") this.profile?.onError(code, text);
    else if (this.screen === "match" && this.game !== null) this.game.onError(code, text);
    else {
      this.lobby.error = text;
      if (code === "deck/invalid") this.lobby.deckErrors = [String(msg["reason"])];
    }
  }

  // ------------------------------------------------------------ rendering

  hover(card: CardView | null): void {
    this.hovered = card;
    const panel = this.root.querySelector<HTMLElement>(".side .detail-slot");
    if (panel) replaceChildren(panel, cardDetail(card, this.cat));
  }

  /** Render at the next frame: what the server says (a burst of messages makes one render). */
  renderSoon(): void {
    if (this.renderPending) return;
    this.renderPending = true;
    requestAnimationFrame(() => {
      if (this.renderPending) this.render();
    });
  }

  /** Render now: after what the player did (so the page answers the click at once). */
  render(): void {
    this.renderPending = false;
    const body =
      this.screen === "lobby"
        ? this.lobby.render()
        : this.screen === "match"
          ? (this.game?.render() ?? h("main"))
          : this.screen === "decks"
            ? (this.editor?.render() ?? h("main"))
            : this.screen === "account"
              ? this.account.renderPage()
              : this.screen === "ladder"
                ? (this.ladder?.render() ?? h("main"))
                : this.screen === "player"
                  ? (this.profile?.render() ?? h("main"))
                  : (this.viewer?.render() ?? h("main"));
    const header = this.renderHeader();
    const [oldHeader, oldBody] = [this.root.children[0], this.root.children[1]];
    if (oldHeader !== undefined && oldBody === body) swap(oldHeader, header); // the screen's element is kept: only what changed is new
    else replaceChildren(this.root, header, body);
    const titles: Partial<Record<Screen, string>> = { replay: "Replay · Duel", decks: "Deck editor · Duel", account: "Account · Duel", ladder: "Ladder · Duel", player: `${this.profile?.name ?? "Player"} · Duel` };
    document.title = this.screen === "match" ? (this.game?.title() ?? "Duel") : (titles[this.screen] ?? "Duel");
    (this.screen === "match" ? this.game?.side : this.screen === "replay" ? this.viewer?.side : undefined)?.afterRender();
    if (this.screen === "match" && !this.dialogs.el.open) {
      focusDecision(this.root, this.refocusDecision);
      this.refocusDecision = false;
    }
  }

  private renderHeader(): HTMLElement {
    const s = this.session.state;
    let status: string;
    let cls = "ok";
    const wasOnline = this.session.opens > 0; // this screen's connection was up before: it is lost
    if (s.kind === "open") status = "connected";
    else if (s.kind === "connecting") {
      status = wasOnline ? "offline — reconnecting…" : "connecting…";
      cls = wasOnline ? "bad" : "warn";
    } else if (s.kind === "waiting") {
      status = `offline — reconnecting (${s.why}; attempt ${s.attempt})…`;
      cls = "bad";
    } else {
      status = s.why === "left" ? "not connected" : `disconnected: ${s.why}`;
      cls = "bad";
    }
    return h(
      "header",
      { class: "top" },
      h("a", { href: "#/", class: "brand", "data-key": "home", onclick: (e: Event) => { e.preventDefault(); this.go("#/"); } }, "Duel"),
      h("span", { class: `conn ${cls}`, role: "status", "data-testid": "conn" }, status),
      this.screen !== "match" && this.screen !== "replay"
        ? h(
            "nav",
            { class: "topnav", "aria-label": "screens" },
            h("a", { href: "#/", "aria-current": this.screen === "lobby" ? "page" : null, "data-key": "nav-lobby" }, "Lobby"),
            h("a", { href: "#/decks", "aria-current": this.screen === "decks" ? "page" : null, "data-key": "nav-decks" }, "Deck editor"),
            h("a", { href: "#/ladder", "aria-current": this.screen === "ladder" ? "page" : null, "data-key": "nav-ladder" }, "Ladder"),
            this.account.renderBox(),
          )
        : null,
      s.kind === "waiting" ? h("button", { type: "button", class: "act small", onclick: () => this.session.conn?.retryNow() }, "Reconnect now") : null,
      s.kind === "closed" && s.why !== "left" && this.screen !== "lobby" ? h("button", { type: "button", class: "act small", onclick: () => this.route(true) }, "Try again") : null,
    );
  }
}
