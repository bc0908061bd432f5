import type { JsonPath } from "../core/location.js";
import type { SourceDocument } from "../core/source/document.js";

/** Most tools of one listing that are linted (a live listing stops there; a file's are cut there, with a finding). */
export const MAX_TOOLS = 100_000;

/** Marks a file written by `caplint mcp dump`; the number changes only when the shape does. */
export const DUMP_FORMAT = "caplint-mcp-dump/1";

export type TransportName = "stdio" | "streamable-http" | "sse";

/** A value of the input with where it was written, so findings point at file:line:col. */
export interface At<T = unknown> {
  value: T;
  path: JsonPath;
}

export interface ToolEntry extends At {
  /** The tool's name when it is a string (the schema rule reports the others). */
  name: string | undefined;
}

/** One recorded `tools/call` of a probe run (see probe.ts for how calls are chosen). */
export interface ProbeCall {
  tool: string;
  purpose: ProbePurpose;
  arguments: Record<string, unknown>;
  /** The raw result, or the JSON-RPC error the call was answered with. */
  result?: unknown;
  error?: { code?: number; message: string };
}

export type ProbePurpose = "baseline" | "unknown-field" | "pagination" | "limit-over-max";

/**
 * What one input says about one tool server: the `initialize` result, every `tools/list` page and,
 * for live runs and their dumps, how the server was reached, what it wrote on stdout besides the
 * protocol, and the probe calls. Every part keeps its JSON path in the document.
 */
export interface Listing {
  document: SourceDocument;
  initialize?: At;
  serverInfo?: At;
  pages: At[];
  tools: ToolEntry[];
  transport?: At<TransportName>;
  stdoutNoise?: At<unknown[]>;
  probeCalls: Array<At<ProbeCall>>;
  /** Why the file is not a listing at all (reported by mcp-schema), or undefined. */
  shapeProblem?: string;
  /** Parts of a `caplint mcp dump` file that are not as the dump writes them (parse findings; the part is left out). */
  dumpProblems: Array<{ path: JsonPath; message: string }>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads the listing out of a parsed document. Accepted shapes: a `tools/list` result
 * (`{"tools": [...]}`, optionally with `serverInfo`), an array of pages, a JSON-RPC response or an
 * array of JSON-RPC responses (a recorded session), or a `caplint mcp dump` file (`pages` +
 * `initialize`).
 */
export function readListing(document: SourceDocument): Listing {
  const listing: Listing = { document, pages: [], tools: [], probeCalls: [], dumpProblems: [] };
  const root = document.value;
  const addPage = (value: unknown, path: JsonPath) => listing.pages.push({ value, path });
  const addInitialize = (value: unknown, path: JsonPath) => {
    listing.initialize = { value, path };
    if (isObject(value) && "serverInfo" in value)
      listing.serverInfo = { value: value.serverInfo, path: [...path, "serverInfo"] };
  };
  /** A JSON-RPC response or a bare result; true when it was one of ours. */
  const addMessage = (value: unknown, path: JsonPath): boolean => {
    if (!isObject(value)) return false;
    if (isObject(value.result) && (value.jsonrpc !== undefined || value.id !== undefined))
      return addMessage(value.result, [...path, "result"]);
    if ("tools" in value) {
      addPage(value, path);
      return true;
    }
    if ("serverInfo" in value && "protocolVersion" in value) {
      addInitialize(value, path);
      return true;
    }
    return false;
  };

  if (Array.isArray(root)) {
    root.forEach((item, index) => addMessage(item, [index]));
    if (listing.pages.length === 0)
      listing.shapeProblem =
        'no item of this array is a tools/list result (an object with "tools")';
  } else if (isObject(root) && Array.isArray(root.pages)) {
    root.pages.forEach((page, index) => addPage(page, ["pages", index]));
    if (root.initialize !== undefined) addInitialize(root.initialize, ["initialize"]);
    if (listing.serverInfo === undefined && root.serverInfo !== undefined)
      listing.serverInfo = { value: root.serverInfo, path: ["serverInfo"] };
    if (
      typeof root.transport === "string" &&
      ["stdio", "streamable-http", "sse"].includes(root.transport)
    ) {
      listing.transport = { value: root.transport as TransportName, path: ["transport"] };
    }
    if (Array.isArray(root.stdoutNoise))
      listing.stdoutNoise = { value: root.stdoutNoise, path: ["stdoutNoise"] };
    if (isObject(root.probe) && Array.isArray(root.probe.calls)) {
      root.probe.calls.forEach((call, index) => {
        const path: JsonPath = ["probe", "calls", index];
        const problem = probeCallProblem(call);
        if (problem)
          listing.dumpProblems.push({
            path: problem.key === undefined ? path : [...path, problem.key],
            message: `probe call ${index + 1}: ${problem.message}`,
          });
        else listing.probeCalls.push({ value: call as ProbeCall, path });
      });
    }
  } else if (isObject(root) && !addMessage(root, [])) {
    listing.shapeProblem =
      'this is not a tools/list result: expected an object with "tools", an array of pages, or a caplint mcp dump';
  } else if (isObject(root) && root.serverInfo !== undefined && listing.serverInfo === undefined) {
    listing.serverInfo = { value: root.serverInfo, path: ["serverInfo"] };
  } else if (!isObject(root)) {
    listing.shapeProblem =
      'this is not a tools/list result: expected an object with "tools", an array of pages, or a caplint mcp dump';
  }

  for (const page of listing.pages) {
    if (!isObject(page.value) || !Array.isArray(page.value.tools)) continue;
    page.value.tools.forEach((tool, index) => {
      const name = isObject(tool) && typeof tool.name === "string" ? tool.name : undefined;
      listing.tools.push({ value: tool, path: [...page.path, "tools", index], name });
    });
  }
  return listing;
}

const PROBE_PURPOSES: readonly ProbePurpose[] = [
  "baseline",
  "unknown-field",
  "pagination",
  "limit-over-max",
];

/** What is wrong with a recorded probe call, as `caplint mcp dump --probe` writes them; undefined when nothing is. */
function probeCallProblem(call: unknown): { key?: string; message: string } | undefined {
  const wrote = "a caplint mcp dump writes";
  if (!isObject(call))
    return {
      message: `expected an object with "tool", "purpose" and "arguments", as ${wrote} each call`,
    };
  if (typeof call.tool !== "string")
    return {
      key: "tool",
      message: `"tool" must be the name of the tool called (a string), as ${wrote} it`,
    };
  if (
    typeof call.purpose !== "string" ||
    !(PROBE_PURPOSES as readonly string[]).includes(call.purpose)
  )
    return {
      key: "purpose",
      message: `"purpose" must be one of ${PROBE_PURPOSES.map((p) => `"${p}"`).join(", ")}`,
    };
  if (!isObject(call.arguments))
    return {
      key: "arguments",
      message: `"arguments" must be the object of arguments sent to the tool, as ${wrote} it`,
    };
  if (call.error !== undefined && !(isObject(call.error) && typeof call.error.message === "string"))
    return {
      key: "error",
      message: `"error" must be a JSON-RPC error (an object with a "message" string), as ${wrote} it`,
    };
  return undefined;
}

/** The `serverInfo.name` when it is a string. */
export function serverName(listing: Listing): string | undefined {
  const info = listing.serverInfo?.value;
  return isObject(info) && typeof info.name === "string" ? info.name : undefined;
}

export { isObject };
