// The deck editor (#/decks, #/decks/ID): search the format's cards (deckfilter.ts), build a
// Main, Extra (Goat: Fusion) and Side Deck with the format's limits shown on every card and the
// deck checked as it grows (deckrules.ts, the server's own rules and words), keep decks in this
// browser (deckstore.ts), import and export `.ydk` files and `ydke://` links (ydk.ts), and play
// a deck: the lobby then offers it for a match of its format.
//
// The screen's element is built once (its fields keep their text and focus while one types);
// what a change touches (the results, the deck, the card view) is drawn again in its slot.

import type { App } from "./app";
import { cardTile, cardView, kindWords } from "./cardtile";
import { emptyFilter, filterForm, search, type Filter } from "./deckfilter";
import { checkDeck, copiesIn, type DeckFormat, deckFormats, formatNamed, isExtraDeck } from "./deckrules";
import { deleteDeck, getDeck, loadDecks, newDeck, type SavedDeck, saveDeck } from "./deckstore";
import { h, replaceChildren } from "./dom";
import type { CardInfo } from "./proto";
import { type DeckList, DeckListError, MAX_BYTES, parseDeckList, toYdk, toYdke } from "./ydk";

type Part = keyof DeckList;
const ORDER: Record<string, number> = { monster: 0, spell: 1, trap: 2 };

export class DeckEditor {
  deck: SavedDeck;
  filter: Filter = emptyFilter();
  shown: number | null = null;
  note: string | null = null;
  problems: string[] = [];
  private el: HTMLElement | null = null;
  private builtFor: string | null = null;
  private slots: Record<"filters" | "results" | "status" | "lists" | "export" | "saved" | "view", HTMLElement> | null = null;
  private nameInput: HTMLInputElement | null = null;
  private formatSelect: HTMLSelectElement | null = null;

  constructor(
    private readonly app: App,
    id: string | null,
  ) {
    this.deck = (id !== null ? getDeck(id) : loadDecks()[0]) ?? newDeck(app.lobby.format());
    if (id !== null && getDeck(id) === null) this.note = "No deck with that id is kept in this browser: a new deck.";
  }

  get fmt(): DeckFormat {
    return formatNamed(this.app.cat, this.deck.format);
  }

  // ------------------------------------------------------------ changes

  private changed(): void {
    if (this.deck.main.length + this.deck.extra.length + this.deck.side.length > 0 || this.deck.name.trim() !== "") {
      const refused = saveDeck(this.deck);
      if (refused !== null) this.note = refused;
    }
    this.refresh();
  }

  add(code: number, part: Part): void {
    const to = part === "side" ? "side" : isExtraDeck(this.app.cat.get(code)) ? "extra" : "main";
    this.deck[to].push(code);
    this.shown = code;
    this.changed();
  }

  remove(code: number, part: Part): void {
    const i = this.deck[part].lastIndexOf(code);
    if (i >= 0) this.deck[part].splice(i, 1);
    this.changed();
  }

  move(code: number, from: Part, to: Part): void {
    const i = this.deck[from].lastIndexOf(code);
    if (i < 0) return;
    this.deck[from].splice(i, 1);
    this.deck[to].push(code);
    this.changed();
  }

  private open(deck: SavedDeck, note: string | null = null): void {
    this.deck = deck;
    this.note = note;
    if (this.nameInput) this.nameInput.value = deck.name;
    if (this.formatSelect) this.formatSelect.value = deck.format;
    this.builtFor = null; // the pool may be another format's: the filters again
    if (location.hash !== `#/decks/${deck.id}`) history.replaceState(null, "", `#/decks/${deck.id}`);
    this.render();
  }

  /** A `.ydk` file's text or a `ydke://` link, as a new deck named `name`, in the first format it
   * is legal in (the editor's own if it is legal there or nowhere). */
  importText(text: string, name: string): void {
    let list: DeckList;
    try {
      list = parseDeckList(text);
    } catch (e) {
      this.note = "Not imported: the text is not a .ydk list or a ydke:// link.";
      this.problems = e instanceof DeckListError ? e.problems : [String(e)];
      this.refresh();
      return;
    }
    const cat = this.app.cat;
    const here = this.fmt;
    const legal = [here, ...deckFormats(cat).filter((f) => f.name !== here.name)].find((f) => checkDeck(list, f, cat).length === 0);
    const f = legal ?? here;
    const canon = (codes: number[]) => codes.map((c) => f.canonical(c));
    const deck = newDeck(f.name, name.trim() || "Imported deck", { main: canon(list.main), extra: canon(list.extra), side: canon(list.side) });
    saveDeck(deck);
    this.problems = [];
    const sizes = `${list.main.length} Main, ${list.extra.length} ${f.extraName}, ${list.side.length} Side`;
    this.open(deck, `Imported "${deck.name}" (${sizes}): ${legal ? `legal in ${f.title}` : `not legal in ${f.title} as it is`}.`);
  }

