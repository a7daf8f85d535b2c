// A tiny DOM builder: h("button", {class: "x", onclick: f}, "label").

export type Child = Node | string | number | null | undefined | false | Child[];
type Handler = (ev: Event) => void;
export type Attrs = Record<string, string | number | boolean | Handler | null | undefined>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs | null = null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [key, value] of Object.entries(attrs)) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on") && typeof value === "function") {
        el.addEventListener(key.slice(2), value as Handler);
      } else if (key === "class") {
        el.className = String(value);
      } else if (key === "value" && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement)) {
        el.value = String(value);
      } else if (value === true) {
        el.setAttribute(key, "");
      } else {
        el.setAttribute(key, String(value));
      }
    }
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else if (c instanceof Node) el.appendChild(c);
    else el.appendChild(document.createTextNode(String(c)));
  }
}

/** The ``data-key`` of the focused element if it is inside ``el``. */
function focusedKey(el: Element): string | undefined {
  const active = document.activeElement;
  return active instanceof HTMLElement && el.contains(active) ? active.dataset["key"] : undefined;
}

function refocus(el: Element, key: string | undefined): void {
  if (key === undefined) return;
  el.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus({ preventScroll: true });
}

/** Replace the children of ``el``, keeping keyboard focus on the element
 * with the same ``data-key`` if there was one. */
export function replaceChildren(el: HTMLElement, ...children: Child[]): void {
  const key = focusedKey(el);
  el.replaceChildren();
  append(el, children);
  refocus(el, key);
}

/** Put ``fresh`` in the place of ``old`` (keeping the focus the same way). */
export function swap(old: Element, fresh: HTMLElement): void {
  if (old === fresh) return;
  const key = focusedKey(old);
  const parent = old.parentElement;
  old.replaceWith(fresh);
  if (parent !== null) refocus(parent, key);
}

/** A screen's element kept from one render to the next: its first child (what
 * changes) is swapped for a new one, the others (a long log) stay in place, so
 * the browser does not lay them out again for every update. */
export class Kept {
  el: HTMLElement | null = null;

  render(attrs: Record<string, string | number>, changing: HTMLElement, ...kept: HTMLElement[]): HTMLElement {
    if (this.el === null) {
      this.el = h("main", attrs, changing, ...kept);
      return this.el;
    }
    for (const [k, v] of Object.entries(attrs)) {
      if (k === "class") this.el.className = String(v);
      else this.el.setAttribute(k, String(v));
    }
    const first = this.el.firstElementChild;
    if (first === null) this.el.append(changing);
    else swap(first, changing);
    return this.el;
  }
}
