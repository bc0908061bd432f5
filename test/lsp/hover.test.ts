import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadProject } from "../../src/capabilities/load/project.js";
import { hoverText } from "../../src/lsp/hover.js";
import { FIXTURES } from "../helpers/run.js";

/**
 * The hover on a capability's remote URL says what the remote-app-commands rule finds: with tauri 2.0.6
 * locked and no app permissions, the pages it lets in may call every app command; from 2.11.1 on they may not.
 */
const HERE = path.join(FIXTURES, "queries", "remote-app-commands");

async function remoteHover(app: string): Promise<string> {
  const project = await loadProject({ cwd: path.join(HERE, app) });
  const capability = project.capabilities.find((c) => c.identifier === "docs-site")!;
  return hoverText(project, {
    kind: "url",
    pattern: "https://docs.example.com",
    capability,
    offset: 0,
    length: 0,
  });
}

describe("hover on a remote URL pattern", () => {
  it("says the pages it lets in may call every app command when the locked release does not check them", async () => {
    const text = await remoteHover("tauri-2.0.6");
    expect(text).toContain("**Remote URL pattern `https://docs.example.com`**");
    expect(text).toContain(
      "**Exposed:** pages it matches in `main` may call every app command, not checked by Tauri: the app defines no permissions and tauri 2.0.6 (src-tauri/Cargo.lock) checks app commands from remote pages only from 2.11.1 on",
    );
  });

  it("says nothing of the kind when the release checks them (2.11.5)", async () => {
    const text = await remoteHover("tauri-2.11.5");
    expect(text).toContain("**Remote URL pattern `https://docs.example.com`**");
    expect(text).not.toContain("Exposed");
  });
});
