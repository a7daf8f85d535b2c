// The board: both fields, hands, piles, the turn/step bar, the chain, the
// decision bar. Pure rendering from a view plus the legal actions; clicks go
// back through the `BoardHooks`.

import {
  actionCard,
  cardLabel,
  cardsById,
  describeAction,
  key,
  END_REASONS,
  passLabel,
  PHASE_NAMES,
  SEATS,
  STEP_NAMES,
  TIMING_NAMES,
} from "./actions";
import { cardFace, fitNames, frameClass, largeCard } from "./cardframe";
import type { Catalogue } from "./cards";
import { h } from "./dom";
import { numberButtons } from "./keys";
import { attackArrow } from "./story";
import { zoomable } from "./zoom";
import { destinationOf, isMove, OWN_STOPS, shownMoves, STOP_NAMES, THEIR_STOPS, type Stops } from "./moves";
import type { Action, CardView, Pending, View } from "./proto";

/** An LP change as its `lp` fact has it: `delta` the damage dealt (or LP gained), `reason`
 * `battle`, `effect` or `cost`. */
export interface LpChange {
  delta: number;
  reason: string;
}

const LP_REASONS: Record<string, string> = { battle: "battle damage", effect: "by an effect", cost: "paid as a cost" };

/** Each seat's last LP change of the turn of entry `index` of a list of entries' facts (a
 * replay): looking back from it to the start of its turn. */
export function lastLpChanges(entries: { facts: { t: string }[] }[], index: number): (LpChange | null)[] {
  const out: (LpChange | null)[] = [null, null];
  for (let i = index; i >= 0; i--) {
    const facts = entries[i]?.facts ?? [];
    for (let j = facts.length - 1; j >= 0; j--) {
      const f = facts[j] as { t: string; seat?: number; delta?: number; reason?: string };
      if (f.t === "turn") return out;
      if (f.t === "lp" && f.seat !== undefined && out[f.seat] === null) out[f.seat] = { delta: Number(f.delta), reason: String(f.reason ?? "") };
    }
  }
  return out;
}

export interface Seatinfo {
  name: string;
  lpDelta: LpChange | null; // the last LP change of this turn
  lpDeltaFresh: boolean; // it happened in the last update
  clockMs: number | null; // remaining, as of clockAt
  clockRunning: boolean;
  connected: boolean | null; // null: not shown
  presenceWords?: string; // instead of "connected"/"disconnected" (the page is offline)
}

export interface BoardModel {
  view: View;
  me: number | null; // the viewer's seat (null: spectator or replay "everything")
  bottom: number; // the seat shown at the bottom
  legal: Action[];
  pending: Pending | null;
  seats: Seatinfo[];
  interactive: boolean;
  busy: boolean; // an action is on its way, or the page is offline: nothing clickable
  offline?: boolean; // the page has no live connection: it says so where the decision is
  selecting: { attacker: string } | null;
  retargeting: boolean;
  autoPass: boolean;
  stops: Stops | null; // where the page stops for the player (null: a replay)
}

export interface BoardHooks {
  send(a: Action): void;
  select(attacker: string | null): void;
  retarget(on: boolean): void;
  openCard(card: CardView, actions: Action[]): void;
  openPile(seat: number, zone: "graveyard" | "banished"): void;
  hover(card: CardView | null): void;
  concede(): void;
  autoPass(on: boolean): void;
  stop(whose: "own" | "theirs", key: string, on: boolean): void;
  openChoice(): void;
}

/** Decisions made in the choice dialog rather than on the board. */
export const CHOICE_KINDS = new Set(["trigger", "cards", "discard", "options"]);

function choiceButtonLabel(kind: string): string {
  if (kind === "trigger") return "Decide about the triggered effect…";
  if (kind === "options") return "Choose an option…";
  if (kind === "discard") return "Choose the cards to discard…";
  return "Choose the card(s)…";
}

