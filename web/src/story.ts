// The board tells the story: what an update did is shown where it happened, each for less than
// 300 ms (FX_MS), then gone: a Summon or a Set (the card grows into its zone), a flip (the card
// turns over), a destruction (the card, drawn where it was, breaks and fades), a change of Life
// Points (the change rises from the LP and fades); and, for as long as an attack lasts, an arrow
// from the attacker to its target (to the player, for a direct attack). With
// `prefers-reduced-motion: reduce` nothing moves: the board shows the new state at once (the
// arrow stays: it is the state of the attack, not an animation).
//
// The board is drawn anew at every render (board.ts): `decorate` marks each render's board with
// the effects still running, started where they are (a negative animation delay), and a timer
// takes each away when its time is up, without a render.

import { cardLabel, cardsById, key } from "./actions";
import type { Catalogue } from "./cards";
import type { Fact } from "./facts";
import { h } from "./dom";
import type { CardView, View } from "./proto";

/** How long each effect runs (ms): under the 300 ms a duelist waits for nothing. */
export const FX_MS = 260;

type FxKind = "summon" | "flip" | "destroy" | "lp";

interface Place {
  seat: number;
  zone: string;
  slot: number;
}

interface Fx {
  kind: FxKind;
  at: number; // performance.now() when it began
  id?: string; // the card (summon, flip)
  place?: Place; // where the card was (destroy)
  name?: string; // what the card was (destroy), as the viewer knew it
  seat?: number; // whose LP (lp)
  delta?: number;
}

export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where each card on the field of `view` is. */
function places(view: View): Map<string, Place> {
  const out = new Map<string, Place>();
  view.players.forEach((p, seat) => {
    const put = (c: CardView | null, zone: string, slot: number) => {
      if (c !== null && c.id !== undefined) out.set(key(c.id), { seat, zone, slot });
    };
    p.monsters.forEach((c, i) => put(c, "monsters", i));
    p.spells_traps.forEach((c, i) => put(c, "spells_traps", i));
    put(p.field, "field", 0);
  });
  return out;
}

export class Story {
  private fx: Fx[] = [];
  private before: View | null = null;
  private missed = false;
  private timer: number | null = null;
  private board: HTMLElement | null = null;

  /** An update's facts and the view after them (null: a caught-up entry, whose view comes
   * with a later one; `animate` false: a snapshot or a catch-up, shown as it is). */
  take(facts: readonly Fact[], view: View | null, cat: Catalogue, animate: boolean): void {
    if (view === null) {
      this.missed = true; // the next view's facts are not all this one's: shown, not told
      return;
    }
    const before = this.missed ? null : this.before;
    this.before = view;
    this.missed = false;
    if (!animate || before === null || reducedMotion()) return;
    const at = performance.now();
    const was = places(before);
    for (const f of facts) {
      if (f.t === "summoned" && f.card !== null) this.fx.push({ kind: f.kind === "flip" ? "flip" : "summon", at, id: key(f.card) });
      else if (f.t === "token_made" && f.card !== undefined) this.fx.push({ kind: "summon", at, id: key(f.card) });
      else if (f.t === "flipped" && f.card !== undefined) this.fx.push({ kind: "flip", at, id: key(f.card) });
      else if (f.t === "destroyed" && f.card !== null) {
        const place = was.get(key(f.card));
        const c = cardsById(before).get(key(f.card));
        if (place !== undefined) this.fx.push({ kind: "destroy", at, place, name: c === undefined || c.hidden ? "" : cardLabel(before, cat, f.card) });
      } else if (f.t === "lp" && f.delta !== 0) this.fx.push({ kind: "lp", at, seat: f.seat, delta: f.delta });
    }
  }

  /** Mark a freshly drawn board with the effects still running; the board. */
  decorate(board: HTMLElement): HTMLElement {
    this.board = board;
    const now = performance.now();
    this.fx = this.fx.filter((f) => now - f.at < FX_MS);
    for (const f of this.fx) {
      const left = FX_MS - (now - f.at);
      const delay = `${-(now - f.at)}ms`;
      const until = String(f.at + FX_MS);
      if ((f.kind === "summon" || f.kind === "flip") && f.id !== undefined) {
        const el = board.querySelector<HTMLElement>(`.card[data-card-id="${CSS.escape(f.id)}"]`);
        if (el === null) continue;
        el.classList.add("fx", `fx-${f.kind}`);
        el.dataset["fxUntil"] = until;
        el.style.animationDelay = delay;
      } else if (f.kind === "destroy" && f.place !== undefined) {
        const p = f.place;
        const slot = board.querySelector<HTMLElement>(`[data-seat="${p.seat}"][data-zone="${p.zone}"][data-slot="${p.slot}"]`);
        if (slot === null) continue;
        slot.classList.add("fx-host");
        const ghost = h("span", { class: "fx fx-destroy", "data-fx-until": until, "data-testid": "fx-destroy", "aria-hidden": "true" }, f.name ? `${f.name} destroyed` : "destroyed");
        ghost.style.animationDelay = delay; // the CSSOM: the page's Content-Security-Policy refuses style attributes
        slot.append(ghost);
      } else if (f.kind === "lp" && f.seat !== undefined && f.delta !== undefined) {
        const lp = board.querySelector<HTMLElement>(`[data-testid="lp-${f.seat}"]`);
        if (lp === null) continue;
        const sign = f.delta > 0 ? "+" : "−";
        const float = h("span", { class: `fx fx-lp ${f.delta < 0 ? "down" : "up"}`, "data-fx-until": until, "data-testid": `fx-lp-${f.seat}`, "aria-hidden": "true" }, `${sign}${Math.abs(f.delta)}`);
        float.style.animationDelay = delay;
        lp.append(float);
      }
      this.schedule(left);
    }
    return board;
  }

