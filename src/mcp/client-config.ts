import { createRequire } from "node:module";
import path from "node:path";
import type { Node, ParseError } from "jsonc-parser";
import { FatalError } from "../core/errors.js";
import type { JsonPath } from "../core/location.js";
import type { LiveTarget } from "./live.js";
import { escapeControls, quote } from "./text.js";

type JsoncParser = typeof import("jsonc-parser");

/**
 * The tool servers a client configuration declares, for `caplint mcp --servers FILE`: VS Code's
 * `.vscode/mcp.json` (`servers`, with `inputs`, JSONC), and the `mcpServers` of Claude Desktop's
 * `claude_desktop_config.json`, Cursor's `.cursor/mcp.json` and Claude Code's `.mcp.json`. Each
 * entry becomes a live target with its variables resolved, or the reason it cannot be run; every
 * entry keeps where it is written, so that its findings land on it.
 */
export interface ConfiguredServer {
  name: string;
  /** The entry's JSON path (`["servers", name]`) and the offset and length of its name in the file. */
  path: JsonPath;
  offset: number;
  length: number;
  /** How to reach it; undefined when `problem` says why it cannot be run. */
  target?: LiveTarget;
  problem?: ServerProblem;
  /** `"disabled": true` (Cline, Windsurf and others): not started, said in a note. */
  disabled?: boolean;
}

export type ServerProblem =
  | { messageId: "unresolvedInput"; data: { server: string; reference: string; what: string } }
  | { messageId: "unsetVariable"; data: { server: string; reference: string } }
  | { messageId: "invalidEntry"; data: { server: string; problem: string } };

export interface ConfigContext {
  /** caplint's environment: `${env:X}` and `${X}` read it. */
  env: Readonly<Record<string, string | undefined>>;
  /** `${userHome}`. */
  home: string;
}

/** The predefined variables VS Code and Cursor resolve in a server entry (the others are editor state caplint does not have). */
const FOLDER_VARIABLES = new Set([
  "workspaceFolder",
  "workspaceRoot",
  "workspaceFolderBasename",
  "userHome",
  "pathSeparator",
  "/",
]);

/** `invalidUtf8At`: where the file's bytes stopped being UTF-8, if they did (a name would hold U+FFFD instead). */
export function readClientConfig(
  absolutePath: string,
  file: string,
  text: string,
  context: ConfigContext,
  invalidUtf8At?: number,
): ConfiguredServer[] {
  if (invalidUtf8At !== undefined)
    throw new FatalError(
      `${file}:${position(text, invalidUtf8At)}: not a client configuration: the file is not valid UTF-8 (first bad byte here)`,
    );
  const jsonc = createRequire(import.meta.url)("jsonc-parser") as JsoncParser;
  const errors: ParseError[] = [];
  const root = jsonc.parseTree(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  });
  if (errors.length > 0 || root === undefined) {
    const first = errors[0];
    const where = first ? position(text, first.offset) : "1:1";
    throw new FatalError(
      `${file}:${where}: not a client configuration: ${first ? words(jsonc.printParseErrorCode(first.error)) : "the file is empty"}`,
    );
  }
  if (root.type !== "object")
    throw new FatalError(
      `${file}:1:1: not a client configuration: expected an object with "servers" or "mcpServers"`,
    );
  const key = ["servers", "mcpServers"].find(
    (name) => jsonc.findNodeAtLocation(root, [name])?.type === "object",
  );
  if (key === undefined) {
    throw new FatalError(
      `${file}: declares no servers: expected "servers" (VS Code .vscode/mcp.json) or "mcpServers" (Claude Desktop, Cursor, .mcp.json) holding an object`,
    );
  }
  const inputs = declaredInputs(jsonc.getNodeValue(root) as Record<string, unknown>);
  const workspace = workspaceFolder(absolutePath);
  const servers: ConfiguredServer[] = [];
  for (const property of jsonc.findNodeAtLocation(root, [key])!.children ?? []) {
    const [nameNode, valueNode] = property.children as [Node, Node | undefined];
    const name = String(nameNode.value);
    const server: ConfiguredServer = {
      name,
      path: [key, name],
      offset: nameNode.offset,
      length: nameNode.length,
    };
    const entry: unknown = valueNode === undefined ? undefined : jsonc.getNodeValue(valueNode);
    const resolved = resolveEntry(quote(name), entry, { ...context, workspace, inputs });
    if ("problem" in resolved) server.problem = resolved.problem;
    else server.target = resolved.target;
    if (isObject(entry) && entry.disabled === true) server.disabled = true;
    servers.push(server);
  }
  return servers;
}

/** `${workspaceFolder}`: the folder holding `.vscode/` or `.cursor/` for a file inside one, else the file's folder. */
function workspaceFolder(absolutePath: string): string {
  const folder = path.dirname(absolutePath);
  return [".vscode", ".cursor"].includes(path.basename(folder)) ? path.dirname(folder) : folder;
}

/** VS Code's `inputs`: id to what the prompt says, for the finding that names the unresolved one. */
function declaredInputs(root: Record<string, unknown>): Map<string, string> {
  const inputs = new Map<string, string>();
  if (!Array.isArray(root.inputs)) return inputs;
  for (const input of root.inputs) {
    if (isObject(input) && typeof input.id === "string")
      inputs.set(input.id, typeof input.description === "string" ? input.description : "");
  }
  return inputs;
}