export function cardBox(
  c: CardView | null,
  m: BoardModel,
  cat: Catalogue,
  hooks: BoardHooks,
  where: { seat: number; zone: string; slot: number },
): HTMLElement {
  const zoneLabel = { monsters: "Monster Zone", spells_traps: "Spell & Trap Zone", field: "Field Zone", hand: "Hand" }[where.zone] ?? where.zone;
  const placeKey = `${where.seat}-${where.zone}-${where.slot}`;
  if (c === null) {
    const short = { monsters: "Monster", spells_traps: "Spell/Trap", field: "Field" }[where.zone] ?? "";
    return h("div", { class: "slot empty", "data-label": short, "data-zone": where.zone, "data-seat": where.seat, "data-slot": where.slot, "aria-label": `${SEATS[where.seat]}'s ${zoneLabel} ${where.slot + 1}: empty` });
  }
  const id = c.id === undefined ? null : key(c.id);
  const actions = id === null || !m.interactive ? [] : m.legal.filter((a) => actionCard(a) === id);
  const attackTarget =
    m.selecting !== null && id !== null
      ? m.legal.find((a) => a.do === "attack" && key(a["with"]) === m.selecting?.attacker && !a["direct"] && key(a["target"]) === id)
      : undefined;
  const retargetTo = m.retargeting && id !== null ? m.legal.find((a) => a.do === "retarget" && !a["direct"] && key(a["target"]) === id) : undefined;
  const info = c.hidden ? undefined : cat.get(c.code);
  const name = c.hidden ? "" : (c.name ?? info?.name ?? "?");
  const faceDown = c.hidden || c.face_up === false || c.position === "set";
  const classes = ["card"];
  if (c.hidden) classes.push("back");
  else {
    classes.push(frameClass(info));
    if (faceDown) classes.push("own-set");
  }
  if (info) classes.push(`kind-${info.kind}`);
  if (c.position === "defense" || (c.position === "set" && c.zone === "monsters")) classes.push("defense");
  if (m.selecting?.attacker === id) classes.push("selected");
  const target = attackTarget ?? retargetTo;
  if (target) classes.push("targetable");
  else if (actions.length && !m.busy && m.selecting === null && !m.retargeting) classes.push("actionable");
  const inAttack = m.view.attack !== null && id !== null && (key(m.view.attack.attacker) === id || key(m.view.attack.target) === id);
  if (inAttack) classes.push("in-battle");
  const label = c.hidden
    ? `${SEATS[where.seat]}'s face-down card (${zoneLabel}${where.zone === "hand" ? "" : " " + String(where.slot + 1)})`
    : `${name}${faceDown ? " (face-down)" : ""}${c.zone === "monsters" && !faceDown ? `, ${c.position === "defense" ? "Defense" : "Attack"} Position, ATK ${c.atk ?? "?"} DEF ${c.def ?? "?"}` : ""}`;
  const onField = c.zone === "monsters";
  const body = c.hidden
    ? [h("span", { class: "back-mark", "aria-hidden": "true" })]
    : cardFace(info, name, {
        atk: onField ? c.atk : undefined,
        def: onField ? c.def : undefined,
        counters: c.counters,
        tag: faceDown ? "Set" : null,
      });
  const clickable = target !== undefined || (!m.busy && m.interactive) || !c.hidden;
  const attrs: Record<string, string | number | boolean | ((ev: Event) => void) | null> = {
    class: classes.join(" "),
    "data-key": id !== null ? `card-${id}` : `place-${placeKey}`,
    "data-zone": where.zone,
    "data-seat": where.seat,
    "data-slot": where.slot,
    "data-card-id": id,
    "data-actions": actions.length ? [...new Set(actions.map((a) => a.do))].join(" ") : null,
    "data-code": c.hidden ? null : (c.code ?? null),
    "data-name": c.hidden ? null : name,
    "aria-label": label + (target ? ": choose as the attack target" : actions.length ? `: ${actions.length} action${actions.length > 1 ? "s" : ""}` : ""),
    title: c.hidden ? "face-down" : name,
  };
  if (!clickable) return h("div", attrs, body);
  const btn = h("button", { ...attrs, type: "button" }, body);
  btn.addEventListener("click", () => {
    if (target !== undefined) {
      hooks.send(target);
      return;
    }
    if (c.hidden && actions.length === 0) return;
    const attacks = actions.filter((a) => a.do === "attack");
    if (!m.busy && attacks.length > 0 && attacks.length === actions.length && m.selecting === null) {
      if (id !== null) hooks.select(id);
      return;
    }
    hooks.openCard(c, m.busy ? [] : actions);
  });
  if (!c.hidden) {
    btn.addEventListener("mouseenter", () => hooks.hover(c));
    btn.addEventListener("focus", () => hooks.hover(c));
    zoomable(btn, () => cardDetail(c, cat));
  }
  return btn;
}

