import { unifiedDiff } from "../../core/fix/unified-diff.js";
import { NO_PAINT, textLines, type Paint } from "../../core/terminal-text.js";
import { plural } from "../../core/wording.js";
import { TARGETS } from "../model/types.js";
import type { SourceLines } from "../queries/project-model.js";
import type { CallJudgement } from "../queries/frontend-access.js";
import type {
  LeastPrivilegePlan,
  ProposedChange,
  WindowGrant,
} from "../queries/least-privilege.js";
import { callText } from "../rules/support/frontend.js";
import type { FrontendCall } from "../frontend/scan.js";

/** What `caplint least-privilege` answers, ready to print. */
export interface LeastPrivilegeAnswer {
  plan: LeastPrivilegePlan;
  lines: SourceLines;
  /** The files written (`--fix`), or undefined when the change was only shown. */
  written?: string[];
  /** Files the change touches that were not written, and why (a symbolic link). */
  notWritten: Array<{ file: string; reason: string }>;
}

/** The proposed change as one unified diff per file, in file order. */
export function planDiffs(plan: LeastPrivilegePlan): Array<{ file: string; diff: string }> {
  return [...plan.files.values()]
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0))
    .map((change) => ({
      file: change.file,
      diff: unifiedDiff(change.file, change.original, change.fixed),
    }));
}

const where = (call: FrontendCall) => `${call.displayFile}:${call.line}:${call.column}`;

function refusedOn(judgement: CallJudgement, window: string): string[] {
  const platforms = new Set(
    judgement.refusals
      .filter((refusal) => refusal.window === window || refusal.window === "*")
      .flatMap((refusal) => refusal.platforms),
  );
  return TARGETS.filter((target) => platforms.has(target));
}

function grantLine(grant: WindowGrant, lines: SourceLines): string {
  return `${grant.capability.source.file}:${lines.line(grant.capability.source.file, grant.entry.path)}`;
}

function changeText(change: ProposedChange): string {
  switch (change.kind) {
    case "remove":
      return `remove "${change.identifier}" from capability "${change.capability.identifier}" (${change.reason ?? "no call uses it"})`;
    case "narrow":
      return `replace "${change.identifier}" in capability "${change.capability.identifier}" with the members the calls use: ${change.replacement!.map((id) => `"${id}"`).join(", ")}`;
    case "add":
      return `add "${change.identifier}" to capability "${change.capability.identifier}" (refused without it: ${change.calls!.map(where).join(", ")})`;
  }
}

