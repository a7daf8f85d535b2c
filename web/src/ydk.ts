// Deck lists as players write them: `.ydk` files and `ydke://` links, read and written with the
// ygopro-deck-encode codec (npm), checked first the way the server's engine/ydk.py checks them
// (docs/formats.md): the size before anything else (32 KiB, 300 lines, 1000 characters a line),
// then every line, each problem naming its line.
//
// A `.ydk` file: `#main`, `#extra` and `!side` start the Main, Extra (Fusion) and Side Deck;
// every other line starting with `#` or `!` is a comment (`#created by ...`); a card is its
// passcode on a line of its own; blank lines are ignored; cards before any header are Main Deck
// cards. A `ydke://` link: the three lists, each the base64 of its passcodes as little-endian
// 32-bit numbers, each ended by `!`.

import YGOProDeck from "ygopro-deck-encode";

export interface DeckList {
  main: number[];
  extra: number[];
  side: number[];
}

export const MAX_BYTES = 32 * 1024;
export const MAX_LINES = 300;
export const MAX_LINE = 1000;
const MAX_PASSCODE = 2 ** 32 - 1;
const YDKE = "ydke://";
const SECTIONS: Record<string, keyof DeckList> = { "#main": "main", "#extra": "extra", "!side": "side" };

/** The text is not a deck list; `problems` says why, one sentence each. */
export class DeckListError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("; "));
  }
}

function sizeProblem(text: string): string | null {
  const size = new TextEncoder().encode(text).length;
  return size > MAX_BYTES ? `the list has ${size} bytes; at most ${MAX_BYTES} are read` : null;
}

/** Does the text look like a `.ydk` file or a `ydke://` link (rather than a list of card names)? */
export function isDeckList(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith(YDKE) || /^\s*(#main|#extra|!side)\b/im.test(text);
}

/** The deck list a `.ydk` file's text writes; `DeckListError` names every bad line. */
export function parseYdk(text: string): DeckList {
  const tooBig = sizeProblem(text);
  if (tooBig !== null) throw new DeckListError([tooBig]);
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > MAX_LINES) throw new DeckListError([`the list has ${lines.length} lines; at most ${MAX_LINES} are read`]);
  const long = lines.flatMap((line, i) => (line.length > MAX_LINE ? [`line ${i + 1}: longer than ${MAX_LINE} characters`] : []));
  if (long.length) throw new DeckListError(long.slice(0, 5));
  // the codec reads exact headers and passcodes and skips anything else: hand it the lines it
  // reads, once every other line is known to be a comment
  const plain: string[] = [];
  const problems: string[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim().replace(/^\ufeff/, "");
    if (line === "") return;
    const section = SECTIONS[(line.split(/\s+/)[0] ?? "").toLowerCase()];
    if (section !== undefined) {
      plain.push(section === "side" ? "!side" : `#${section}`);
      return;
    }
    if (line.startsWith("#") || line.startsWith("!")) return; // a comment
    if (!/^[0-9]+$/.test(line)) {
      problems.push(`line ${i + 1}: '${line.slice(0, 40)}' is not a passcode (a card is its passcode on a line)`);
      return;
    }
    const code = Number(line);
    if (!(code > 0 && code <= MAX_PASSCODE)) {
      problems.push(`line ${i + 1}: ${line.slice(0, 40)} is not a passcode`);
      return;
    }
    plain.push(String(code));
  });
  if (problems.length) throw new DeckListError(problems);
  return lists(YGOProDeck.fromYdkString(plain.join("\n")));
}

/** The deck list a `ydke://` link writes; `DeckListError` says why not. */
export function parseYdke(text: string): DeckList {
  const t = text.trim();
  const tooBig = sizeProblem(t);
  if (tooBig !== null) throw new DeckListError([tooBig]);
  if (!t.startsWith(YDKE)) throw new DeckListError([`a ydke address starts with ${YDKE}`]);
  const parts = t.slice(YDKE.length).split("!");
  if (parts.length !== 4 || parts[3] !== "") throw new DeckListError(["a ydke address is three lists (Main, Extra, Side), each ended by '!'"]);
  ["Main", "Extra", "Side"].forEach((name, i) => {
    const part = parts[i] ?? "";
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(part) || part.length % 4 !== 0) throw new DeckListError([`the ${name} Deck of the ydke address is not base64`]);
    const bytes = (part.length / 4) * 3 - (part.endsWith("==") ? 2 : part.endsWith("=") ? 1 : 0);
    if (bytes % 4 !== 0) throw new DeckListError([`the ${name} Deck of the ydke address is not a list of 4-byte passcodes`]);
  });
  const deck = lists(YGOProDeck.fromYdkeURL(t));
  (["main", "extra", "side"] as const).forEach((part, i) => {
    if (deck[part].includes(0)) throw new DeckListError([`the ${["Main", "Extra", "Side"][i]} Deck of the ydke address holds passcode 0`]);
  });
  return deck;
}

/** A `ydke://` link or a `.ydk` file's text. */
export function parseDeckList(text: string): DeckList {
  return text.trimStart().startsWith(YDKE) ? parseYdke(text) : parseYdk(text);
}

/** The list as a `.ydk` file (`comment`: its first lines, each made a `#` comment). */
export function toYdk(deck: DeckList, comment = "created by the duel server's deck editor"): string {
  const body = new YGOProDeck(deck).toYdkString().split("\n").slice(1); // the codec's own comment line
  const head = comment ? comment.split(/\r?\n/).map((line) => `#${line}`) : [];
  return [...head, ...body].join("\n") + "\n";
}

/** The list as a `ydke://` link. */
export function toYdke(deck: DeckList): string {
  return new YGOProDeck(deck).toYdkeURL();
}

function lists(d: YGOProDeck): DeckList {
  return { main: [...d.main], extra: [...d.extra], side: [...d.side] };
}