function phaseBar(view: View): HTMLElement {
  const phases = ["draw", "standby", "main1", "battle", "main2", "end"];
  const steps = ["start", "battle", "damage", "end"];
  const timings = Object.keys(TIMING_NAMES);
  const short: Record<string, string> = { draw: "DP", standby: "SP", main1: "M1", battle: "BP", main2: "M2", end: "EP" };
  const stepShort: Record<string, string> = { start: "Start", battle: "Battle", damage: "Damage", end: "End" };
  const timingShort: Record<string, string> = {
    start_of_damage_step: "Start",
    before_damage_calculation: "Before calc",
    during_damage_calculation: "During calc",
    after_damage_calculation: "After calc",
    end_of_damage_step: "End",
  };
  const inBattle = view.phase === "battle";
  return h(
    "div",
    { class: "phasebar", role: "group", "aria-label": "turn and phase" },
    h("span", { class: "turn", "data-testid": "turn" }, `Turn ${view.turn} · ${SEATS[view.turn_player]}'s turn`),
    h(
      "ol",
      { class: "phases", "aria-label": "phases" },
      phases.map((p) =>
        h("li", { class: p === view.phase ? "now" : "", "aria-current": p === view.phase ? "step" : null, title: PHASE_NAMES[p] }, h("abbr", { title: PHASE_NAMES[p] }, short[p] ?? p)),
      ),
    ),
    h(
      "ol",
      { class: `steps${inBattle ? "" : " off"}`, "aria-label": "Battle Phase steps" },
      steps.map((s) => h("li", { class: inBattle && s === view.step ? "now" : "", "aria-current": inBattle && s === view.step ? "step" : null }, stepShort[s] ?? s)),
    ),
    h(
      "ol",
      { class: `timings${view.damage_step ? "" : " off"}`, "aria-label": "Damage Step timing" },
      timings.map((t) => h("li", { class: t === view.damage_step ? "now" : "", "aria-current": t === view.damage_step ? "step" : null }, timingShort[t] ?? t)),
    ),
    h(
      "span",
      { class: "where", "data-testid": "where" },
      (PHASE_NAMES[view.phase] ?? view.phase) +
        (inBattle && view.step ? ` · ${STEP_NAMES[view.step] ?? view.step}` : "") +
        (view.damage_step ? ` · ${TIMING_NAMES[view.damage_step] ?? view.damage_step}` : ""),
    ),
  );
}

export function formatClock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

