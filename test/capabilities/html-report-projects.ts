import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** Apps written to temporary folders for the report tests; `cleanup()` removes them. */
const created: string[] = [];

export function cleanup(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `src-tauri/<file>` for each entry (objects as JSON) into a new temporary folder. */
export function writeApp(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(tmpdir(), "caplint-report-"));
  created.push(dir);
  for (const [file, content] of Object.entries(files)) {
    const full = path.join(dir, "src-tauri", file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, typeof content === "string" ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

/**
 * Dangerous grants: `main` may write and read files across $HOME (and, through viewer's global fs
 * scope, "/**") and run a shell program; `viewer` is granted to every window ("*") and reads "/**".
 */
export function dangerousApp(): string {
  return writeApp({
    "tauri.conf.json": {
      productName: "Danger Demo",
      identifier: "dev.caplint.danger",
      app: { windows: [{ label: "main" }, { label: "viewer" }] },
    },
    "capabilities/main.json": {
      identifier: "main",
      windows: ["main"],
      permissions: [
        "core:default",
        { identifier: "fs:allow-write-file", allow: [{ path: "$HOME/**" }] },
        { identifier: "shell:allow-execute", allow: [{ name: "run-sh", cmd: "sh", args: true }] },
      ],
    },
    "capabilities/viewer.json": {
      identifier: "viewer",
      windows: ["*"],
      permissions: ["fs:allow-read-file", { identifier: "fs:scope", allow: [{ path: "/**" }] }],
    },
  });
}

/**
 * Platform splits and a remote-only grant: `main` may close windows on desktop and open URLs on iOS;
 * `docs` gets nothing locally, and a shell command from its remote pages (a dangerous-permission error).
 */
export function splitApp(extra: Record<string, unknown> = {}): string {
  return writeApp({
    "tauri.conf.json": {
      identifier: "dev.caplint.split",
      app: { windows: [{ label: "main" }, { label: "docs" }] },
    },
    "capabilities/desktop.json": {
      identifier: "desktop",
      windows: ["main"],
      platforms: ["linux", "macOS", "windows"],
      permissions: ["core:window:allow-close"],
    },
    "capabilities/phone.json": {
      identifier: "phone",
      windows: ["main"],
      platforms: ["iOS"],
      permissions: [
        { identifier: "opener:allow-open-url", allow: [{ url: "https://example.com/*" }] },
      ],
    },
    "capabilities/remote-shell.json": {
      identifier: "remote-shell",
      windows: ["docs"],
      local: false,
      remote: { urls: ["https://docs.example.com"] },
      permissions: [
        { identifier: "shell:allow-execute", allow: [{ name: "run-ls", cmd: "ls", args: false }] },
      ],
    },
    ...extra,
  });
}

export const HOSTILE_LABEL = `<script>alert("label")</script>'x`;
export const HOSTILE_CAPABILITY = `<img src=x onerror="alert('cap')">`;

/** Markup in a window label, a capability identifier and so in lint messages. */
export function hostileApp(): string {
  return writeApp({
    "tauri.conf.json": {
      identifier: `</script><script>alert("title")</script>`,
      app: { windows: [{ label: HOSTILE_LABEL }, { label: "main" }] },
    },
    "capabilities/hostile.json": {
      identifier: HOSTILE_CAPABILITY,
      windows: [HOSTILE_LABEL, "main"],
      permissions: [
        "core:window:allow-close",
        "core:window:allow-set-title",
        "core:window:allow-set-titel",
      ],
    },
  });
}
