// The large card view over the page: shown while the mouse rests on a card when the side
// panel's card view is not on screen (a narrow window, or scrolled away), and on a touch screen
// when a card is touched and held (a long-press, which then does not count as a tap: the card's
// actions do not open). It goes away when the pointer leaves the card, at the next touch
// anywhere, on Esc, or when the page scrolls.

import { h } from "./dom";

/** How long a touch must be held to show the large view (ms). */
export const LONG_PRESS_MS = 450;
/** How long the mouse rests on a card before the large view shows (ms). */
const HOVER_MS = 150;
/** A touch that moves more than this (px) is a scroll, not a long-press. */
const SLOP = 10;

let box: HTMLElement | null = null;
let owner: HTMLElement | null = null;
let hoverTimer: number | null = null;
let pressTimer: number | null = null;
let swallowClick: HTMLElement | null = null;
let installed = false;

function zoomBox(): HTMLElement {
  if (box === null) {
    box = h("div", { class: "cardzoom", "data-testid": "card-zoom", role: "dialog", "aria-label": "card", hidden: true });
    document.body.append(box);
  }
  return box;
}

/** Show `view` next to `el` (above or below it, whichever has the room). */
export function showZoom(el: HTMLElement, view: HTMLElement): void {
  const z = zoomBox();
  z.replaceChildren(view);
  z.hidden = false;
  owner = el;
  const r = el.getBoundingClientRect();
  const w = Math.min(300, window.innerWidth - 16);
  z.style.width = `${w}px`;
  const left = Math.max(8, Math.min(window.innerWidth - w - 8, r.left + r.width / 2 - w / 2));
  z.style.left = `${left}px`;
  const hgt = z.offsetHeight;
  const below = r.bottom + 8;
  const top = below + hgt <= window.innerHeight - 8 || r.top - 8 - hgt < 8 ? Math.min(below, window.innerHeight - hgt - 8) : r.top - 8 - hgt;
  z.style.top = `${Math.max(8, top)}px`;
}

export function hideZoom(): void {
  if (hoverTimer !== null) window.clearTimeout(hoverTimer);
  if (pressTimer !== null) window.clearTimeout(pressTimer);
  hoverTimer = pressTimer = null;
  owner = null;
  if (box !== null) box.hidden = true;
}

/** Whether the side panel's card view is on screen (then hovering shows the card there). */
function sidePanelShown(): boolean {
  const slot = document.querySelector(".side .detail-slot");
  if (slot === null) return false;
  const r = slot.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight + 1 && r.top < window.innerHeight;
}

function install(): void {
  if (installed) return;
  installed = true;
  // a touch anywhere else, a scroll, or Esc: the large view goes
  document.addEventListener("pointerdown", (e) => {
    if (box !== null && !box.hidden && !(owner !== null && owner.contains(e.target as Node))) hideZoom();
  }, true);
  window.addEventListener("scroll", () => hideZoom(), { passive: true });
  // the card under the pointer was drawn again (an update) and is gone from the page
  document.addEventListener("pointermove", () => {
    if (owner !== null && !owner.isConnected) hideZoom();
  }, { passive: true });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") hideZoom();
  });
}

/** Make `el` (a card) show its large view (`view()`) on hover and on long-press. */
export function zoomable(el: HTMLElement, view: () => HTMLElement): void {
  install();
  el.addEventListener("pointerenter", (e) => {
    if (e.pointerType !== "mouse") return;
    if (hoverTimer !== null) window.clearTimeout(hoverTimer);
    hoverTimer = window.setTimeout(() => {
      hoverTimer = null;
      if (el.isConnected && !sidePanelShown()) showZoom(el, view());
    }, HOVER_MS);
  });
  el.addEventListener("pointerleave", (e) => {
    if (e.pointerType === "mouse" && (owner === el || hoverTimer !== null)) hideZoom();
  });
  let start: { x: number; y: number } | null = null;
  el.addEventListener("pointerdown", (e) => {
    swallowClick = null;
    if (e.pointerType === "mouse") return;
    start = { x: e.clientX, y: e.clientY };
    if (pressTimer !== null) window.clearTimeout(pressTimer);
    pressTimer = window.setTimeout(() => {
      pressTimer = null;
      if (!el.isConnected) return;
      swallowClick = el; // the finger's release is not a tap on the card
      showZoom(el, view());
    }, LONG_PRESS_MS);
  });
  el.addEventListener("pointermove", (e) => {
    if (start !== null && pressTimer !== null && Math.hypot(e.clientX - start.x, e.clientY - start.y) > SLOP) {
      window.clearTimeout(pressTimer);
      pressTimer = null;
    }
  });
  const release = () => {
    start = null;
    if (pressTimer !== null) window.clearTimeout(pressTimer);
    pressTimer = null;
  };
  el.addEventListener("pointerup", release);
  el.addEventListener("pointercancel", release);
  el.addEventListener(
    "click",
    (e) => {
      if (swallowClick !== el) return;
      swallowClick = null;
      e.preventDefault();
      e.stopImmediatePropagation();
    },
    true,
  );
  // a long-press opens no context menu over a card
  el.addEventListener("contextmenu", (e) => {
    if (owner === el || swallowClick === el) e.preventDefault();
  });
}
