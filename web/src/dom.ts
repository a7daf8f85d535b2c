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

/** Replace the children of ``el``, keeping keyboard focus on the element
 * with the same ``data-key`` if there was one. */
export function replaceChildren(el: HTMLElement, ...children: Child[]): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && el.contains(active) ? active.dataset["key"] : undefined;
  const scrolls = new Map<string, number>();
  el.querySelectorAll<HTMLElement>("[data-keep-scroll]").forEach((s) => {
    scrolls.set(s.dataset["keepScroll"] ?? "", s.scrollTop);
  });
  el.replaceChildren();
  append(el, children);
  if (key !== undefined) {
    const again = el.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
    again?.focus({ preventScroll: true });
  }
  el.querySelectorAll<HTMLElement>("[data-keep-scroll]").forEach((s) => {
    const top = scrolls.get(s.dataset["keepScroll"] ?? "");
    if (top !== undefined) s.scrollTop = top;
  });
}
