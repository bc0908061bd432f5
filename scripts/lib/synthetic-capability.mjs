// Shared by the benchmarks: capability files drawn from the core catalog, like real ones.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const core = JSON.parse(readFileSync(path.join(ROOT, "data", "core-acl-manifest.json"), "utf8"));
// Like real capability files: defaults and allow-permissions, and now and then a deny.
const ALLOWS = Object.entries(core).flatMap(([key, manifest]) => [
  ...(manifest.default_permission ? [`${key}:default`] : []),
  ...Object.keys(manifest.permissions)
    .filter((id) => id.startsWith("allow-"))
    .map((id) => `${key}:${id}`),
]);
const DENIES = Object.entries(core).flatMap(([key, manifest]) =>
  Object.keys(manifest.permissions)
    .filter((id) => id.startsWith("deny-"))
    .map((id) => `${key}:${id}`),
);

/** One capability of 20 permissions for some of `windows` (a glob now and then), with a remote origin one time in ten. */
export function capability(random, id, windows) {
  const permissions = new Set();
  while (permissions.size < 20) {
    const pool = random() < 0.01 ? DENIES : ALLOWS;
    permissions.add(pool[Math.floor(random() * pool.length)]);
  }
  const pick = () => windows[Math.floor(random() * windows.length)];
  const labels = random() < 0.3 ? [`${pick().split("-")[0]}-*`] : [pick(), pick()];
  const cap = {
    identifier: id,
    description: `synthetic capability ${id}`,
    windows: [...new Set(labels)],
    permissions: [...permissions],
  };
  if (random() < 0.1) cap.remote = { urls: ["https://*.example.com"] };
  return cap;
}
