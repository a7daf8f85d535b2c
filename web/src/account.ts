// The player's account (PROTOCOL.md section 4a): register, log in, log out, and the session token
// kept in this browser (localStorage) so that every new connection (one per screen, a reload, a
// reconnect) logs in again with `login_token`, before anything that needs the account (a rated
// quick match, a rated seat taken back, the decks kept with the account).
//
// The requests about the account and its decks are answered in the order they were sent, on the
// connection they were sent on (the server reads one frame at a time): `asked` is that order, so
// that an error is known to answer one of them. The password is kept only in the form's field
// until it is sent; it is never stored.
//
// The page #/account has the forms; the header shows the account's name (a link to its page) and
// "Log out", or "Log in".

import type { App } from "./app";
import { h } from "./dom";
import type { ServerMessage } from "./proto";

const KEY = "duel.account";
const NAME_MIN = 3;
const NAME_MAX = 32;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;

/** What this browser keeps of a login: the name as registered, the session token, its expiry. */
interface Kept {
  name: string;
  token: string;
  expires: number;
}

export type AccountAsk = "register" | "login" | "login_token" | "logout" | "list_decks" | "save_deck" | "delete_deck";

/** The codes an account or deck request is refused with (others answer other requests). */
const OURS = /^(account\/|deck\/too_many|deck\/invalid|rate\/login_limited|server\/busy|message\/bad_field)/;

function load(): Kept | null {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) ?? "null") as Partial<Kept> | null;
    if (raw && typeof raw.name === "string" && typeof raw.token === "string" && typeof raw.expires === "number" && raw.expires > Date.now()) {
      return { name: raw.name, token: raw.token, expires: raw.expires };
    }
  } catch {
    // a value edited by hand: no login
  }
  localStorage.removeItem(KEY);
  return null;
}

/** Why a name or password would be refused (the server's limits), or null. */
export function badCredentials(name: string, password: string): string | null {
  const n = name.normalize("NFC");
  if ([...n].length < NAME_MIN || [...n].length > NAME_MAX) return `a name has ${NAME_MIN} to ${NAME_MAX} characters`;
  if (n.trim() !== n) return "a name neither starts nor ends with a space";
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) return `a password has ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`;
  return null;
}

export class Account {
  private kept: Kept | null = load();
  /** This connection is logged in. */
  live = false;
  error: string | null = null;
  note: string | null = null;
  form = { name: "", password: "", mode: "login" as "login" | "register" };
  private asked: AccountAsk[] = [];

  constructor(private readonly app: App) {}

  /** The account's name (as registered) while this browser keeps a login, else null. */
  get name(): string | null {
    return this.kept?.name ?? null;
  }

  get busy(): boolean {
    return this.asked.some((a) => a === "register" || a === "login" || a === "logout");
  }

  /** Send an account or deck request, and note it: its answer comes in order. */
  ask(msg: Record<string, unknown>, kind: AccountAsk): boolean {
    if (!this.app.session.send(msg)) return false;
    this.asked.push(kind);
    return true;
  }

  /** A new connection: log it in with the kept token, first (`logIn`: on this screen at all). */
  resume(logIn: boolean): void {
    this.asked = [];
    this.live = false;
    if (this.kept !== null && this.kept.expires <= Date.now()) this.forget("Your session has expired: log in again.");
    if (logIn && this.kept !== null) this.ask({ type: "login_token", token: this.kept.token }, "login_token");
  }

  private forget(note: string | null): void {
    const name = this.kept?.name ?? null;
    this.kept = null;
    this.live = false;
    localStorage.removeItem(KEY);
    this.note = note;
    if (name !== null) this.app.decks.loggedOut(name);
  }

  submit(): void {
    const { name, password, mode } = this.form;
    const bad = badCredentials(name, password);
    this.error = bad;
    this.note = null;
    if (bad === null) {
      if (this.live) this.ask({ type: "logout" }, "logout"); // another account: this one first
      if (!this.ask({ type: mode, name: name.normalize("NFC"), password }, mode)) this.error = "not connected to the server: try again in a moment";
    }
    this.app.render();
  }

  logout(): void {
    if (this.kept === null) return;
    // a connection not logged in (a screen that needs no account) logs in first: the server revokes the token
    if (!this.live) this.ask({ type: "login_token", token: this.kept.token }, "login_token");
    if (!this.ask({ type: "logout" }, "logout")) this.forget(null); // offline: at least this browser forgets it
    this.app.render();
  }

  // ------------------------------------------------------------ answers

