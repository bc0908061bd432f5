import { describe, expect, it } from "vitest";
import type { AclManifests } from "../../src/capabilities/catalog/types.js";
import { accessMatrix, resolve, resolveAccess } from "../../src/capabilities/engine/index.js";
import { capability, catalogOf, manifest } from "./helpers.js";

/** 40 plugins × 25 commands, each with a default set of 10 and a nested `all` set. */
function syntheticCatalog(): AclManifests {
  const manifests: AclManifests = {};
  for (let p = 0; p < 40; p++) {
    const permissions: Record<string, { allow?: string[]; deny?: string[] }> = {};
    for (let c = 0; c < 25; c++) {
      permissions[`allow-cmd-${c}`] = { allow: [`cmd_${c}`] };
      permissions[`deny-cmd-${c}`] = { deny: [`cmd_${c}`] };
    }
    const firstTen = Array.from({ length: 10 }, (_, c) => `allow-cmd-${c}`);
    manifests[`plugin-${p}`] = manifest({
      permissions,
      default: firstTen,
      sets: { all: ["default", ...Array.from({ length: 15 }, (_, c) => `allow-cmd-${c + 10}`)] },
    });
  }
  return manifests;
}

function syntheticCapabilities(count: number) {
  return Array.from({ length: count }, (_, i) =>
    capability({
      identifier: `cap-${String(i).padStart(5, "0")}`,
      windows: i % 3 === 0 ? [`win-${i % 250}`] : i % 3 === 1 ? [`group-${i % 20}-*`, `win-${(i * 7) % 250}`] : [],
      webviews: i % 3 === 2 ? [`win-${i % 250}`, `panel-*-${i % 5}`] : [],
      remote: i % 10 === 0 ? { urls: [`https://*.site-${i % 13}.dev`] } : undefined,
      permissions: [
        `plugin-${i % 40}:default`,
        `plugin-${(i * 3) % 40}:all`,
        `plugin-${(i * 11) % 40}:allow-cmd-${i % 25}`,
        ...(i % 997 === 0 ? [`plugin-${i % 40}:deny-cmd-3`] : []),
      ],
    }),
  );
}

describe("performance on a large synthetic project", () => {
  it("resolves 5,000 capabilities and builds a 200-window matrix quickly", () => {
    const catalog = catalogOf(syntheticCatalog());
    const capabilities = syntheticCapabilities(5000);
    const windows = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? `win-${i}` : `group-${i % 20}-${i}`));

    const t0 = performance.now();
    const model = resolve({ capabilities, catalog, platform: "linux" });
    const t1 = performance.now();
    const matrix = accessMatrix(model, windows, { kind: "local" });
    const t2 = performance.now();
    const remoteMatrix = accessMatrix(model, windows, { kind: "remote", url: "https://a.site-3.dev/x" });
    const t3 = performance.now();

    const entries = [...model.allowed.values()].reduce((n, list) => n + list.length, 0);
    console.info(
      `synthetic: ${capabilities.length} capabilities, ${entries} allow entries, ${matrix.commands.length} commands; ` +
        `resolve ${(t1 - t0).toFixed(0)} ms, local matrix ${windows.length} windows ${(t2 - t1).toFixed(0)} ms, remote matrix ${(t3 - t2).toFixed(0)} ms`,
    );
    expect(model.problems).toEqual([]);
    expect(matrix.rows).toHaveLength(200);
    expect(remoteMatrix.rows.some((row) => row.granted.length > 0)).toBe(true);
    // Generous bounds: the point is linear behaviour, not a benchmark.
    expect(t1 - t0).toBeLessThan(10_000);
    expect(t2 - t1).toBeLessThan(10_000);

    // Spot-check rows against the per-window query.
    for (const row of [matrix.rows[0]!, matrix.rows[1]!, matrix.rows[77]!]) {
      const single = resolveAccess(model, { window: row.window });
      expect(row.granted).toEqual(single.allowed.map((a) => a.command));
    }
  });
});
