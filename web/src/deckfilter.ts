// The deck editor's search: by name and text (and Type) in words, kind, Attribute, Type, Level and ATK/DEF ranges,
// over the format's card pool; and the filter form that sets it.

import type { DeckFormat } from "./deckrules";
import { h } from "./dom";
import type { CardInfo } from "./proto";

export interface Filter {
  q: string;
  /** "" any; "monster", "monster:normal", "monster:effect", "monster:fusion", "monster:flip";
   * "spell", "spell:quick-play", ...; "trap", "trap:counter", ... */
  kind: string;
  attribute: string;
  type: string;
  level: string;
  atkMin: string;
  atkMax: string;
  defMin: string;
  defMax: string;
  sort: "name" | "atk" | "def" | "level";
}

export function emptyFilter(): Filter {
  return { q: "", kind: "", attribute: "", type: "", level: "", atkMin: "", atkMax: "", defMin: "", defMax: "", sort: "name" };
}

const KINDS: [string, string][] = [
  ["", "Any kind"],
  ["monster", "Monster"],
  ["monster:normal", "Normal Monster"],
  ["monster:effect", "Effect Monster"],
  ["monster:flip", "Flip Monster"],
  ["monster:fusion", "Fusion Monster"],
  ["spell", "Spell"],
  ["spell:normal", "Normal Spell"],
  ["spell:quick-play", "Quick-Play Spell"],
  ["spell:continuous", "Continuous Spell"],
  ["spell:equip", "Equip Spell"],
  ["spell:field", "Field Spell"],
  ["trap", "Trap"],
  ["trap:normal", "Normal Trap"],
  ["trap:continuous", "Continuous Trap"],
  ["trap:counter", "Counter Trap"],
];

function norm(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}

function kindMatches(c: CardInfo, kind: string): boolean {
  if (kind === "") return true;
  const [k, sub] = kind.split(":");
  if (c.kind !== k) return false;
  if (sub === undefined) return true;
  if (k === "monster") return sub === "normal" ? c.monster_kinds.includes("normal") || c.monster_kinds.length === 0 : c.monster_kinds.includes(sub);
  return c.prop === sub;
}

function within(value: number, min: string, max: string): boolean {
  if (min.trim() !== "" && !(value >= Number(min))) return false;
  if (max.trim() !== "" && !(value <= Number(max))) return false;
  return true;
}

/** The cards of the format's pool that `f` lets through, sorted as it asks. */
export function search(cards: Iterable<CardInfo>, fmt: DeckFormat, f: Filter): CardInfo[] {
  const words = norm(f.q).split(" ").filter(Boolean);
  const ranged = [f.atkMin, f.atkMax, f.defMin, f.defMax, f.level].some((x) => x.trim() !== "") || f.attribute !== "" || f.type !== "";
  const out: CardInfo[] = [];
  for (const c of cards) {
    if (fmt.pool.size && !fmt.pool.has(c.code)) continue;
    if (c.monster_kinds.includes("token")) continue; // never in a deck
    if (!kindMatches(c, f.kind)) continue;
    if (ranged && c.kind !== "monster") continue; // Level, Attribute, Type, ATK and DEF are a monster's
    if (f.attribute !== "" && c.attribute !== f.attribute) continue;
    if (f.type !== "" && c.type !== f.type) continue;
    if (f.level !== "" && c.level !== Number(f.level)) continue;
    if (!within(c.atk, f.atkMin, f.atkMax) || !within(c.def, f.defMin, f.defMax)) continue;
    if (words.length) {
      const hay = norm(`${c.name} ${c.texts?.[fmt.name] ?? c.text} ${c.type}`); // the name, the text, the Type
      if (!words.every((w) => hay.includes(w))) continue;
    }
    out.push(c);
  }
  const by: Record<Filter["sort"], (a: CardInfo, b: CardInfo) => number> = {
    name: (a, b) => a.name.localeCompare(b.name),
    atk: (a, b) => b.atk - a.atk || a.name.localeCompare(b.name),
    def: (a, b) => b.def - a.def || a.name.localeCompare(b.name),
    level: (a, b) => b.level - a.level || a.name.localeCompare(b.name),
  };
  return out.sort(by[f.sort]);
}

/** The filter form: each field sets `f` and calls `changed`. Its options come from the pool. */
export function filterForm(cards: CardInfo[], fmt: DeckFormat, f: Filter, changed: () => void): HTMLElement {
  const pool = cards.filter((c) => !fmt.pool.size || fmt.pool.has(c.code));
  const values = (pick: (c: CardInfo) => string) => [...new Set(pool.filter((c) => c.kind === "monster").map(pick))].filter(Boolean).sort();
  const set = (field: keyof Filter) => (e: Event) => {
    (f as unknown as Record<string, string>)[field] = (e.target as HTMLInputElement | HTMLSelectElement).value;
    changed();
  };
  const select = (field: keyof Filter, label: string, options: [string, string][]) => {
    const el = h("select", { id: `f-${field}`, "data-key": `f-${field}`, onchange: set(field) }, options.map(([v, l]) => h("option", { value: v }, l)));
    el.value = String(f[field]);
    return h("span", { class: "ff" }, h("label", { for: `f-${field}` }, label), el);
  };
  const num = (field: keyof Filter, label: string) =>
    h("span", { class: "ff num" }, h("label", { for: `f-${field}` }, label), h("input", { id: `f-${field}`, "data-key": `f-${field}`, type: "number", min: 0, max: 5000, step: 100, inputmode: "numeric", value: String(f[field]), oninput: set(field) }));
  const levels = [...new Set(pool.filter((c) => c.kind === "monster").map((c) => c.level))].sort((a, b) => a - b);
  return h(
    "div",
    { class: "filters", role: "search", "aria-label": "search the cards" },
    h(
      "div",
      { class: "ff wide" },
      h("label", { for: "f-q" }, "Search name or text"),
      h("input", { id: "f-q", "data-key": "f-q", type: "search", value: f.q, placeholder: "e.g. Sangan, destroy, Spellcaster", oninput: set("q"), autocomplete: "off" }),
    ),
    select("kind", "Kind", KINDS),
    select("attribute", "Attribute", [["", "Any"], ...values((c) => c.attribute).map((a): [string, string] => [a, a])]),
    select("type", "Type", [["", "Any"], ...values((c) => c.type).map((t): [string, string] => [t, t])]),
    select("level", "Level", [["", "Any"], ...levels.map((l): [string, string] => [String(l), `★${l}`])]),
    num("atkMin", "ATK at least"),
    num("atkMax", "ATK at most"),
    num("defMin", "DEF at least"),
    num("defMax", "DEF at most"),
    select("sort", "Sort by", [["name", "Name"], ["atk", "ATK"], ["def", "DEF"], ["level", "Level"]]),
  );
}