function playerBar(view: View, m: BoardModel, seat: number, hooks: BoardHooks): HTMLElement {
  const p = view.players[seat];
  const info = m.seats[seat];
  if (p === undefined || info === undefined) return h("div");
  const role = m.me === null ? null : seat === m.me ? "You" : "Opponent";
  const letter = SEATS[seat] ?? "?";
  const change = info.lpDelta;
  const delta = change?.delta ?? null;
  return h(
    "div",
    { class: `playerbar${view.turn_player === seat ? " their-turn" : ""}`, "data-seat": seat },
    h("span", { class: "who" }, h("strong", null, info.name && info.name !== letter ? `${letter}: ${info.name}` : letter), role ? ` (${role})` : null),
    h(
      "span",
      { class: "lp", "data-testid": `lp-${seat}`, "aria-label": `${SEATS[seat]} Life Points ${p.lp}` },
      `LP ${p.lp}`,
      change !== null && delta !== null && delta !== 0
        ? h(
            "span",
            {
              class: `lp-delta ${delta < 0 ? "down" : "up"}${info.lpDeltaFresh ? " fresh" : ""}`,
              "data-testid": `lp-delta-${seat}`,
              title: `${delta > 0 ? "+" : "−"}${Math.abs(delta)} ${LP_REASONS[change.reason] ?? change.reason} this turn`,
            },
            ` ${delta > 0 ? "+" : "−"}${Math.abs(delta)}`,
          )
        : null,
    ),
    info.clockMs !== null
      ? h("span", { class: `clock${info.clockRunning ? " running" : ""}`, "data-clock": seat, "aria-label": `${SEATS[seat]}'s clock` }, `Clock ${formatClock(info.clockMs)}`)
      : null,
    info.connected === null
      ? null
      : h("span", { class: `presence ${info.connected ? "on" : "off"}`, "data-testid": `presence-${seat}` }, info.presenceWords ?? (info.connected ? "connected" : "disconnected")),
    h("span", { class: "counts" }, h("span", { class: "count" }, `Deck ${p.deck_count}`), " ", h("span", { class: "count" }, `Extra ${p.extra_count}`), " ", h("span", { class: "count" }, `Hand ${p.hand_count}`)),
    h(
      "span",
      { class: "piles" },
      h("button", { type: "button", class: "pile", "data-key": `gy-${seat}`, "data-pile": `graveyard-${seat}`, onclick: () => hooks.openPile(seat, "graveyard") }, `Graveyard (${p.graveyard.length})`),
      h("button", { type: "button", class: "pile", "data-key": `ban-${seat}`, "data-pile": `banished-${seat}`, onclick: () => hooks.openPile(seat, "banished") }, `Banished (${p.banished.length})`),
    ),
  );
}

function fieldRows(view: View, m: BoardModel, cat: Catalogue, hooks: BoardHooks, seat: number, top: boolean): HTMLElement {
  const p = view.players[seat];
  if (p === undefined) return h("div");
  const monsters = h(
    "div",
    { class: "row monsters", "aria-label": `${SEATS[seat]}'s Monster Zones` },
    p.monsters.map((c, i) => cardBox(c, m, cat, hooks, { seat, zone: "monsters", slot: i })),
  );
  const backrow = h(
    "div",
    { class: "row backrow", "aria-label": `${SEATS[seat]}'s Spell & Trap Zones and Field Zone` },
    p.spells_traps.map((c, i) => cardBox(c, m, cat, hooks, { seat, zone: "spells_traps", slot: i })),
    h("div", { class: "fieldzone" }, cardBox(p.field, m, cat, hooks, { seat, zone: "field", slot: 0 })),
  );
  return h("section", { class: `zoneset ${top ? "top" : "bottom"}`, "data-seat": seat, "aria-label": `${SEATS[seat]}'s field` }, top ? [backrow, monsters] : [monsters, backrow]);
}

function handRow(view: View, m: BoardModel, cat: Catalogue, hooks: BoardHooks, seat: number): HTMLElement {
  const p = view.players[seat];
  if (p === undefined) return h("div");
  return h(
    "div",
    { class: "row hand", "data-seat": seat, "aria-label": `${SEATS[seat]}'s hand (${p.hand_count})` },
    p.hand.map((c, i) => cardBox({ ...c, zone: "hand" }, m, cat, hooks, { seat, zone: "hand", slot: i })),
  );
}

