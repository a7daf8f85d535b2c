// The keyboard: a duel and a replay played without the mouse, and focus that comes back.
//
// In a duel, focus goes back to the decision after every action: to its first button (the
// pass, the nearest move, or "Choose…"), so Space or Enter passes or moves on; digits 1-9 press
// the numbered buttons of the decision (or of the open dialog); A (Shift+A: backwards) goes from
// one card that has actions to the next, and Enter opens it. In the replay viewer the arrows step
// (Home, End: the first and last entry; Space: play or pause). Esc closes a dialog (the browser's
// own); ? shows the keys.

import { h } from "./dom";

export const KEYS_HELP: [string, string][] = [
  ["Space, Enter", "the focused button: after every action, the decision's first one (pass, or the nearest move)"],
  ["1 … 9", "the numbered buttons of the decision, or of the open dialog"],
  ["A / Shift+A", "the next / previous card you can use (Enter opens it; in an attack, the target)"],
  ["Tab, Shift+Tab", "every button and card in turn"],
  ["← →", "replay: step back / forward"],
  ["Home, End", "replay: the first / last entry"],
  ["Space", "replay: play or pause"],
  ["+ / −", "replay: faster / slower (0.5× to 8×)"],
  ["Esc", "close the dialog; without one, back to the decision"],
  ["?", "this list"],
];

/** What the keyboard works on (the application, through these). */
export interface KeyHost {
  screen(): "lobby" | "match" | "replay" | "decks";
  dialog(): HTMLDialogElement | null; // the open dialog, if any
  root(): HTMLElement;
  help(): void;
  replayStep(by: number | "first" | "last"): void;
  replayPlay(): void;
  replayFaster(by: number): void;
}

/** Whether keys typed go into the focused element (a text field, a list box): not the page's. */
function typing(t: EventTarget | null): boolean {
  if (t instanceof HTMLInputElement) return !["checkbox", "radio", "button", "submit", "reset", "file", "range", "color"].includes(t.type);
  return t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || (t instanceof HTMLElement && t.isContentEditable);
}

/** The numbered buttons of `within`, in order (at most 9). */
export function numbered(within: ParentNode): HTMLButtonElement[] {
  return Array.from(within.querySelectorAll<HTMLButtonElement>("button[data-num]")).filter((b) => !b.disabled).slice(0, 9);
}

/** Number the buttons of a list: `data-num` 1-9 (the page shows the digit before the label). */
export function numberButtons(buttons: HTMLElement[]): void {
  buttons.slice(0, 9).forEach((b, i) => b.setAttribute("data-num", String(i + 1)));
}

export function installKeys(host: KeyHost): void {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const dlg = host.dialog();
    if (e.key === "?" && !typing(e.target)) {
      e.preventDefault();
      host.help();
      return;
    }
    if (typing(e.target)) return;
    if (/^[1-9]$/.test(e.key)) {
      const scope: ParentNode | null = dlg ?? (host.screen() === "match" ? host.root().querySelector(".decision") : null);
      const btn = scope ? numbered(scope)[Number(e.key) - 1] : undefined;
      if (btn) {
        e.preventDefault();
        btn.click();
      }
      return;
    }
    if (dlg) return; // the dialog's own keys (Tab, Enter, Esc)
    if (host.screen() === "match" && e.key === "Escape") {
      // back to the decision (from a card, a setting, the log), the "Stop at" settings folded
      host.root().querySelectorAll<HTMLDetailsElement>("details[open]").forEach((d) => (d.open = false));
      focusDecision(host.root(), true);
      return;
    }
    if (host.screen() === "match" && (e.key === "a" || e.key === "A")) {
      const cards = Array.from(host.root().querySelectorAll<HTMLElement>(".card.actionable, .card.targetable, [data-action=attack-direct]"));
      if (cards.length === 0) return;
      e.preventDefault();
      const i = cards.indexOf(document.activeElement as HTMLElement);
      const next = e.shiftKey ? (i <= 0 ? cards.length - 1 : i - 1) : (i + 1) % cards.length;
      cards[next]?.focus();
      return;
    }
    if (host.screen() === "replay") {
      const onButton = e.target instanceof HTMLButtonElement || e.target instanceof HTMLAnchorElement;
      const step: Record<string, number | "first" | "last"> = { ArrowLeft: -1, ArrowRight: 1, Home: "first", End: "last" };
      const by = step[e.key];
      if (by !== undefined) {
        e.preventDefault();
        host.replayStep(by);
      } else if (e.key === " " && !onButton) {
        e.preventDefault();
        host.replayPlay();
      } else if (e.key === "+" || e.key === "=" || e.key === "-") {
        e.preventDefault();
        host.replayFaster(e.key === "-" ? -1 : 1);
      }
    }
  });
}

/** The help overlay's body: every key and what it does. */
export function keysHelp(): HTMLElement {
  return h(
    "dl",
    { class: "keys", "data-testid": "keys-help" },
    KEYS_HELP.map(([k, what]) => [h("dt", null, h("kbd", null, k)), h("dd", null, what)]),
  );
}

/** After a render of a duel: give the focus back to the decision when it was lost (the button it
 * was on went away, as after every action) or when `force` (an action was just sent): to its
 * first button (`data-primary`), or to the decision itself while there is nothing to do. Focus a
 * player has put on a card or a setting stays where it is. */
export function focusDecision(root: HTMLElement, force: boolean): boolean {
  const decision = root.querySelector<HTMLElement>(".decision");
  if (decision === null) return false;
  const active = document.activeElement;
  const lost = active === null || active === document.body || !active.isConnected || active === decision;
  if (!lost && !force) return false;
  const primary = decision.querySelector<HTMLElement>("[data-primary]") ?? decision.querySelector<HTMLElement>(".acts button");
  (primary ?? decision).focus({ preventScroll: true });
  return primary !== null;
}