  /** A `.ydk` file chosen or dropped on the editor: imported as a new deck. */
  async importFile(file: File): Promise<void> {
    if (file.size > MAX_BYTES) {
      this.note = `Not imported: ${file.name} has ${file.size} bytes; a deck list has at most ${MAX_BYTES}.`;
      this.refresh();
      return;
    }
    this.importText(await file.text(), file.name.replace(/\.ydk$/i, ""));
  }

  private download(): void {
    const name = (this.deck.name.trim() || "deck").replace(/[^\p{L}\p{N} _.-]+/gu, "_");
    const url = URL.createObjectURL(new Blob([toYdk(this.deck, `created by the duel server's deck editor: ${this.deck.name || "a deck"} (${this.fmt.title})`)], { type: "text/plain" }));
    const a = h("a", { href: url, download: `${name}.ydk`, class: "sr-only" });
    document.body.append(a);
    a.click();
    a.remove();
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  private play(): void {
    this.app.lobby.useDeck(this.deck);
    this.app.go("#/");
  }

  // ------------------------------------------------------------ drawing

  render(): HTMLElement {
    const cat = this.app.cat;
    if (this.el === null || this.slots === null) this.build();
    if (this.builtFor !== `${cat.version}/${this.deck.format}` && this.slots !== null) {
      this.builtFor = `${cat.version}/${this.deck.format}`;
      if (this.formatSelect) {
        replaceChildren(this.formatSelect, deckFormats(cat).map((f) => h("option", { value: f.name }, f.title)));
        this.formatSelect.value = this.deck.format;
      }
      replaceChildren(this.slots.filters, filterForm([...cat.byCode.values()], this.fmt, this.filter, () => this.refresh()));
    }
    this.refresh();
    return this.el as HTMLElement;
  }

  private build(): void {
    const slot = (cls: string, attrs: Record<string, string> = {}) => h("div", { class: cls, ...attrs });
    this.slots = {
      filters: slot("filters-slot"),
      results: slot("results-slot"),
      status: slot("deck-status", { "aria-live": "polite" }),
      lists: slot("deck-lists"),
      export: slot("deck-export"),
      saved: slot("saved-decks"),
      view: slot("view-slot"),
    };
    this.nameInput = h("input", { id: "deck-name", "data-key": "deck-name", maxlength: 64, value: this.deck.name, placeholder: "Untitled deck", oninput: (e: Event) => ((this.deck.name = (e.target as HTMLInputElement).value), this.changed()) });
    this.formatSelect = h("select", {
      id: "deck-format",
      "data-key": "deck-format",
      onchange: (e: Event) => {
        this.deck.format = (e.target as HTMLSelectElement).value;
        this.changed();
        this.render();
      },
    });
    const paste = h("textarea", { id: "deck-paste", "data-key": "deck-paste", rows: 3, placeholder: "#main\n18036057\n…   or   ydke://…" });
    const file = h("input", {
      id: "deck-file",
      type: "file",
      accept: ".ydk,text/plain",
      "data-key": "deck-file",
      onchange: (e: Event) => {
        const input = e.target as HTMLInputElement;
        const f = input.files?.[0];
        if (f) void this.importFile(f).finally(() => (input.value = ""));
      },
    });
    const button = (key: string, label: string, onclick: () => void, cls = "act small") => h("button", { type: "button", class: cls, "data-key": key, onclick }, label);
    const s = this.slots;
    this.el = h(
      "main",
      { class: "deckeditor", "data-testid": "deck-editor" },
      h("section", { class: "panel pool", "aria-label": "the cards" }, h("h1", null, "Deck editor"), s.filters, s.results),
      h(
        "section",
        { class: "panel deck", "aria-label": "the deck" },
        h(
          "div",
          { class: "deckhead" },
          h("span", { class: "ff wide" }, h("label", { for: "deck-name" }, "Deck name"), this.nameInput),
          h("span", { class: "ff" }, h("label", { for: "deck-format" }, "Format"), this.formatSelect),
          h(
            "div",
            { class: "buttons" },
            button("deck-new", "New deck", () => this.open(newDeck(this.deck.format), "A new deck: it is kept in this browser once it has a card or a name.")),
            button("deck-delete", "Delete this deck", () => {
              if (!confirm(`Delete "${this.deck.name || "Untitled deck"}" from this browser?`)) return;
              deleteDeck(this.deck.id);
              this.open(loadDecks()[0] ?? newDeck(this.deck.format), "Deleted.");
            }, "act small danger"),
          ),
        ),
        s.status,
        s.lists,
        h(
          "div",
          { class: "deck-io" },
          h("h2", null, "Import"),
          h("label", { for: "deck-file" }, "Import a .ydk file"),
          file,
          h("label", { for: "deck-paste" }, "Paste a .ydk list or a ydke:// link"),
          paste,
          button("deck-import", "Import the pasted list", () => this.importText(paste.value, "Pasted deck")),
          h("h2", null, "Export"),
          s.export,
        ),
        h("h2", null, "Decks kept in this browser"),
        s.saved,
      ),
      h("aside", { class: "panel viewer", "aria-label": "the card chosen" }, s.view),
    );
  }

  /** Draw again what the deck, the filter or the chosen card shows. */
  refresh(): void {
    const s = this.slots;
    if (s === null) return;
    const cat = this.app.cat;
    const f = this.fmt;
    if (!cat.loaded) {
      replaceChildren(s.results, h("p", { class: "muted" }, "Loading the cards from the server…"));
      return;
    }
    replaceChildren(s.results, this.results(f));
    replaceChildren(s.status, this.status(f));
    replaceChildren(s.lists, (["main", "extra", "side"] as const).map((p) => this.partList(p, f)));
    replaceChildren(s.export, this.exports());
    replaceChildren(s.saved, this.savedList());
    this.drawView();
  }

  private drawView(): void {
    if (this.slots === null) return;
    const card = this.shown === null ? null : (this.app.cat.get(this.shown) ?? null);
    replaceChildren(this.slots.view, cardView(card, this.fmt, card ? copiesIn(this.deck, card.code, this.fmt) : 0));
  }

  private show(code: number): void {
    this.shown = code;
    this.drawView();
  }

  private results(f: DeckFormat): HTMLElement {
    const found = search(this.app.cat.byCode.values(), f, this.filter);
    const rows = found.map((c) => {
      const have = copiesIn(this.deck, c.code, f);
      const full = have >= f.limit(c.code);
      const why = full ? `${have} in the deck: at most ${f.limit(c.code)}` : null;
      const extra = isExtraDeck(c);
      const add = (part: Part, label: string) =>
        h("button", { type: "button", class: "act small", "data-add": part, "data-key": `add-${part}-${c.code}`, disabled: full, title: why ?? `add one to the ${part === "side" ? "Side Deck" : extra ? f.extraName : "Main Deck"}`, "aria-label": `${label}: ${c.name}`, onclick: () => this.add(c.code, part) }, label);
      const tile = cardTile(c, f, `tile-${c.code}`, () => this.show(c.code));
      tile.addEventListener("mouseenter", () => this.show(c.code));
      return h("li", { class: "result", "data-code": c.code, "data-have": have }, tile, h("span", { class: "adds" }, have ? h("span", { class: "have", title: "copies in this deck" }, `${have} in deck`) : null, add(extra ? "extra" : "main", extra ? `+ ${f.extraName.replace(" Deck", "")}` : "+ Main"), add("side", "+ Side")));
    });
    return h("div", null, h("p", { class: "muted found", "data-testid": "found" }, `${found.length} card${found.length === 1 ? "" : "s"} of ${f.title}`), h("ul", { class: "results", "data-testid": "results" }, rows));
  }

  private status(f: DeckFormat): HTMLElement {
    const d = this.deck;
    const sizes = f.sizes();
    const problems = checkDeck(d, f, this.app.cat);
    const count = (part: Part, label: string, range: string) => h("span", { class: "count-box", "data-testid": `count-${part}` }, h("b", null, String(d[part].length)), ` ${label} `, h("span", { class: "muted" }, `(${range})`));
    return h(
      "div",
      null,
      this.note ? h("p", { class: "note", role: "status", "data-testid": "deck-note" }, this.note) : null,
      this.problems.length ? h("ul", { class: "errors", "data-testid": "import-problems" }, this.problems.map((p) => h("li", null, p))) : null,
      h("p", { class: "counts" }, count("main", "Main Deck", sizes.main), count("extra", f.extraName, sizes.extra), count("side", "Side Deck", sizes.side)),
      problems.length
        ? h("ul", { class: "errors", "data-testid": "deck-problems" }, problems.slice(0, 12).map((p) => h("li", null, p)), problems.length > 12 ? h("li", null, `and ${problems.length - 12} more problem(s)`) : null)
        : h("p", { class: "legal", "data-testid": "deck-legal" }, `Legal in ${f.title}.`),
      h(
        "div",
        { class: "buttons" },
        h("button", { type: "button", class: "act primary", "data-key": "deck-play", disabled: problems.length > 0, title: problems.length ? "the deck must be legal in its format first" : `play this deck in a ${f.title} match`, onclick: () => this.play() }, "Play this deck"),
      ),
    );
  }

  private partList(part: Part, f: DeckFormat): HTMLElement {
    const cat = this.app.cat;
    const counts = new Map<number, number>();
    for (const c of this.deck[part]) counts.set(c, (counts.get(c) ?? 0) + 1);
    const known = (code: number): CardInfo => cat.get(code) ?? { code, name: `unknown card ${code}`, kind: "", prop: "", monster_kinds: [], attribute: "", type: "", level: 0, atk: 0, def: 0, text: "", supported: false };
    const rows = [...counts.entries()]
      .map(([code, n]) => [known(code), n] as const)
      .sort(([a], [b]) => (ORDER[a.kind] ?? 3) - (ORDER[b.kind] ?? 3) || a.name.localeCompare(b.name));
    const title = { main: "Main Deck", extra: f.extraName, side: "Side Deck" }[part];
    return h(
      "div",
      { class: "part", "data-part": part },
      h("h2", null, `${title} (${this.deck[part].length})`),
      rows.length === 0
        ? h("p", { class: "muted" }, part === "side" ? "No Side Deck." : "Empty: add cards from the list.")
        : h(
            "ul",
            { class: "deckcards" },
            rows.map(([c, n]) => {
              const to: Part = part !== "side" ? "side" : isExtraDeck(c) ? "extra" : "main";
              const tile = cardTile(c, f, `deck-${part}-${c.code}`, () => this.show(c.code), n);
              tile.addEventListener("mouseenter", () => this.show(c.code));
              return h(
                "li",
                { "data-code": c.code, "data-part": part, "data-count": n, title: kindWords(c) },
                tile,
                h(
                  "span",
                  { class: "adds" },
                  h("button", { type: "button", class: "act small", "data-remove": part, "data-key": `rm-${part}-${c.code}`, "aria-label": `remove one ${c.name}`, onclick: () => this.remove(c.code, part) }, "−"),
                  h("button", { type: "button", class: "act small", "data-add": part, "data-key": `more-${part}-${c.code}`, "aria-label": `add one ${c.name}`, disabled: copiesIn(this.deck, c.code, f) >= f.limit(c.code), onclick: () => this.add(c.code, part) }, "+"),
                  h("button", { type: "button", class: "act small", "data-move": to, "data-key": `mv-${part}-${c.code}`, "aria-label": `move one ${c.name} to the ${to === "side" ? "Side Deck" : to === "extra" ? f.extraName : "Main Deck"}`, onclick: () => this.move(c.code, part, to) }, to === "side" ? "→ Side" : "→ Deck"),
                ),
              );
            }),
          ),
    );
  }

  private exports(): HTMLElement {
    const link = toYdke(this.deck);
    const input = h("input", { id: "deck-ydke", "data-testid": "ydke-link", readonly: true, value: link, onfocus: (e: Event) => (e.target as HTMLInputElement).select() });
    return h(
      "div",
      null,
      h("button", { type: "button", class: "act small", "data-key": "deck-download", onclick: () => this.download() }, "Download .ydk"),
      h("label", { for: "deck-ydke" }, "ydke:// link"),
      input,
      h(
        "button",
        {
          type: "button",
          class: "act small",
          "data-key": "deck-copy",
          onclick: () => {
            input.select();
            void navigator.clipboard?.writeText(link).catch(() => undefined);
          },
        },
        "Copy the link",
      ),
    );
  }

  private savedList(): HTMLElement {
    const decks = loadDecks();
    // logged in: the decks are kept with the account too (decksync.ts)
    const synced = this.app.account.name !== null ? h("p", { class: "muted small", "data-testid": "deck-sync" }, this.app.decks.status ?? `Kept with your account (${this.app.account.name}) too.`) : null;
    if (decks.length === 0) return h("div", null, synced, h("p", { class: "muted" }, "None yet: a deck is kept here as soon as it has a card or a name."));
    return h("div", null, synced, this.savedRows(decks));
  }

  private savedRows(decks: SavedDeck[]): HTMLElement {
    return h(
      "ul",
      { class: "matches", "data-testid": "saved-decks" },
      decks.map((d) =>
        h(
          "li",
          { "data-deck": d.id, class: d.id === this.deck.id ? "current" : "" },
          h("div", { class: "what" }, h("span", { class: "mname" }, d.name || "Untitled deck"), h("span", { class: "muted details" }, `${formatNamed(this.app.cat, d.format).title} · ${d.main.length} + ${d.extra.length} + ${d.side.length}`)),
          h("div", { class: "row-acts" }, d.id === this.deck.id ? h("span", { class: "muted" }, "open") : h("button", { type: "button", class: "act small", "data-key": `open-${d.id}`, "data-open": d.id, onclick: () => this.open(d) }, "Open")),
        ),
      ),
    );
  }
}
