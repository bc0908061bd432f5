import type { ResolvedModel, WhoCanResult } from "../engine/index.js";
import { contextLabel, provenanceJson, type SourceLines } from "../queries/project-model.js";
import { nearest, quoteList } from "../../core/did-you-mean.js";
import { textLines } from "../../core/terminal-text.js";

/** What `caplint who-can` answers, ready to print. */
export interface WhoCanAnswer {
  name: string;
  result: WhoCanResult;
  model: ResolvedModel;
  lines: SourceLines;
}

export function renderWhoCanJson({ name, result, model, lines }: WhoCanAnswer): string {
  return JSON.stringify(
    {
      command: name,
      platform: model.platform,
      deniedEverywhere: result.deniedEverywhere,
      allowedBy: result.allowedBy.map((e) => provenanceJson(e, lines)),
      deniedBy: result.deniedBy.map((e) => provenanceJson(e, lines)),
    },
    null,
    2,
  ) + "\n";
}

export function renderWhoCanText({ name, result, model, lines }: WhoCanAnswer): string {
  const out = [`${name} on ${model.platform}`];
  if (result.allowedBy.length === 0 && result.deniedBy.length === 0) {
    const close = nearest(name, [...model.allowed.keys(), ...model.denied.keys()], 3);
    out.push(`  no active capability grants or denies it${close.length ? `; did you mean ${quoteList(close)}?` : ""}`);
  }
  for (const entry of result.allowedBy) {
    const targets = [entry.windows.length ? `windows: ${entry.windows.join(", ")}` : "", entry.webviews.length ? `webviews: ${entry.webviews.join(", ")}` : ""].filter(Boolean).join("; ");
    out.push(`  allowed for [${targets || "nothing: no windows or webviews"}] from ${contextLabel(entry)}`);
    out.push(`    by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})`);
  }
  for (const entry of result.deniedBy) {
    out.push(`  DENIED everywhere by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})`);
  }
  if (result.deniedEverywhere && result.allowedBy.length) out.push("  a deny in any active capability wins over every allow, for every window and origin");
  return textLines(out);
}
