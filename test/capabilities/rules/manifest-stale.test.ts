import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, run } from "../../helpers/run.js";

/**
 * A committed acl-manifests.json against the build's truth: the build regenerates it from the locked
 * releases. Host verdicts (host-oracle resolve with the locked release's manifest) are in each capability's
 * description.
 */
const DIR = path.join(FIXTURES, "capabilities", "manifest-mismatch", "invalid");

describe("committed acl-manifests.json", () => {
  it("written by an older build: one warning for the file, exit 0 (the host builds the app)", async () => {
    const result = await run(["check", "--app", "stale-app", "--format", "compact"], DIR);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split("\n")).toEqual([
      expect.stringMatching(
        /: warning written by a build with other releases \(tauri-plugin-fs 2\.0\.\d\), not edited: /,
      ),
    ]);
  });

  it("adding a permission to an official plugin does not hide a typo: the build regenerates the file and fails", async () => {
    const result = await run(["check", "--app", "added-permission", "--format", "compact"], DIR);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /capabilities\/main\.json:5:35: error unknown permission "fs:allow-raed-file"/,
    );
    expect(result.stdout).toMatch(
      /error plugin "fs": the manifest defines "fs:allow-raed-file", which no release of tauri-plugin-fs has \[manifest-mismatch\]/,
    );
  });

  it("an edit no release explains stays an error per difference", async () => {
    const result = await run(["check", "--app", "edited-app", "--format", "compact"], DIR);
    expect(result.code).toBe(1);
    expect(
      result.stdout.split("\n").filter((line) => line.includes("error plugin")).length,
    ).toBeGreaterThanOrEqual(4);
    expect(result.stdout).not.toContain("not edited");
  });
});