function chainStack(view: View, cat: Catalogue): HTMLElement | null {
  if (view.chain.length === 0) return null;
  const links = [...view.chain].reverse();
  return h(
    "section",
    { class: "chain", "aria-label": "the chain", "data-testid": "chain" },
    h("h3", null, `Chain (${view.chain.length} link${view.chain.length > 1 ? "s" : ""}), resolves top first`),
    h(
      "ol",
      { reversed: true },
      links.map((l) =>
        h(
          "li",
          { class: l.negated ? "negated" : "" },
          `${l.link}. ${l.code !== undefined ? (cat.name(l.code) ?? "a card") : cardLabel(view, cat, l.card)} (${SEATS[l.controller]})`,
          l.targets && l.targets.length ? ` → ${l.targets.map((t) => cardLabel(view, cat, t)).join(", ")}` : "",
          l.negated ? " — negated" : "",
        ),
      ),
    ),
  );
}

function attackLine(view: View, cat: Catalogue): HTMLElement | null {
  const a = view.attack;
  if (a === null) return null;
  const target = a.target === null ? undefined : cardsById(view).get(key(a.target));
  const gone = a.target !== null && (target === undefined || target.zone !== "monsters");
  const tgt = a.target === null ? "directly" : cardLabel(view, cat, a.target);
  const text = gone
    ? `⚔ ${cardLabel(view, cat, a.attacker)} attacked, but its target left the field${a.replay ? " (replay)" : ""}`
    : `⚔ ${cardLabel(view, cat, a.attacker)} attacks ${tgt}${a.replay ? " (replay)" : ""}`;
  return h("div", { class: "attack-line", "data-testid": "attack" }, text);
}