  /** An answer to an account or deck request; false if it is not one. */
  onMessage(msg: ServerMessage): boolean {
    switch (msg.type) {
      case "logged_in": {
        const asked = this.asked.shift();
        const name = String(msg["name"]);
        if (this.kept !== null && this.kept.name !== name) this.forget(null);
        this.kept = { name, token: String(msg["token"]), expires: Number(msg["expires_ms"]) };
        localStorage.setItem(KEY, JSON.stringify(this.kept));
        this.live = true;
        this.error = null;
        this.form.password = "";
        if (asked !== "login_token") this.note = `Logged in as ${name}.`;
        this.app.decks.loggedIn(name);
        return true;
      }
      case "logged_out":
        this.asked.shift();
        this.forget("Logged out.");
        return true;
      case "decks":
      case "deck_saved":
      case "deck_deleted":
        this.asked.shift();
        this.app.decks.onMessage(msg);
        return true;
      default:
        return false;
    }
  }

  /** An error: true if it answers an account or deck request (which it then was). */
  onError(code: string, text: string): boolean {
    const asked = this.asked[0];
    if (asked === undefined || !OURS.test(code)) return false;
    this.asked.shift();
    if (asked === "login_token") {
      if (code === "account/bad_token") this.forget("Your session has ended (logged out elsewhere, or expired): log in again.");
      else this.error = text; // rate-limited: still kept, tried again with the next connection
    } else if (asked === "logout") {
      this.forget(null);
    } else if (asked === "list_decks" || asked === "save_deck" || asked === "delete_deck") {
      this.app.decks.onError(asked, text);
    } else {
      this.error = text;
    }
    return true;
  }

  // ------------------------------------------------------------ drawing

  /** The header's account box. */
  renderBox(): HTMLElement {
    const name = this.name;
    if (name === null) return h("span", { class: "account-box" }, h("a", { href: "#/account", "data-key": "nav-account", "data-testid": "login-link" }, "Log in / Register"));
    return h(
      "span",
      { class: "account-box", "data-testid": "account-box" },
      h("a", { href: `#/player/${encodeURIComponent(name)}`, "data-key": "nav-profile", "data-testid": "account-name", title: "your page: ratings and matches" }, name),
      h("button", { type: "button", class: "act small", "data-key": "logout", disabled: this.busy, onclick: () => this.logout() }, "Log out"),
    );
  }

  /** The #/account page: log in or register (or, logged in, who you are). */
  renderPage(): HTMLElement {
    const f = this.form;
    const name = this.name;
    const input = (field: "name" | "password", label: string, attrs: Record<string, string | number>) =>
      h(
        "div",
        { class: "field" },
        h("label", { for: `account-${field}` }, label),
        h("input", { id: `account-${field}`, name: field, "data-key": `account-${field}`, value: f[field], oninput: (e: Event) => (f[field] = (e.target as HTMLInputElement).value), ...attrs }),
      );
    const mode = (m: "login" | "register", label: string) =>
      h("label", { class: "inline" }, h("input", { type: "radio", name: "mode", value: m, "data-key": `mode-${m}`, checked: f.mode === m, onchange: () => ((f.mode = m), this.app.render()) }), ` ${label}`);
    const form = h(
      "form",
      { class: "account-form", "aria-label": "log in or register", onsubmit: (e: Event) => (e.preventDefault(), this.submit()) },
      h("div", { class: "field row2" }, mode("login", "I have an account"), mode("register", "Make an account")),
      input("name", "Account name", { autocomplete: "username", maxlength: NAME_MAX, required: "" }),
      input("password", "Password", { type: "password", autocomplete: f.mode === "register" ? "new-password" : "current-password", maxlength: PASSWORD_MAX, required: "" }),
      f.mode === "register" ? h("p", { class: "muted small" }, `A name of ${NAME_MIN} to ${NAME_MAX} characters nobody has; a password of at least ${PASSWORD_MIN}. The server keeps only a hash of it.`) : null,
      h("div", { class: "buttons" }, h("button", { type: "submit", class: "act primary", "data-key": "account-submit", disabled: this.busy }, f.mode === "register" ? "Register" : "Log in")),
    );
    return h(
      "main",
      { class: "account" },
      h(
        "section",
        { class: "panel" },
        h("h1", null, name === null ? "Log in or register" : `Logged in as ${name}`),
        this.note ? h("p", { class: "note", role: "status", "data-testid": "account-note" }, this.note) : null,
        this.error ? h("p", { class: "error", role: "alert", "data-testid": "account-error" }, this.error) : null,
        name === null
          ? h("p", { class: "muted" }, "Playing needs no account. An account keeps your decks on the server, a rating per format on the ladder, and your matches on your page.")
          : h(
              "p",
              null,
              h("a", { href: `#/player/${encodeURIComponent(name)}`, "data-key": "own-page" }, "Your page"),
              " · ",
              h("a", { href: "#/ladder", "data-key": "to-ladder" }, "The ladder"),
              " · ",
              h("a", { href: "#/decks", "data-key": "to-decks" }, "Your decks"),
            ),
        name === null ? form : h("details", { class: "joinbyid" }, h("summary", null, "Log in as another account"), form),
      ),
    );
  }
}
