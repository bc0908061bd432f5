import { isObject, type At, type ProbeCall } from "../listing.js";
import { quote } from "../text.js";
import { callsFor, firstText, rejected } from "./probe-results.js";
import { defineMcpRule } from "./types.js";
import { plural } from "../../core/wording.js";

export default defineMcpRule({
  id: "mcp-pagination-contract",
  domain: "mcp",
  input: "probe",
  description:
    "A list call's result keeps the arithmetic: count = items returned, has_more = total > offset + count, next_offset = offset + count or null at the end; limit over 100 is rejected (probe).",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    limitAccepted: "tool {{tool}} accepted limit {{limit}}, over the maximum of 100",
    arithmetic: "tool {{tool}}: {{problem}}",
  },
  check({ listing, report }) {
    for (const call of callsFor(listing.probeCalls, "limit-over-max")) {
      if (rejected(call.value)) continue;
      report({
        path: [...call.path, "arguments", "limit"],
        messageId: "limitAccepted",
        data: { tool: quote(call.value.tool), limit: String(JSON.stringify(call.value.arguments.limit)) },
        hint: "bound limit to 1..100 in the input schema (zod .int().min(1).max(100), Pydantic ge=1, le=100)",
      });
    }
    for (const call of callsFor(listing.probeCalls, "pagination")) {
      if (rejected(call.value)) continue;
      const page = pageOf(call);
      if (!page) continue;
      for (const problem of arithmetic(page.value, call.value.arguments)) {
        report({
          path: page.path,
          messageId: "arithmetic",
          data: { tool: quote(call.value.tool), problem },
          hint: "count = items returned; has_more = total > offset + count; next_offset = offset + count, or null when nothing follows",
        });
      }
    }
  },
});

/** The list response: structuredContent, else the first text block parsed as JSON. */
function pageOf(call: At<ProbeCall>): { value: Record<string, unknown>; path: Array<string | number> } | undefined {
  const result = call.value.result;
  if (!isObject(result)) return undefined;
  if (isObject(result.structuredContent)) return { value: result.structuredContent, path: [...call.path, "result", "structuredContent"] };
  const text = firstText(result);
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text.text);
    return isObject(parsed) ? { value: parsed, path: [...call.path, "result", "content", text.index, "text"] } : undefined;
  } catch {
    return undefined;
  }
}

function arithmetic(page: Record<string, unknown>, args: Record<string, unknown>): string[] {
  const { total, count, offset, has_more: hasMore } = page;
  if (typeof total !== "number" || typeof count !== "number" || typeof offset !== "number" || typeof hasMore !== "boolean") {
    return [`the list result lacks total, count, offset or has_more as numbers and a boolean (got keys ${Object.keys(page).slice(0, 8).join(", ") || "none"})`];
  }
  const problems: string[] = [];
  const items = Object.entries(page).find(([key, value]) => Array.isArray(value) && !["total", "count", "offset"].includes(key));
  if (items && (items[1] as unknown[]).length !== count)
    problems.push(`count is ${count} but "${items[0]}" holds ${plural((items[1] as unknown[]).length, "item")}`);
  if (typeof args.offset === "number" && offset !== args.offset) problems.push(`offset is ${offset} but the call asked for offset ${args.offset}`);
  if (typeof args.limit === "number" && count > args.limit) problems.push(`count is ${count}, more than the limit ${args.limit} asked for`);
  const more = total > offset + count;
  if (hasMore !== more) problems.push(`has_more is ${hasMore} but total ${total} ${more ? ">" : "<="} offset ${offset} + count ${count}`);
  const next = page.next_offset;
  if (more && next !== offset + count) problems.push(`next_offset is ${JSON.stringify(next) ?? "missing"}, not offset + count = ${offset + count}`);
  // The TypeScript guide omits next_offset at the end and the Python one writes null: both are accepted.
  if (!more && next !== null && next !== undefined) problems.push(`next_offset is ${JSON.stringify(next)} at the end of the list, not null`);
  return problems;
}