function decisionBar(view: View, m: BoardModel, cat: Catalogue, hooks: BoardHooks): HTMLElement {
  const pend = m.pending;
  const kids: HTMLElement[] = [];
  let prompt: string;
  const who = (seat: number) => {
    const name = m.seats[seat]?.name ?? "";
    const letter = SEATS[seat] ?? "?";
    return name && name !== letter ? `${letter} (${name})` : letter;
  };
  const mine = m.interactive && m.me !== null && pend !== null && pend.seat === m.me;
  if (view.winner !== null && view.winner !== undefined) {
    const w = view.winner;
    const why = END_REASONS[view.end_reason ?? ""] ?? (view.end_reason ?? "").replaceAll("_", " ");
    prompt =
      w === "draw"
        ? `The duel is a draw (${why})`
        : `${who(w)} wins${m.me === w ? " — you won!" : m.me !== null ? " — you lost" : ""} (${why})`;
  } else if (pend === null) {
    prompt = "Waiting for the duel to start";
  } else if (mine) {
    prompt = `Your decision: ${pend.prompt}`;
  } else if (/^waiting for /i.test(pend.prompt)) {
    prompt = `Waiting for ${who(pend.seat)}${m.me === null ? "" : ", your opponent,"} to decide`;
  } else {
    prompt = `${who(pend.seat)} decides: ${pend.prompt}`; // a replay showing everything
  }
  if (mine && !m.busy && pend !== null && CHOICE_KINDS.has(pend.kind) && m.legal.length > 0) {
    kids.push(h("button", { type: "button", class: "act primary", "data-key": "open-choice", "data-action": "open-choice", onclick: () => hooks.openChoice() }, choiceButtonLabel(pend.kind)));
  } else if (m.interactive && !m.busy) {
    if (m.selecting !== null) {
      const direct = m.legal.find((a) => a.do === "attack" && key(a["with"]) === m.selecting?.attacker && a["direct"]);
      const name = cardLabel(view, cat, m.selecting.attacker);
      prompt = `Choose the target of ${name}'s attack`;
      if (direct) kids.push(h("button", { type: "button", class: "act primary", "data-key": "act-direct", "data-action": "attack-direct", onclick: () => hooks.send(direct) }, `${name} attacks directly`));
      kids.push(h("button", { type: "button", class: "act", "data-key": "act-cancel-select", onclick: () => hooks.select(null) }, "Cancel"));
    } else if (m.retargeting) {
      prompt = "Replay: choose the new attack target";
      for (const a of m.legal.filter((x) => x.do === "retarget" && x["direct"])) {
        kids.push(h("button", { type: "button", class: "act primary", "data-action": "retarget-direct", onclick: () => hooks.send(a) }, "Attack directly"));
      }
      kids.push(h("button", { type: "button", class: "act", onclick: () => hooks.retarget(false) }, "Back to the other choices"));
    } else {
      // actions of cards that are not on the board (in a pile, or not shown) get a button here too
      const shown = cardsById(view);
      const offBoard = (a: Action) => {
        const id = actionCard(a);
        if (id === null) return false;
        const zone = shown.get(id)?.zone;
        return zone === undefined || zone === "graveyard" || zone === "banished";
      };
      for (const a of m.legal.filter(offBoard)) {
        const c = shown.get(actionCard(a) ?? "");
        const where = c ? ` (${c.zone === "graveyard" ? "in the Graveyard" : "banished"})` : "";
        kids.push(h("button", { type: "button", class: "act", "data-action": a.do, onclick: () => hooks.send(a) }, describeAction(view, cat, a) + where));
      }
      // the moves through the turn: one button per place they go, nearest first, after the rest
      const moves = shownMoves(view, m.legal);
      const loose = [...m.legal.filter((a) => actionCard(a) === null && a.do !== "concede" && !isMove(a)), ...moves];
      let retargetShown = false;
      for (const a of loose) {
        if (a.do === "retarget") {
          if (!a["direct"] && !retargetShown) {
            retargetShown = true;
            kids.push(h("button", { type: "button", class: "act", "data-action": "retarget", onclick: () => hooks.retarget(true) }, "Replay: choose a new target…"));
          } else if (a["direct"]) {
            kids.push(h("button", { type: "button", class: "act", "data-action": "retarget-direct", onclick: () => hooks.send(a) }, describeAction(view, cat, a)));
          }
          continue;
        }
        const isPass = a.do === "pass";
        const label = isPass && pend ? passLabel(view, cat, pend.prompt, pend.kind) : describeAction(view, cat, a);
        kids.push(
          h("button", { type: "button", class: `act${isPass ? " pass" : ""}`, "data-key": `act-${a.do}-${label}`, "data-action": a.do, "data-move": isMove(a) ? (destinationOf(view, a) ?? "") : null, onclick: () => hooks.send(a) }, label),
        );
      }
    }
  }
  // the keyboard: digits press the first nine buttons; the first of them that passes or moves on
  // (or opens the choice) is where the focus goes back to after every action (keys.ts)
  numberButtons(kids);
  const primary =
    kids.find((b) => b.dataset["action"] === "open-choice" || b.dataset["action"] === "pass") ??
    kids.find((b) => b.dataset["move"] !== undefined) ??
    kids.find((b) => b.classList.contains("primary")) ??
    kids[0];
  primary?.setAttribute("data-primary", "");
  const canConcede = m.interactive && m.me !== null && view.winner === null && pend !== null && !m.offline;
  return h(
    "section",
    { class: `decision${m.interactive && m.legal.length && !m.busy ? " yours" : ""}`, "aria-label": "decision", "aria-live": "polite", tabindex: -1 },
    h("p", { class: "prompt", "data-testid": "prompt" }, m.offline ? "Offline — reconnecting… (nothing can be sent until the page is back)" : m.busy ? "Sending…" : prompt),
    h("div", { class: "acts" }, kids),
    m.interactive && m.me !== null && view.winner === null
      ? h(
          "label",
          { class: "autopass" },
          h("input", { type: "checkbox", "data-key": "autopass", checked: m.autoPass, onchange: (e: Event) => hooks.autoPass((e.target as HTMLInputElement).checked) }),
          h("span", { class: "long" }, " Pass for me when passing or moving on is all I can do"),
          h("span", { class: "short" }, " Pass for me when it is all I can do"),
        )
      : null,
    canConcede ? h("button", { type: "button", class: "act concede", "data-key": "concede", onclick: () => hooks.concede() }, "Concede…") : null,
    m.interactive && m.me !== null && view.winner === null && m.stops !== null ? stopSettings(m.stops, hooks) : null,
  );
}

