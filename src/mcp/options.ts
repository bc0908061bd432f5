import type { ReporterName } from "./core.js";

/** The options of `caplint mcp`, as commander parses them (command.ts) and the runner reads them (run.ts). */
export interface McpCommandOptions {
  stdio?: boolean;
  url?: string;
  timeout: number;
  verbose?: boolean;
  env: string[];
  probe?: boolean;
  maxCalls: number;
  serverNameStyle: "python" | "node";
  service?: string;
  verbs: string[];
  format: ReporterName;
  output?: string;
  maxWarnings?: number;
  quiet?: boolean;
  config?: string;
  rule: string[];
  only: string[];
  color?: boolean;
  maxFileSize?: number;
}