/** With colour: refusals red, unused grants yellow, the diff as `check --fix-dry-run` prints it. */
export function renderLeastPrivilegeText(
  { plan, lines, written, notWritten }: LeastPrivilegeAnswer,
  paint: Paint = NO_PAINT,
): string {
  const { access } = plan;
  const out = [
    paint.bold(
      `least privilege: ${plural(access.scan.files.length, "frontend file")}, ${plural(access.scan.calls.length, "call")}, ${plural(access.localWindows.length, "window")} loading local pages`,
    ),
  ];
  for (const window of plan.windows) {
    out.push(
      "",
      paint.bold(window.window === "*" ? "every window" : `window "${window.window}"`) +
        paint.dim(
          ` (capabilities: ${window.capabilities.map((c) => `"${c.identifier}"`).join(", ") || "none"})`,
        ),
    );
    out.push("  calls");
    if (window.calls.length === 0) out.push(paint.dim("    none"));
    for (const judgement of window.calls) {
      const refused = refusedOn(judgement, window.window);
      const verdict = refused.length
        ? paint.error(
            `REFUSED${refused.length < access.platforms.length ? ` on ${refused.join(", ")}` : ""}`,
          )
        : paint.ok("allowed");
      out.push(
        `    ${where(judgement.call)}  ${callText(judgement.call)} → ${judgement.command} → ${judgement.permission ?? paint.dim("no known permission")}  ${verdict}`,
      );
    }
    const used = window.grants.filter((grant) => grant.used.length > 0);
    const unused = window.grants.filter((grant) => grant.used.length === 0);
    out.push("  grants used");
    if (used.length === 0) out.push(paint.dim("    none"));
    for (const grant of used)
      out.push(
        `    ${grant.entry.identifier}  ${paint.dim(`${grantLine(grant, lines)}, ${grant.used.length} of ${plural(grant.granted.length, "command")}: ${grant.used.join(", ")}`)}`,
      );
    out.push("  grants unused");
    if (unused.length === 0) out.push(paint.dim("    none"));
    for (const grant of unused)
      out.push(
        `    ${paint.warning(grant.entry.identifier)}  ${paint.dim(`${grantLine(grant, lines)}, ${plural(grant.granted.length, "command")}`)}`,
      );
  }
  if (access.scan.unresolved.length) {
    out.push("", "unresolved calls (the command is known only at run time)");
    for (const call of access.scan.unresolved)
      out.push(
        `  ${where(call)}  ${callText(call)}${call.unresolved ? paint.dim(`: ${call.unresolved}`) : ""}`,
      );
  }
  if (access.scan.thirdPartyPlugins.length)
    out.push("", `third-party plugins not analysed: ${access.scan.thirdPartyPlugins.join(", ")}`);
  for (const note of plan.untouched) out.push("", paint.dim(note));
  out.push("");
  const diffs = planDiffs(plan);
  if (plan.changes.length === 0 && plan.byHand.length === 0)
    out.push(paint.ok("nothing to change: the capabilities grant what the frontend uses"));
  else {
    if (plan.changes.length) {
      out.push(
        written
          ? `changed (${plural(written.length, "file")} written):`
          : "proposed change (caplint least-privilege --fix writes it):",
      );
      for (const change of plan.changes) out.push(`  ${changeText(change)}`);
    }
    for (const { file, reason } of notWritten)
      out.push(paint.warning(`  not written: ${file} ${reason}`));
    if (plan.byHand.length) {
      out.push("to do by hand (a scope only you know, or a layout caplint does not rewrite):");
      for (const item of plan.byHand)
        out.push(`  ${item.call ? `${where(item.call)}: ` : ""}${item.text}`);
    }
  }
  out.push(`confidence: ${plan.confidence}`);
  const text = textLines(out);
  return written ? text : text + diffs.map((d) => d.diff).join("");
}

export function renderLeastPrivilegeJson({
  plan,
  lines,
  written,
  notWritten,
}: LeastPrivilegeAnswer): string {
  const { access } = plan;
  const call = (judgement: CallJudgement, window: string) => ({
    file: judgement.call.displayFile,
    line: judgement.call.line,
    column: judgement.call.column,
    call: callText(judgement.call),
    command: judgement.command,
    permission: judgement.permission ?? null,
    refusedOn: refusedOn(judgement, window),
  });
  const grant = (g: WindowGrant) => ({
    capability: g.capability.identifier,
    file: g.capability.source.file,
    line: lines.line(g.capability.source.file, g.entry.path),
    permission: g.entry.identifier,
    used: g.used,
    granted: g.granted.length,
  });
  const change = (c: ProposedChange) => ({
    kind: c.kind,
    capability: c.capability.identifier,
    file: c.capability.source.file,
    permission: c.identifier,
    ...(c.replacement && c.kind === "narrow" ? { replacement: c.replacement } : {}),
    ...(c.kind === "remove" ? { reason: c.reason ?? "no call uses it" } : {}),
    ...(c.calls
      ? { calls: c.calls.map((call) => `${call.displayFile}:${call.line}:${call.column}`) }
      : {}),
  });
  return (
    JSON.stringify(
      {
        windows: plan.windows.map((window) => ({
          window: window.window,
          capabilities: window.capabilities.map((c) => c.identifier),
          calls: window.calls.map((judgement) => call(judgement, window.window)),
          grantsUsed: window.grants.filter((g) => g.used.length > 0).map(grant),
          grantsUnused: window.grants.filter((g) => g.used.length === 0).map(grant),
        })),
        unresolved: access.scan.unresolved.map((u) => ({
          file: u.displayFile,
          line: u.line,
          column: u.column,
          call: callText(u),
          reason: u.unresolved ?? null,
        })),
        thirdPartyPlugins: access.scan.thirdPartyPlugins,
        changes: plan.changes.map(change),
        byHand: plan.byHand.map((item) => ({
          text: item.text,
          ...(item.call
            ? { at: `${item.call.displayFile}:${item.call.line}:${item.call.column}` }
            : {}),
        })),
        untouched: plan.untouched,
        diffs: planDiffs(plan),
        written: written ?? [],
        notWritten,
        confidence: plan.confidence,
      },
      null,
      2,
    ) + "\n"
  );
}
