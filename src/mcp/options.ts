import type { LintCommandOptions } from "../core/options.js";

/** The options of `caplint mcp`, as commander parses them (command.ts) and the runner reads them (run.ts). */
export interface McpCommandOptions extends LintCommandOptions {
  stdio?: boolean;
  url?: string;
  timeout: number;
  verbose?: boolean;
  env: string[];
  probe?: boolean;
  maxCalls: number;
  serverNameStyle: "any" | "python" | "node";
  service?: string;
  verbs: string[];
  listTools: string[];
  maxFileSize?: number;
  /** `--servers FILE`: lint the servers a client configuration declares; `--server NAME` picks some. */
  servers?: string;
  server: string[];
}
