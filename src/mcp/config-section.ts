import type { ConfigSection } from "../core/config.js";

/** What caplint.config.json says about tool servers: what the heuristics cannot know, as `--verbs` and `--list-tools` say it on one run. */
export interface McpConfig {
  /** More action verbs mcp-tool-verb accepts, lowercase. */
  verbs: string[];
  /** Tool names pinned as list tools (true) or not (false). */
  listTools: ReadonlyMap<string, boolean>;
}

const TOOL_NAME = { type: "string", minLength: 1, maxLength: 128 };

/** The mcp domain's key in caplint.config.json: `"mcp": { "verbs": [...], "listTools": { "name": true } }`. */
export const MCP_CONFIG: ConfigSection<McpConfig> = {
  properties: {
    mcp: {
      description:
        "caplint mcp: what its heuristics cannot know about your servers (the command line's --verbs and --list-tools add to it and win).",
      type: "object",
      additionalProperties: false,
      properties: {
        verbs: {
          description:
            "More action verbs mcp-tool-verb accepts (words of your domain), as --verbs.",
          type: "array",
          items: TOOL_NAME,
        },
        listTools: {
          description:
            "Tool names pinned as list tools (true) or as no list tools (false) for mcp-pagination-params, mcp-pagination-result and mcp-input-bounds, whatever the heuristics say; as --list-tools name,!name.",
          type: "object",
          propertyNames: TOOL_NAME,
          additionalProperties: { type: "boolean" },
        },
      },
    },
  },
  read(values) {
    const given = (values.mcp ?? {}) as { verbs?: string[]; listTools?: Record<string, boolean> };
    return Promise.resolve({
      verbs: (given.verbs ?? []).map((verb) => verb.toLowerCase()),
      listTools: new Map(Object.entries(given.listTools ?? {})),
    });
  },
};

/** The config's words and pins with the command line's over them: its verbs added, its pins winning. */
export function withCommandLine(
  config: McpConfig,
  options: { verbs: readonly string[]; listTools: readonly string[] },
): McpConfig {
  const pinned = options.listTools.map((name): [string, boolean] =>
    name.startsWith("!") ? [name.slice(1), false] : [name, true],
  );
  return {
    verbs: [...config.verbs, ...options.verbs.map((verb) => verb.toLowerCase())],
    listTools: new Map([...config.listTools, ...pinned]),
  };
}
