import { isObject, type At, type ProbeCall } from "../listing.js";
import { quote } from "../text.js";
import { callsFor, firstText, rejected } from "./probe-results.js";
import { defineMcpRule } from "./types.js";
import { plural } from "../../core/wording.js";
import { shownValue } from "../../core/messages.js";

export default defineMcpRule({
  id: "mcp-pagination-contract",
  input: "probe",
  description:
    "A list call's result keeps the arithmetic: count = items returned, has_more = total > offset + count, next_offset = offset + count or null at the end; limit over 100 is rejected (probe). Arithmetic that makes a client paging by it skip items is an error.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    limitAccepted: "tool {{tool}} accepted limit {{limit}}, over the maximum of 100",
    arithmetic: "tool {{tool}}: {{problem}}",
  },
  check({ listing, report, shown }) {
    for (const call of callsFor(listing.probeCalls, "limit-over-max")) {
      if (rejected(call.value)) continue;
      report({
        path: [...call.path, "arguments", "limit"],
        messageId: "limitAccepted",
        data: {
          tool: quote(call.value.tool),
          limit: shown([...call.path, "arguments", "limit"], call.value.arguments.limit),
        },
        hint: "bound limit to 1..100 in the input schema (zod .int().min(1).max(100), Pydantic ge=1, le=100)",
      });
    }
    for (const call of callsFor(listing.probeCalls, "pagination")) {
      if (rejected(call.value)) continue;
      const page = pageOf(call);
      if (!page) continue;
      for (const { problem, skipsItems } of arithmetic(page.value, call.value.arguments)) {
        report({
          path: page.path,
          messageId: "arithmetic",
          data: { tool: quote(call.value.tool), problem },
          hint: "count = items returned; has_more = total > offset + count; next_offset = offset + count, or null when nothing follows",
          escalate: skipsItems,
        });
      }
    }
  },
});

/** The list response: structuredContent, else the first text block parsed as JSON. */
function pageOf(
  call: At<ProbeCall>,
): { value: Record<string, unknown>; path: Array<string | number> } | undefined {
  const result = call.value.result;
  if (!isObject(result)) return undefined;
  if (isObject(result.structuredContent))
    return { value: result.structuredContent, path: [...call.path, "result", "structuredContent"] };
  const text = firstText(result);
  if (!text) return undefined;
  try {
    const parsed: unknown = JSON.parse(text.text);
    return isObject(parsed)
      ? { value: parsed, path: [...call.path, "result", "content", text.index, "text"] }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What is wrong with a page's numbers. `skipsItems`: a client that pages by has_more and next_offset,
 * as the conventions tell it to, would stop early or jump over items (data lost, so an error).
 */
function arithmetic(
  page: Record<string, unknown>,
  args: Record<string, unknown>,
): Array<{ problem: string; skipsItems: boolean }> {
  const { total, count, offset, has_more: hasMore } = page;
  if (
    typeof total !== "number" ||
    typeof count !== "number" ||
    typeof offset !== "number" ||
    typeof hasMore !== "boolean"
  ) {
    return [
      {
        problem: `the list result lacks total, count, offset or has_more as numbers and a boolean (got keys ${Object.keys(page).slice(0, 8).join(", ") || "none"})`,
        skipsItems: false,
      },
    ];
  }
  const problems: Array<{ problem: string; skipsItems: boolean }> = [];
  const add = (problem: string, skipsItems = false) => problems.push({ problem, skipsItems });
  const items = Object.entries(page).find(
    ([key, value]) => Array.isArray(value) && !["total", "count", "offset"].includes(key),
  );
  const held = items ? (items[1] as unknown[]).length : undefined;
  if (items && held !== count)
    add(`count is ${count} but "${items[0]}" holds ${plural(held!, "item")}`, count > held!);
  if (typeof args.offset === "number" && offset !== args.offset)
    add(`offset is ${offset} but the call asked for offset ${args.offset}`, offset > args.offset);
  if (typeof args.limit === "number" && count > args.limit)
    add(`count is ${count}, more than the limit ${args.limit} asked for`);
  const more = total > offset + count;
  if (hasMore !== more)
    add(
      `has_more is ${hasMore} but total ${total} ${more ? ">" : "<="} offset ${offset} + count ${count}`,
      more,
    );
  const next = page.next_offset;
  if (more && next !== offset + count)
    add(
      `next_offset is ${next === undefined ? "missing" : shownValue(next)}, not offset + count = ${offset + count}`,
      typeof next !== "number" || next > offset + count,
    );
  // The TypeScript guide omits next_offset at the end and the Python one writes null: both are accepted.
  if (!more && next !== null && next !== undefined)
    add(`next_offset is ${shownValue(next)} at the end of the list, not null`);
  return problems;
}
