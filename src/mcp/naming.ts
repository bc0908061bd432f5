/**
 * Names in the tool-server conventions: `{service}_mcp` servers (or the TypeScript community's
 * `{service}-mcp-server`), `{service}_{action}_{object}` tools.
 */
export type ServerNameStyle = "python" | "node";

export const SERVER_NAME_PATTERNS: Record<ServerNameStyle, { pattern: RegExp; example: string; suffix: string }> = {
  python: { pattern: /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*_mcp$/, example: "slack_mcp", suffix: "_mcp" },
  node: { pattern: /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-mcp-server$/, example: "slack-mcp-server", suffix: "-mcp-server" },
};

/** The protocol's tool-name charset and length (2025-11-25, "Tool Names"). */
export const TOOL_NAME_CHARSET = /^[A-Za-z0-9_.-]+$/;
export const TOOL_NAME_MAX_LENGTH = 128;
export const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/**
 * Action verbs a tool name may start with (after the service prefix). Extend it with `--verbs`;
 * docs/rules/mcp-tool-verb.md lists it.
 */
export const DEFAULT_VERBS: readonly string[] = [
  "add",
  "analyze",
  "append",
  "apply",
  "approve",
  "archive",
  "assign",
  "attach",
  "batch",
  "book",
  "build",
  "calculate",
  "call",
  "cancel",
  "check",
  "clear",
  "clone",
  "close",
  "comment",
  "compare",
  "complete",
  "compress",
  "compute",
  "configure",
  "confirm",
  "connect",
  "convert",
  "copy",
  "count",
  "create",
  "decline",
  "decode",
  "decrypt",
  "delete",
  "deploy",
  "describe",
  "detect",
  "diff",
  "disable",
  "disconnect",
  "download",
  "draft",
  "duplicate",
  "echo",
  "edit",
  "enable",
  "encode",
  "encrypt",
  "end",
  "enqueue",
  "estimate",
  "evaluate",
  "execute",
  "explain",
  "export",
  "extract",
  "fetch",
  "filter",
  "find",
  "fork",
  "format",
  "forward",
  "generate",
  "get",
  "grant",
  "import",
  "index",
  "insert",
  "inspect",
  "install",
  "invite",
  "invoke",
  "join",
  "kill",
  "label",
  "launch",
  "leave",
  "link",
  "list",
  "load",
  "lock",
  "log",
  "lookup",
  "mark",
  "merge",
  "move",
  "navigate",
  "notify",
  "open",
  "parse",
  "pause",
  "pin",
  "ping",
  "play",
  "post",
  "predict",
  "preview",
  "print",
  "publish",
  "pull",
  "purge",
  "push",
  "put",
  "query",
  "queue",
  "read",
  "rebuild",
  "record",
  "redo",
  "refresh",
  "register",
  "reject",
  "release",
  "reload",
  "remove",
  "rename",
  "render",
  "reopen",
  "replace",
  "reply",
  "report",
  "request",
  "reset",
  "resize",
  "resolve",
  "restart",
  "restore",
  "resume",
  "retrieve",
  "retry",
  "revert",
  "review",
  "revoke",
  "rollback",
  "rotate",
  "run",
  "save",
  "scan",
  "schedule",
  "search",
  "select",
  "send",
  "set",
  "share",
  "show",
  "sign",
  "simulate",
  "sort",
  "split",
  "star",
  "start",
  "stop",
  "stream",
  "submit",
  "subscribe",
  "suggest",
  "summarize",
  "suspend",
  "sync",
  "tag",
  "test",
  "toggle",
  "track",
  "transcribe",
  "transfer",
  "transform",
  "translate",
  "trigger",
  "unarchive",
  "undo",
  "uninstall",
  "unlink",
  "unlock",
  "unpin",
  "unsubscribe",
  "update",
  "upload",
  "upsert",
  "validate",
  "verify",
  "view",
  "vote",
  "wait",
  "watch",
  "write",
];

/** Lowercase words of a name written in snake_case, kebab-case, dotted or camelCase. */
export function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

/** Version and date tokens in a server name: `v2`, `1.0`, `2024`, `2024-05-01`, `20240501`. */
export function versionToken(name: string): string | undefined {
  const match = /(?:^|[^a-z0-9])(v\d+(?:\.\d+)*)(?![a-z0-9])|(\d+\.\d+(?:\.\d+)*)|((?:19|20)\d{2}(?:[-_.]?\d{2}(?:[-_.]?\d{2})?)?)(?!\d)/i.exec(name);
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/**
 * The service a server is for: the name without the `_mcp` / `-mcp-server` suffix, as snake_case.
 * For names that follow neither style (`mcp-servers/everything`, `Demo MCP v2`) the last path
 * segment without its MCP/server affixes and versions is taken, so prefixes can still be checked.
 */
export function serviceFromServerName(name: string): string | undefined {
  const lastSegment = name.split(/[/:@]/).filter(Boolean).pop() ?? "";
  const service = words(lastSegment.replace(/(?:^|[^a-z0-9])v\d+(?:\.\d+)*(?![a-z0-9])|\d+\.\d+(?:\.\d+)*|(?:19|20)\d{2}(?:[-_.]?\d{2}){0,2}(?!\d)/gi, " "))
    .filter((word, index, all) => !(word === "mcp" || (word === "server" && (all[index - 1] === "mcp" || all[index + 1] === "mcp")) || word === "servers"))
    .join("_");
  return service === "" ? undefined : service;
}

/** The words of a tool name after its service prefix (when it has it). */
export function actionWords(toolName: string, service: string | undefined): string[] {
  const all = words(toolName);
  const prefix = service ? words(service) : [];
  if (prefix.length > 0 && prefix.every((word, index) => all[index] === word) && all.length > prefix.length) return all.slice(prefix.length);
  return all;
}