  private schedule(ms: number): void {
    if (this.timer !== null) return;
    this.timer = window.setTimeout(() => {
      this.timer = null;
      this.sweep();
    }, Math.max(0, ms));
  }

  /** Take away the effects whose time is up (from the board on the page). */
  private sweep(): void {
    const now = performance.now();
    const board = this.board;
    let next = Infinity;
    board?.querySelectorAll<HTMLElement>("[data-fx-until]").forEach((el) => {
      const until = Number(el.dataset["fxUntil"]);
      if (until > now + 1) {
        next = Math.min(next, until - now);
        return;
      }
      if (el.classList.contains("card")) {
        el.classList.remove("fx", "fx-summon", "fx-flip");
        el.style.animationDelay = "";
        delete el.dataset["fxUntil"];
      } else el.remove();
    });
    this.fx = this.fx.filter((f) => now - f.at < FX_MS);
    if (next !== Infinity) this.schedule(next);
  }
}

const SVG = "http://www.w3.org/2000/svg";

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function box(r: DOMRect, origin: DOMRect): Box {
  return { x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height };
}

/** Where the line from the middle of `r` towards (x, y) leaves it, `inset` back inside. */
function edge(r: Box, x: number, y: number, inset: number): [number, number] {
  const [cx, cy] = [r.x + r.w / 2, r.y + r.h / 2];
  const [dx, dy] = [x - cx, y - cy];
  const len = Math.hypot(dx, dy) || 1;
  const k = Math.min(dx === 0 ? Infinity : r.w / 2 / Math.abs(dx), dy === 0 ? Infinity : r.h / 2 / Math.abs(dy));
  return [cx + dx * k - (dx / len) * inset, cy + dy * k - (dy / len) * inset];
}

/** The arrow from the attacker `f` to its target `t` (or the defending player's hand, `direct`),
 * from edge to edge, over neither card's name: straight across the board; between cards one
 * above the other (the same column, the nearest rows), a curve beside them. */
function arrowPath(f: Box, t: Box, direct: boolean): string {
  const fx = f.x + f.w / 2;
  const n = (v: number) => v.toFixed(1);
  if (direct) {
    const [x1, y1] = edge(f, fx, t.y + t.h / 2, 4);
    const y2 = t.y + t.h / 2 < y1 ? t.y + t.h - 6 : t.y + 6;
    return `M ${n(x1)} ${n(y1)} L ${n(fx)} ${n(y2)}`;
  }
  const tx = t.x + t.w / 2;
  if (Math.abs(tx - fx) < (f.w + t.w) / 2) {
    const right = Math.max(f.x + f.w, t.x + t.w);
    const [x1, y1, x2, y2] = [f.x + f.w - 5, f.y + f.h / 2, t.x + t.w - 5, t.y + t.h / 2];
    return `M ${n(x1)} ${n(y1)} Q ${n(right + 44)} ${n((y1 + y2) / 2)} ${n(x2)} ${n(y2)}`;
  }
  const [x1, y1] = edge(f, tx, t.y + t.h / 2, 4);
  const [x2, y2] = edge(t, fx, f.y + f.h / 2, 6);
  return `M ${n(x1)} ${n(y1)} L ${n(x2)} ${n(y2)}`;
}

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The arrow of the attack going on in `view` (none: no attack, or its target left the field),
 * put over `board`; the function that draws it where the cards are (after each layout). */
export function attackArrow(view: View, board: HTMLElement): (() => void) | null {
  const a = view.attack;
  if (a === null) return null;
  const attacker = key(a.attacker);
  const target = a.target === null ? null : key(a.target);
  if (target !== null && cardsById(view).get(target)?.zone !== "monsters") return null;
  const defender = 1 - (cardsById(view).get(attacker)?.controller ?? view.turn_player);
  const layer = svg("svg", { class: "attack-arrow", "data-testid": "attack-arrow", "aria-hidden": "true" });
  layer.dataset["from"] = attacker;
  layer.dataset["to"] = target ?? `player-${defender}`;
  const head = svg("marker", { id: "arrowhead", viewBox: "0 0 10 10", refX: 6, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
  head.append(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", class: "head" }));
  const defs = svg("defs", {});
  defs.append(head);
  const shaft = svg("path", { class: "shaft", "marker-end": "url(#arrowhead)" });
  layer.append(defs, shaft);
  board.append(layer);
  const draw = () => {
    const from = board.querySelector<HTMLElement>(`.card[data-card-id="${CSS.escape(attacker)}"]`);
    const to =
      target !== null
        ? board.querySelector<HTMLElement>(`.card[data-card-id="${CSS.escape(target)}"]`)
        : board.querySelector<HTMLElement>(`.row.hand[data-seat="${defender}"]`);
    if (from === null || to === null) {
      layer.style.display = "none";
      return;
    }
    layer.style.display = "";
    const b = board.getBoundingClientRect();
    const f = box(from.getBoundingClientRect(), b);
    const t = box(to.getBoundingClientRect(), b);
    layer.setAttribute("viewBox", `0 0 ${b.width} ${b.height}`);
    layer.setAttribute("width", String(b.width));
    layer.setAttribute("height", String(b.height));
    shaft.setAttribute("d", arrowPath(f, t, target === null));
  };
  return draw;
}
