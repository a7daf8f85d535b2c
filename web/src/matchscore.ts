// A match of several duels (PROTOCOL.md section 5b): what `match_state` says, and the score line
// shown above the board (the match's format, the duel being played, the score, and, for a seat
// in a duel, "Concede this duel").

import { h } from "./dom";

/** The `match_state` message. */
export interface MatchInfo {
  match_id: string;
  best_of: number;
  duel: number;
  duel_id: string;
  phase: "dueling" | "siding" | "finished";
  score: number[];
  duels: DuelRow[];
  result: { winner: number | "draw"; reason: string } | null;
  chooser: number | null;
  first: number | null;
  deadline_ms: number | null;
  ready: boolean[];
  counts: number[][];
  deck: number[] | null;
  side: number[] | null;
  clock_scope: string;
  side_ms: number;
}

export interface DuelRow {
  duel: number;
  duel_id: string;
  first: number;
  chooser: number | null;
  winner: number | "draw";
  reason: string;
  conceded?: string;
  deck_hashes?: string[];
}

/** The duel whose updates the page gets now (its seqs are the ones to resume from). */
export function watchedDuel(ms: MatchInfo): number {
  return ms.phase === "dueling" ? ms.duel : (ms.duels[ms.duels.length - 1]?.duel ?? ms.duel);
}

const REASONS: Record<string, string> = {
  score: "on duels won",
  concede: "a player conceded the match",
  drop: "a player left",
  time: "a clock ran out",
};

export function resultWords(ms: MatchInfo, nameOf: (seat: number) => string): string {
  const r = ms.result;
  if (r === null) return "";
  const who = r.winner === "draw" ? "The match is a draw" : `${nameOf(r.winner)} wins the match`;
  return `${who} ${ms.score[0] ?? 0}–${ms.score[1] ?? 0} (${REASONS[r.reason] ?? r.reason})`;
}

/** The line above the board: "Best of 3 · Duel 2 · Ann 1 – 0 Bob", and the duel's concession. */
export function renderScore(ms: MatchInfo, nameOf: (seat: number) => string, seat: number | null, concedeDuel: (() => void) | null): HTMLElement {
  const duelWords = ms.phase === "finished" ? "Match over" : ms.phase === "siding" ? `Between duels ${ms.duel - 1} and ${ms.duel}` : `Duel ${ms.duel}`;
  return h(
    "div",
    { class: "match-score", "data-testid": "match-score", "data-score": `${ms.score[0] ?? 0}-${ms.score[1] ?? 0}`, "data-duel": ms.duel, "data-phase": ms.phase },
    h("span", { class: "muted" }, `Best of ${ms.best_of} · ${duelWords} · `),
    h("strong", null, `${nameOf(0)} ${ms.score[0] ?? 0} – ${ms.score[1] ?? 0} ${nameOf(1)}`),
    ms.phase === "finished" ? h("span", { class: "match-result", "data-testid": "match-result" }, ` · ${resultWords(ms, nameOf)}`) : null,
    seat !== null && ms.phase === "dueling" && concedeDuel !== null
      ? h("button", { type: "button", class: "act small", "data-testid": "concede-duel", onclick: concedeDuel }, "Concede this duel")
      : null,
  );
}

/** The finished duels of a match, each with its replay (once the match is over). */
export function renderDuels(ms: MatchInfo, nameOf: (seat: number) => string): HTMLElement {
  return h(
    "ol",
    { class: "match-duels", "data-testid": "match-duels" },
    ms.duels.map((d) =>
      h(
        "li",
        null,
        `Duel ${d.duel}: ${d.winner === "draw" ? "a draw" : `${nameOf(d.winner)} won`} (${nameOf(d.first)} went first${d.chooser === null ? ", by the coin toss" : ""}) `,
        ms.phase === "finished" ? h("a", { href: `#/replay/${d.duel_id}`, "data-testid": `replay-duel-${d.duel}` }, "replay") : null,
      ),
    ),
  );
}