interface ResolveContext extends ConfigContext {
  workspace: string;
  inputs: ReadonlyMap<string, string>;
}

type Resolved = { target: LiveTarget } | { problem: ServerProblem };

class Unresolved extends Error {
  constructor(readonly problem: ServerProblem) {
    super(problem.messageId);
  }
}

function resolveEntry(name: string, entry: unknown, context: ResolveContext): Resolved {
  const invalid = (problem: string): Resolved => ({
    problem: { messageId: "invalidEntry", data: { server: name, problem } },
  });
  if (!isObject(entry)) return invalid("the entry is not an object");
  try {
    const resolve = (value: string) => substitute(value, name, context);
    const strings = (field: string): string[] | undefined => {
      const value = entry[field];
      if (value === undefined) return undefined;
      if (!Array.isArray(value) || !value.every((item) => typeof item === "string"))
        throw new Unresolved(invalidProblem(name, `"${field}" is not an array of strings`));
      return value.map(resolve);
    };
    const record = (field: string): Record<string, string> => {
      const value = entry[field];
      if (value === undefined) return {};
      if (!isObject(value))
        throw new Unresolved(invalidProblem(name, `"${field}" is not an object`));
      const out: Record<string, string> = {};
      for (const [key, item] of Object.entries(value)) {
        // An env value may be written as a number or a boolean; null unsets nothing caplint passes anyway.
        if (item === null) continue;
        if (typeof item === "object")
          throw new Unresolved(invalidProblem(name, `"${field}.${key}" is not a string`));
        out[key] = resolve(String(item));
      }
      return out;
    };
    const type = typeof entry.type === "string" ? entry.type : undefined;
    if (
      type !== undefined &&
      !["stdio", "http", "sse", "streamable-http", "streamableHttp"].includes(type)
    ) {
      return invalid(`"type": ${JSON.stringify(escapeControls(type))} is none of stdio, http, sse`);
    }
    if (typeof entry.url === "string" && type !== "stdio") {
      const href = resolve(entry.url);
      if (!URL.canParse(href)) return invalid(`"url" is not a URL`);
      const url = new URL(href);
      if (url.protocol !== "http:" && url.protocol !== "https:")
        return invalid(`"url" is not an http: or https: URL`);
      return {
        target: {
          kind: "http",
          url,
          headers: record("headers"),
          ...(type === "sse" ? { legacySse: true } : {}),
        },
      };
    }
    if (typeof entry.command !== "string" || entry.command === "") {
      return invalid(
        type === "http" || type === "sse"
          ? `"type": "${type}" without a "url"`
          : `neither "command" (a stdio server) nor "url" (an HTTP server)`,
      );
    }
    const env = record("env");
    const cwd =
      typeof entry.cwd === "string"
        ? path.resolve(context.workspace, resolve(entry.cwd))
        : context.workspace;
    return {
      target: {
        kind: "stdio",
        command: resolve(entry.command),
        args: strings("args") ?? [],
        env,
        cwd,
      },
    };
  } catch (error) {
    if (error instanceof Unresolved) return { problem: error.problem };
    throw error;
  }
}

function invalidProblem(server: string, problem: string): ServerProblem {
  return { messageId: "invalidEntry", data: { server, problem } };
}

/**
 * Resolves `${workspaceFolder}`, `${userHome}`, `${env:X}` (VS Code, Cursor), `${X}` and
 * `${X:-default}` (Claude Code) in one value. `${input:id}` is never asked for: the server gets a
 * finding instead. So does a `${X}` that is not set and has no default (Claude Code refuses it too).
 */
function substitute(value: string, server: string, context: ResolveContext): string {
  return value.replace(/\$\{([^}]*)\}/g, (whole, inner: string) => {
    if (FOLDER_VARIABLES.has(inner)) {
      if (inner === "userHome") return context.home;
      if (inner === "pathSeparator" || inner === "/") return path.sep;
      if (inner === "workspaceFolderBasename") return path.basename(context.workspace);
      return context.workspace;
    }
    if (inner.startsWith("env:")) return context.env[inner.slice(4)] ?? "";
    if (inner.startsWith("input:")) {
      const id = inner.slice(6);
      const prompt = context.inputs.get(id);
      const what =
        prompt === undefined
          ? "no input of that id is declared"
          : prompt === ""
            ? "an input VS Code would prompt for"
            : `VS Code would prompt for: ${prompt}`;
      throw new Unresolved({
        messageId: "unresolvedInput",
        data: { server, reference: quote(whole), what: escapeControls(what).slice(0, 120) },
      });
    }
    const variable = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(inner);
    if (variable) {
      const set = context.env[variable[1]!];
      if (set !== undefined && set !== "") return set;
      if (variable[2] !== undefined) return variable[2];
      throw new Unresolved({
        messageId: "unsetVariable",
        data: { server, reference: quote(whole) },
      });
    }
    // Another editor's variable (${command:…}, ${config:…}): left as written, as VS Code leaves one it does not know.
    return whole;
  });
}

/** "CloseBraceExpected" as "close brace expected". */
function words(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function position(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return `${line}:${offset - start + 1}`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
