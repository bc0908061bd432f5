import type { JsonPath } from "../../core/location.js";
import { isObject } from "../listing.js";
import { mcpValidators, type ErrorObject } from "../schema.js";
import { defineMcpRule } from "./types.js";

const HINTS = new Set(["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]);

export default defineMcpRule({
  id: "mcp-schema",
  input: "static",
  description:
    "The listing validates against the MCP specification's JSON Schema (protocol 2025-11-25) for tools/list and initialize.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  // The listing's reader and the protocol schema's validator word each problem; the templates pass it through.
  messages: { notAListing: "{{problem}}", violation: "{{what}}{{where}} {{problem}}" },
  async check({ listing, report }) {
    if (listing.shapeProblem) {
      report({
        path: [],
        messageId: "notAListing",
        data: { problem: listing.shapeProblem },
        hint: "capture one with: caplint mcp dump --stdio -- CMD ARGS... > tools.json",
      });
      return;
    }
    const validators = await mcpValidators();
    const check = (
      validate: (value: unknown) => boolean,
      errors: () => ErrorObject[] | null | undefined,
      value: unknown,
      base: JsonPath,
      what: string,
    ) => {
      if (validate(value)) return;
      for (const problem of problems(errors() ?? [], value)) {
        const path = [...base, ...problem.path];
        report({
          path,
          target: problem.target,
          messageId: "violation",
          data: { what, where: describePath(problem.path), problem: problem.message },
          hint: problem.hint,
        });
      }
    };
    for (const page of listing.pages) {
      check(
        (v) => validators.listToolsResult(v),
        () => validators.listToolsResult.errors,
        page.value,
        page.path,
        "tools/list result",
      );
    }
    if (listing.initialize) {
      check(
        (v) => validators.initializeResult(v),
        () => validators.initializeResult.errors,
        listing.initialize.value,
        listing.initialize.path,
        "initialize result",
      );
    } else if (listing.serverInfo) {
      check(
        (v) => validators.implementation(v),
        () => validators.implementation.errors,
        listing.serverInfo.value,
        listing.serverInfo.path,
        "serverInfo",
      );
    }
  },
});

interface Problem {
  path: JsonPath;
  target: "key" | "value";
  message: string;
  hint?: string;
}

/**
 * Ajv's errors as findings: one per place and message; an anyOf/oneOf summary is dropped when a
 * branch explains the problem below it; a hint of the wrong type is left to mcp-annotations.
 */
function problems(errors: readonly ErrorObject[], root: unknown): Problem[] {
  const result: Problem[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const path = toPath(error.instancePath, root);
    const last = path[path.length - 1];
    if (
      error.keyword === "type" &&
      typeof last === "string" &&
      HINTS.has(last) &&
      path[path.length - 2] === "annotations"
    )
      continue;
    if (
      (error.keyword === "anyOf" || error.keyword === "oneOf") &&
      errors.some(
        (other) =>
          other !== error &&
          other.instancePath.startsWith(error.instancePath) &&
          other.keyword !== error.keyword,
      )
    )
      continue;
    let message = error.message ?? "is invalid";
    let target: "key" | "value" = "value";
    let at = path;
    if (error.keyword === "required") {
      message = `lacks required field "${String((error.params as { missingProperty: string }).missingProperty)}"`;
    } else if (error.keyword === "const") {
      message = `must be ${JSON.stringify((error.params as { allowedValue: unknown }).allowedValue)}`;
    } else if (error.keyword === "enum") {
      message = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")}`;
    } else if (error.keyword === "additionalProperties") {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      at = [...path, extra];
      target = "key";
      message = `has unknown field "${extra}"`;
    }
    const key = `${JSON.stringify(at)}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ path: at, target, message });
  }
  return result;
}

function toPath(pointer: string, root: unknown): JsonPath {
  const path: Array<string | number> = [];
  let value: unknown = root;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(value)) {
      path.push(Number(key));
      value = value[Number(key)];
    } else {
      path.push(key);
      value = isObject(value) ? value[key] : undefined;
    }
  }
  return path;
}

/** `tools[3].annotations.title`, for messages. */
function describePath(path: JsonPath): string {
  if (path.length === 0) return "";
  return `: ${path.map((segment, index) => (typeof segment === "number" ? `[${segment}]` : /^[A-Za-z_$][\w$]*$/.test(segment) ? `${index ? "." : ""}${segment}` : `[${JSON.stringify(segment)}]`)).join("")}`;
}
