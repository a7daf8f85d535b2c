// The break between two duels of a match (PROTOCOL.md section 5b): the siding screen (the seat's
// deck and Side Deck, a card of each picked and swapped one for one, "Done siding"), the loser's
// choice of who goes first, the time left, and of the other seat only its counts. A spectator
// sees the counts of both.

import type { Catalogue } from "./cards";
import { h } from "./dom";
import { renderDuels, type MatchInfo } from "./matchscore";

export interface SidingHooks {
  send(msg: Record<string, unknown>): void;
  nameOf(seat: number): string;
}

function clockText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The seconds left in the break, on every element that shows them (called every second). */
export function tickDeadline(root: HTMLElement): void {
  root.querySelectorAll<HTMLElement>("[data-deadline]").forEach((el) => {
    el.textContent = clockText(Number(el.dataset["deadline"]) - Date.now());
  });
}

export class Siding {
  private deck: number[] = [];
  private side: number[] = [];
  private pick: { deck: number | null; side: number | null } = { deck: null, side: null };
  private breakOf = -1; // the duel whose break the lists are of

  /** A `match_state`: a new break starts the lists from the seat's deck as the server has it. */
  onState(ms: MatchInfo): void {
    if (ms.phase !== "siding" || ms.deck === null) return;
    if (this.breakOf !== ms.duel) {
      this.breakOf = ms.duel;
      this.deck = [...ms.deck];
      this.side = [...(ms.side ?? [])];
      this.pick = { deck: null, side: null };
    }
  }

  private swap(): void {
    const { deck: i, side: j } = this.pick;
    if (i === null || j === null) return;
    const out = this.deck[i];
    const inn = this.side[j];
    if (out === undefined || inn === undefined) return;
    this.deck[i] = inn;
    this.side[j] = out;
    this.pick = { deck: null, side: null };
  }

  render(ms: MatchInfo, seat: number | null, cat: Catalogue, hooks: SidingHooks, rerender: () => void): HTMLElement {
    const counts = (s: number) => {
      const [main, extra, side] = ms.counts[s] ?? [0, 0, 0];
      return `Main ${main} · Extra ${extra} · Side ${side}`;
    };
    const others = seat === null ? [0, 1] : [1 - seat];
    const chooser = ms.chooser;
    const choice =
      chooser === null
        ? null
        : ms.first !== null
          ? h("p", { "data-testid": "first-chosen" }, `${hooks.nameOf(ms.first)} goes first in duel ${ms.duel}.`)
          : chooser === seat
            ? h(
                "div",
                { class: "choose-first", "data-testid": "choose-first" },
                h("p", null, `You lost duel ${ms.duel - 1}: do you go first or second in duel ${ms.duel}?`),
                h("button", { type: "button", class: "act primary", "data-testid": "go-first", onclick: () => hooks.send({ type: "choose_first", go_first: true }) }, "Go first"),
                h("button", { type: "button", class: "act", "data-testid": "go-second", onclick: () => hooks.send({ type: "choose_first", go_first: false }) }, "Go second"),
              )
            : h("p", { class: "muted" }, `${hooks.nameOf(chooser)} chooses who goes first.`);
    const list = (which: "deck" | "side", codes: number[]) =>
      h(
        "ul",
        { class: `siding-list ${which}`, "data-testid": `siding-${which}` },
        codes.map((code, i) =>
          h(
            "li",
            null,
            h(
              "button",
              {
                type: "button",
                class: `card-pick${this.pick[which] === i ? " picked" : ""}`,
                "data-code": code,
                "data-index": i,
                "aria-pressed": this.pick[which] === i ? "true" : "false",
                onclick: () => {
                  this.pick[which] = this.pick[which] === i ? null : i;
                  rerender();
                },
              },
              cat.name(code) ?? `card ${code}`,
            ),
          ),
        ),
      );
    const mine =
      seat === null || ms.deck === null
        ? null
        : h(
            "div",
            { class: "siding-mine" },
            h("p", { class: "muted" }, "Swap cards one for one: pick a card of your deck and a card of your Side Deck, then Swap. Your opponent sees only your counts."),
            h(
              "div",
              { class: "siding-cols" },
              h("div", null, h("h3", null, `Your deck (${this.deck.length})`), list("deck", this.deck)),
              h("div", null, h("h3", null, `Your Side Deck (${this.side.length})`), this.side.length ? list("side", this.side) : h("p", { class: "muted" }, "No Side Deck: nothing to swap.")),
            ),
            h(
              "div",
              { class: "buttons" },
              h(
                "button",
                {
                  type: "button",
                  class: "act",
                  "data-testid": "swap",
                  disabled: this.pick.deck === null || this.pick.side === null,
                  onclick: () => {
                    this.swap();
                    rerender();
                  },
                },
                "Swap",
              ),
              h(
                "button",
                { type: "button", class: "act primary", "data-testid": "side-done", onclick: () => hooks.send({ type: "side_deck", deck: [...this.deck], side: [...this.side] }) },
                ms.ready[seat] ? "Send this deck again" : "Done siding",
              ),
              ms.ready[seat] ? h("span", { class: "muted", "data-testid": "side-sent" }, " Done: waiting for the next duel.") : null,
            ),
          );
    return h(
      "section",
      { class: "panel siding", "data-testid": "siding", "data-duel": ms.duel },
      h("h2", null, `Between duels: duel ${ms.duel} of a best of ${ms.best_of} is next`),
      renderDuels(ms, hooks.nameOf),
      ms.deadline_ms !== null
        ? h("p", null, "Siding ends in ", h("strong", { "data-deadline": ms.deadline_ms, "data-testid": "siding-timer" }, clockText(ms.deadline_ms - Date.now())))
        : null,
      choice,
      others.map((s) =>
        h("p", { class: "opponent-counts", "data-testid": `counts-${s}` }, `${hooks.nameOf(s)}: ${counts(s)} · `, ms.ready[s] ? "done siding" : "siding…"),
      ),
      mine,
    );
  }
}