/** Where the page stops for the player: a checkbox per phase of their turn and of the
 * opponent's; where they do not stop, the page moves on for them at once. */
function stopSettings(stops: Stops, hooks: BoardHooks): HTMLElement {
  const box = (whose: "own" | "theirs", key: string) =>
    h(
      "label",
      { class: "stop" },
      h("input", {
        type: "checkbox",
        "data-key": `stop-${whose}-${key}`,
        "data-stop": `${whose}:${key}`,
        checked: (whose === "own" ? stops.own : stops.theirs).includes(key),
        onchange: (e: Event) => hooks.stop(whose, key, (e.target as HTMLInputElement).checked),
      }),
      ` ${STOP_NAMES[key] ?? key}`,
    );
  const el = h(
    "details",
    { class: "stops", "data-testid": "stops", open: stopsOpen, ontoggle: () => (stopsOpen = el.open) },
    h("summary", { "data-key": "stops" }, "Stop at…"),
    h("p", { class: "muted" }, "Where you are not stopped, the page moves on for you at once, whatever your cards (your opponent learns nothing from it). Your Main Phases and Battle Step always stop."),
    h("fieldset", null, h("legend", null, "Your turn"), OWN_STOPS.map((k) => box("own", k))),
    h("fieldset", null, h("legend", null, "The opponent's turn"), THEIR_STOPS.map((k) => box("theirs", k))),
  );
  return el;
}

let stopsOpen = false; // the "Stop at…" box stays open from one render to the next

export function renderBoard(m: BoardModel, cat: Catalogue, hooks: BoardHooks): HTMLElement {
  const view = m.view;
  const bottom = m.bottom;
  const top = 1 - bottom;
  const board = h(
    "div",
    { class: "board", "data-seq-view": view.turn },
    phaseBar(view),
    h(
      "div",
      { class: "half top" },
      playerBar(view, m, top, hooks),
      handRow(view, m, cat, hooks, top),
      fieldRows(view, m, cat, hooks, top, true),
    ),
    h("div", { class: "middle" }, attackLine(view, cat), chainStack(view, cat)),
    h(
      "div",
      { class: "half bottom" },
      fieldRows(view, m, cat, hooks, bottom, false),
      handRow(view, m, cat, hooks, bottom),
    ),
    // the bottom player's bar and the decision stay on screen together (sticky): the decision
    // never covers the player's LP, on a phone either
    h("div", { class: "dock" }, playerBar(view, m, bottom, hooks), decisionBar(view, m, cat, hooks)),
  );
  const arrow = attackArrow(view, board);
  afterLayout(board, () => {
    fitNames(board);
    arrow?.();
  });
  return board;
}

let layoutWatch: ResizeObserver | null = null;

/** Run `fn` once the board is laid out (before it is painted), and again whenever its size
 * changes (the board of the last render only). */
function afterLayout(board: HTMLElement, fn: () => void): void {
  layoutWatch?.disconnect();
  layoutWatch = new ResizeObserver(() => fn());
  layoutWatch.observe(board);
}

/** The large view of a card (the side panel, the view on hover or long-press, the dialogs): its
 * frame, facts and whole text, with its ATK/DEF now against the printed values. */
export function cardDetail(c: CardView | null, cat: Catalogue): HTMLElement {
  if (c === null || c.hidden) return h("div", { class: "detail empty" }, "Hover over, focus or tap a card to read it (on a touch screen, touch and hold it).");
  const info = cat.get(c.code);
  const onField = c.zone === "monsters";
  return h("div", { class: "detail" }, largeCard(info, c.name ?? info?.name ?? "?", { atk: onField ? c.atk : undefined, def: onField ? c.def : undefined, counters: c.counters }));
}

export { cardsById };
