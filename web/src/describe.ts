// Plain words for facts: a line-for-line port of engine/describe.py (the
// terminal client's narration), so the browser tells the same story.
// tests/browser/test_narration.py runs both over the same duel and compares.

import type { Fact } from "./proto";

export const SEAT = ["A", "B"];

export type NameOf = (code: unknown) => string | undefined;

function seat(v: unknown): string {
  return SEAT[Number(v)] ?? "?";
}

function str(v: unknown): string {
  return v === null || v === undefined ? "None" : String(v);
}

export function describe(fact: Fact, nameOf: NameOf): string | null {
  const name = (code: unknown): string => {
    const n = nameOf(code);
    return n === undefined ? "a card" : `"${n}"`;
  };
  const f = fact as Record<string, unknown>;
  const t = fact.t;
  if (t === "duel_started") return `Duel starts; ${seat(f["first"] ?? 0)} goes first, ${str(f["lp"] ?? 8000)} LP each`;
  if (t === "turn") return `=== Turn ${str(f["turn"])} (${seat(f["player"])}) ===`;
  if (t === "phase") {
    const step = f["step"] ? ` - ${str(f["step"])} step` : "";
    return `  [${str(f["phase"])}${step}]`;
  }
  if (t === "damage_step") return `    damage step: ${str(f["timing"]).replaceAll("_", " ")}`;
  if (t === "drew") return `  ${seat(f["seat"])} draws ${name(f["code"])}`;
  if (t === "summoned") {
    if (f["kind"] === "set") return `  ${seat(f["seat"])} Sets a monster`;
    return `  ${seat(f["seat"])} ${str(f["kind"] ?? "normal")} summons ${name(f["code"])}`;
  }
  if (t === "activated") return `  ${seat(f["seat"])} activates ${name(f["code"])} (chain link ${str(f["link"])})`;
  if (t === "attack_declared") {
    const target =
      f["target"] === null || f["target"] === undefined
        ? "directly"
        : f["target_code"]
          ? name(f["target_code"])
          : "a face-down monster";
    return `  ${seat(f["seat"])}'s ${name(f["code"])} attacks ${target}`;
  }
  if (t === "attack_retargeted") {
    return "  replay: the attack is redirected " + (f["target"] === null || f["target"] === undefined ? "directly" : `at ${name(f["target_code"])}`);
  }
  if (t === "attack_ended" && f["reason"] !== "damage_step_over" && f["reason"] !== "battle_phase_ended") {
    return `  the attack ends (${str(f["reason"])})`;
  }
  if (t === "battle") {
    const other = "target_atk" in f ? f["target_atk"] : f["target_def"];
    const vs = f["target"] === null || f["target"] === undefined ? "directly" : `vs ${str(other)}`;
    return `    damage calculation: ATK ${str(f["attacker_atk"])} ${vs}`;
  }
  if (t === "lp") {
    const d = Number(f["delta"] ?? 0);
    const reasons: Record<string, string> = { battle: "battle damage", cost: "paid", effect: "effect" };
    const what = reasons[String(f["reason"] ?? "")] ?? "";
    return `    ${seat(f["seat"])} LP ${d > 0 ? "+" : ""}${d} (${what}) -> ${str(f["lp"])}`;
  }
  if (t === "destroyed") return `    ${name(f["code"])} is destroyed (${str(f["reason"])})`;
  const to = f["to"];
  const reason = f["reason"];
  if (t === "moved" && (to === "graveyard" || to === "banished") && reason !== "battle" && reason !== "effect" && reason !== "self") {
    const how: Record<string, string> = { tribute: "is Tributed", discard: "is discarded", cost: "is sent as a cost", detach: "is detached" };
    let verb = how[String(reason)] ?? `goes to the ${str(to)}`;
    if (to === "banished" && String(reason) in how) verb += " (banished)";
    return `    ${name(f["code"])} ${verb}`;
  }
  if (t === "moved" && to === "banished") return `    ${name(f["code"])} is banished`;
  if (t === "moved" && to === "hand" && (f["from"] === "monsters" || f["from"] === "spells_traps" || f["from"] === "graveyard")) {
    return `    ${name(f["code"])} returns to the hand`;
  }
  if (t === "position_changed") return `  ${name(f["code"])} changes to ${str(f["position"])} position`;
  if (t === "flipped") return `    ${name(f["code"])} is flipped face-up`;
  if (t === "negated") return `    chain link ${str(f["link"])}: ${str(f["what"] ?? "activation")} negated`;
  if (t === "duel_ended") {
    const w = f["winner"];
    const who = w === "draw" ? "draw" : `${seat(w)} wins`;
    return `=== Duel over: ${who} (${str(f["reason"])}) ===`;
  }
  return null;
}
