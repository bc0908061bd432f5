// Regenerates fixtures/mcp/dumps/*.json, the golden dumps of the fixture servers in fixtures/mcp/
// (run after changing a fixture server: `npm run build && node scripts/mcp-golden-dumps.mjs`). The
// rule tests lint these files offline, so they run without starting processes; test/integrations/mcp/live.test.ts
// checks that the servers still produce them.
import { execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const caplint = (args) =>
  execFileSync(process.execPath, [path.join(root, "bin/caplint.js"), "mcp", "dump", ...args], {
    cwd: root,
    encoding: "utf8",
  });
const write = (name, text) =>
  writeFileSync(path.join(root, "fixtures/mcp/dumps", `${name}.json`), text);

for (const name of ["good", "bad", "raw"])
  write(name, caplint(["--probe", "--stdio", "--", "node", `fixtures/mcp/${name}-server.mjs`]));

for (const [name, file] of [
  ["http", "http-server.mjs"],
  ["sse", "sse-server.mjs"],
]) {
  const server = spawn(process.execPath, [path.join(root, "fixtures/mcp", file)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise((resolve) =>
    server.stdout.on("data", (chunk) => resolve(/listening on (\S+)/.exec(String(chunk))?.[1])),
  );
  try {
    // The port is random; the golden file names a fixed one.
    write(name, caplint(["--probe", "--url", url]).replaceAll(new URL(url).host, "127.0.0.1:8000"));
  } finally {
    server.kill();
  }
}
