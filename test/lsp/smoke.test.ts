import path from "node:path";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { copyApp, startServer, uriOf } from "./client.js";

it("smoke", async () => {
  const app = copyApp("real-world/build-truth/TheBestTvarynka__Dataans");
  const client = await startServer(app.dir);
  const file = path.join(app.dir, "dataans/src-tauri/capabilities/desktop.json");
  await client.open(uriOf(file), readFileSync(file, "utf8"));
  const d = await client.diagnostics(uriOf(file));
  console.log(JSON.stringify(d, null, 1), client.stderr());
  console.log(client.published.map((p) => p.uri + " " + p.diagnostics.length));
  expect(await client.stop()).toBe(0);
  app.remove();
});
