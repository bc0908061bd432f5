import { readFileSync } from "node:fs";
import path from "node:path";
import { copyApp, startServer, uriOf, type TestClient } from "./client.js";

/**
 * The real app most LSP tests drive (fixtures/real-world/build-truth/TheBestTvarynka__Dataans, see its
 * SOURCE.txt): Cargo files with global-shortcut for desktop targets only, build.rs inlining a plugin
 * of 23 commands, a tauri.conf.json whose one window is "main", and four capability files.
 */
export async function startOnDataans(options: Parameters<typeof startServer>[1] = {}) {
  const app = copyApp("real-world/build-truth/TheBestTvarynka__Dataans");
  const client = await startServer(app.dir, options);
  const file = (relative: string) => path.join(app.dir, "dataans/src-tauri", relative);
  return {
    app,
    client,
    file,
    uri: (relative: string) => uriOf(file(relative)),
    disk: (relative: string) => readFileSync(file(relative), "utf8"),
    /** Opens a file with `text` (default: its disk text) and waits for its first diagnostics. */
    async open(relative: string, text?: string): Promise<string> {
      const uri = uriOf(file(relative));
      await client.open(uri, text ?? readFileSync(file(relative), "utf8"));
      await client.diagnostics(uri);
      return uri;
    },
    async stop(): Promise<number | null> {
      const code = await client.stop();
      app.remove();
      return code;
    },
  };
}

export type Dataans = Awaited<ReturnType<typeof startOnDataans>>;
export type { TestClient };

/** The 0-based position of the first `needle` in `text` (plus `shift` characters). */
export function positionOf(
  text: string,
  needle: string,
  shift = 0,
): { line: number; character: number } {
  const at = text.indexOf(needle);
  if (at < 0) throw new Error(`${needle} is not in the text`);
  const before = text.slice(0, at + shift);
  return {
    line: before.split("\n").length - 1,
    character: before.length - (before.lastIndexOf("\n") + 1),
  };
}
