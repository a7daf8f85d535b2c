// The dialogs: a card's actions, a Graveyard or banished pile, the concede
// confirmation, and the choices a player makes away from the board (whether
// and how to activate a triggered effect, which triggers go on the chain
// first, the card(s) an effect picks as it resolves, an option, the cards to
// discard). Each button sends one action of `legal`, verbatim.

import { actionCard, cardLabel, cardsById, cardWhere, describeAction, key, SEATS } from "./actions";
import { cardDetail } from "./board";
import type { Catalogue } from "./cards";
import { h, replaceChildren, type Child } from "./dom";
import { keysHelp, numberButtons } from "./keys";
import type { Action, CardView, Id, Pending, View } from "./proto";

export interface DialogHost {
  readonly cat: Catalogue;
  /** A dialog closed (Esc, its button, or an action sent from it). */
  closed?(): void;
  /** Send an action from `legal`. */
  send(a: Action): void;
  /** Start choosing the target of this attacker's attack on the board. */
  selectAttacker(id: string): void;
}

function ids(v: unknown): Id[] {
  return Array.isArray(v) ? (v as Id[]) : [];
}

function sameSet(a: Id[], b: Set<string>): boolean {
  return a.length === b.size && a.every((x) => b.has(key(x)));
}

function words(option: string): string {
  const s = option.replaceAll("_", " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

const EXTRA_DECK_KINDS = new Set(["fusion", "synchro", "xyz", "link"]);

/** The cards a `cards` choice is among: those on the board, plus the candidates
 * `pending.cards` names that are not (the seat's own Deck when it searches it, or its
 * Extra Deck: which one, the card's kind says), as cards of that pile. */
function candidates(view: View, pend: Pending, onBoard: Map<string, CardView>, cat: Catalogue): Map<string, CardView> {
  const named = (pend.cards ?? []).filter((c) => !onBoard.has(key(c.id)) && (c.code !== undefined || c.name !== undefined));
  if (named.length === 0) return onBoard;
  const out = new Map(onBoard);
  const seat = view.you ?? pend.seat;
  for (const c of named) {
    const extra = c.code !== undefined && (cat.get(c.code)?.monster_kinds ?? []).some((k) => EXTRA_DECK_KINDS.has(k));
    const card: CardView = { id: c.id, zone: extra ? "extra" : "deck", controller: seat, face_up: true };
    if (c.code !== undefined) card.code = c.code;
    if (c.name !== undefined) card.name = c.name;
    out.set(key(c.id), card);
  }
  return out;
}

export class Dialogs {
  readonly el: HTMLDialogElement;

  constructor(private readonly host: DialogHost) {
    this.el = h("dialog", { class: "dlg", "aria-modal": "true" });
    this.el.addEventListener("close", () => this.host.closed?.());
    document.body.appendChild(this.el);
  }

  /** The kind of the dialog that is open ("actions", "choice", "pile", ...), or null. */
  get kind(): string | null {
    return this.el.open ? (this.el.dataset["kind"] ?? null) : null;
  }

  close(): void {
    if (this.el.open) this.el.close();
  }

  open(kind: string, title: string, ...body: Child[]): void {
    const close = h("button", { type: "button", class: "act", "data-key": "dlg-close", onclick: () => this.el.close() }, kind === "choice" ? "Close (look at the board)" : "Close");
    this.el.dataset["kind"] = kind;
    replaceChildren(this.el, h("h2", { id: "dlg-title" }, title), ...body, h("div", { class: "dlg-foot" }, close));
    this.el.setAttribute("aria-labelledby", "dlg-title");
    numberButtons(Array.from(this.el.querySelectorAll<HTMLElement>(".dlg-acts button, .choice-cards button")));
    if (!this.el.open) this.el.showModal();
    this.el.querySelector<HTMLElement>(".dlg-acts button.primary, .dlg-acts button, button")?.focus();
  }

  /** A card's text and, when it is the player's to use, one button per action. */
  card(view: View, card: CardView, actions: Action[]): void {
    const cat = this.host.cat;
    const attacks = actions.filter((a) => a.do === "attack");
    const others = actions.filter((a) => a.do !== "attack");
    const buttons = others.map((a, i) =>
      h("button", { type: "button", class: `act${others.length === 1 && i === 0 ? " primary" : ""}`, "data-action": a.do, onclick: () => this.host.send(a) }, describeAction(view, cat, a, false)),
    );
    if (attacks.length && card.id !== undefined) {
      const id = key(card.id);
      buttons.push(
        h("button", { type: "button", class: "act", "data-action": "attack", onclick: () => { this.el.close(); this.host.selectAttacker(id); } }, "Declare an attack…"),
      );
    }
    const title = card.hidden ? "Face-down card" : (card.name ?? cat.name(card.code) ?? "Card");
    this.open(actions.length ? "actions" : "card", title, cardDetail(card, cat), buttons.length ? h("div", { class: "dlg-acts" }, buttons) : null);
  }

  /** A Graveyard or the banished cards, each with its text and its actions. */
  pile(view: View, seat: number, zone: "graveyard" | "banished", legal: Action[]): void {
    const cat = this.host.cat;
    const cards = view.players[seat]?.[zone] ?? [];
    const items = cards.map((c) => {
      const acts = c.id !== undefined ? legal.filter((a) => actionCard(a) === key(c.id)) : [];
      return h(
        "li",
        null,
        h("details", null, h("summary", null, c.hidden ? "face-down card" : (c.name ?? cat.name(c.code) ?? "?"), acts.length ? ` (${acts.length} action${acts.length > 1 ? "s" : ""})` : ""), cardDetail(c, cat)),
        acts.map((a) => h("button", { type: "button", class: "act", "data-action": a.do, onclick: () => this.host.send(a) }, describeAction(view, cat, a, false))),
      );
    });
    const where = zone === "graveyard" ? "Graveyard" : "banished cards";
    this.open(
      "pile",
      `${SEATS[seat]}'s ${where} (${cards.length})`,
      cards.length ? h("ol", { class: "pile-list", "data-pile-list": `${zone}-${seat}` }, items) : h("p", null, "Empty."),
    );
  }

  /** The keys of the keyboard (`?`). */
  help(): void {
    this.open("help", "Keyboard", keysHelp());
  }

  concede(what: "duel" | "match" = "duel"): void {
    this.open(
      "confirm",
      `Concede the ${what}?`,
      h("p", null, what === "match" ? "Your opponent wins the whole match at once (to give up this duel only: Concede this duel). This cannot be undone." : "Your opponent wins at once. This cannot be undone."),
      h("div", { class: "dlg-acts" }, h("button", { type: "button", class: "act danger", "data-action": "concede", onclick: () => this.host.send({ do: "concede" }) }, "Yes, concede")),
    );
  }

  /** A decision made away from the board (pending kinds trigger, cards, discard, options). */
  choice(view: View, pend: Pending, legal: Action[]): void {
    const cat = this.host.cat;
    const byId = cardsById(view);
    const about = pend.card ?? pend.source;
    const aboutCard = about === undefined ? undefined : byId.get(key(about));
    const detail = h("div", { class: "dlg-detail", "aria-live": "polite" }, cardDetail(aboutCard ?? null, cat));
    const show = (c: CardView | undefined) => {
      if (c !== undefined && !c.hidden) replaceChildren(detail, cardDetail(c, cat));
    };
    const hover = (el: HTMLElement, c: CardView | undefined) => {
      el.addEventListener("mouseenter", () => show(c));
      el.addEventListener("focus", () => show(c));
      return el;
    };
    const aboutName = about === undefined || aboutCard === undefined ? null : cardLabel(view, cat, about);
    let title: string;
    let body: HTMLElement[];
    if (pend.kind === "cards" || pend.kind === "discard") {
      title = pend.kind === "discard" ? "Discard" : (aboutName ?? "Choose");
      body = this.cardPicks(view, legal, candidates(view, pend, byId, cat), hover);
    } else if (pend.kind === "options") {
      title = aboutName ?? "Choose one";
      const opts = legal.filter((a) => a.do === "choose" && a["option"] !== undefined);
      body = [h("div", { class: "dlg-acts" }, opts.map((a, i) => h("button", { type: "button", class: `act${i === 0 ? " primary" : ""}`, "data-action": "choose", "data-option": String(a["option"]), onclick: () => this.host.send(a) }, words(String(a["option"])))))];
    } else {
      const activations = legal.filter((a) => a.do === "activate");
      const several = new Set(activations.map((a) => key(a["card"]))).size > 1;
      title = several ? "Your effects trigger: which goes on the chain first?" : aboutName ? `${aboutName}'s effect` : "A triggered effect";
      const buttons = legal.map((a) => {
        if (a.do === "pass") return h("button", { type: "button", class: "act pass", "data-action": "pass", onclick: () => this.host.send(a) }, "Do not activate");
        const c = a["card"] === undefined ? undefined : byId.get(key(a["card"]));
        const label = a.do === "activate" ? `${several ? "First: " : ""}${describeAction(view, cat, a)}` : describeAction(view, cat, a);
        return hover(h("button", { type: "button", class: `act${!several && activations.length === 1 && a === activations[0] ? " primary" : ""}`, "data-action": a.do, "data-card-id": c?.id === undefined ? null : key(c.id), onclick: () => this.host.send(a) }, label), c);
      });
      body = [h("div", { class: "dlg-acts column" }, buttons)];
    }
    this.open("choice", title, h("p", { class: "prompt", "data-testid": "choice-prompt" }, pend.prompt), h("div", { class: "choice-body" }, h("div", { class: "choice-list" }, body), detail));
  }

  /** The card(s) to pick: one click per card when each answer names one card;
   * otherwise toggles and a button that sends the answer matching them. */
  private cardPicks(view: View, legal: Action[], byId: Map<string, CardView>, hover: (el: HTMLElement, c: CardView | undefined) => HTMLElement): HTMLElement[] {
    // byId: the cards on the board, and the candidates the server names that are not on it
    const cat = this.host.cat;
    const picks = legal.filter((a) => a.do === "choose" && Array.isArray(a["cards"]));
    const none = picks.find((a) => ids(a["cards"]).length === 0);
    const order: string[] = [];
    for (const a of picks) for (const id of ids(a["cards"])) if (!order.includes(key(id))) order.push(key(id));
    const single = picks.every((a) => ids(a["cards"]).length <= 1);
    const label = (id: string) => {
      const c = byId.get(id);
      if (c === undefined) return [h("span", { class: "cname" }, "a card you cannot see"), h("span", { class: "muted" }, " (the server names it only by an id)")];
      if (c.zone === "deck" || c.zone === "extra") return [h("span", { class: "cname" }, c.name ?? cat.name(c.code) ?? "a card"), h("span", { class: "muted" }, ` — ${c.zone === "extra" ? "your Extra Deck" : "your Deck"}`)];
      const name = c.hidden ? "a face-down card" : (c.name ?? cat.name(c.code) ?? "a card");
      return [h("span", { class: "cname" }, name), h("span", { class: "muted" }, ` — ${cardWhere(view, c)}`)];
    };
    const out: HTMLElement[] = [];
    if (single) {
      out.push(
        h(
          "ul",
          { class: "choice-cards", "data-choice-list": "cards" },
          order.map((id) => {
            const a = picks.find((x) => ids(x["cards"]).length === 1 && key(ids(x["cards"])[0]) === id);
            const btn = h("button", { type: "button", class: "act choice-card", "data-action": "choose", "data-choice-card": id, disabled: a === undefined, onclick: () => a && this.host.send(a) }, label(id));
            return h("li", null, hover(btn, byId.get(id)));
          }),
        ),
      );
    } else {
      const chosen = new Set<string>();
      const count = Math.max(...picks.map((a) => ids(a["cards"]).length));
      const confirm = h("button", { type: "button", class: "act primary", "data-action": "choose-confirm", disabled: true }, `Choose these ${count}`);
      const update = () => {
        const match = picks.find((a) => sameSet(ids(a["cards"]), chosen));
        confirm.disabled = match === undefined || chosen.size === 0;
        confirm.onclick = () => match && this.host.send(match);
      };
      out.push(
        h("p", { class: "muted" }, `Select ${count} cards, then confirm.`),
        h(
          "ul",
          { class: "choice-cards", "data-choice-list": "cards" },
          order.map((id) => {
            const btn = h("button", { type: "button", class: "act choice-card", "data-choice-card": id, "aria-pressed": "false" }, label(id));
            btn.addEventListener("click", () => {
              if (chosen.has(id)) chosen.delete(id);
              else chosen.add(id);
              btn.setAttribute("aria-pressed", String(chosen.has(id)));
              update();
            });
            return h("li", null, hover(btn, byId.get(id)));
          }),
        ),
        h("div", { class: "dlg-acts" }, confirm),
      );
    }
    if (none) out.push(h("div", { class: "dlg-acts" }, h("button", { type: "button", class: "act pass", "data-action": "choose-none", onclick: () => this.host.send(none) }, "Choose none")));
    return out;
  }
}
