import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** An app whose config is src-tauri/Tauri.toml (the host CLI's "config-toml" feature), as real apps write it. */
export function tomlApp(): string {
  const app = mkdtempSync(path.join(tmpdir(), "caplint-tauri-toml-"));
  const srcTauri = path.join(app, "src-tauri");
  mkdirSync(path.join(srcTauri, "capabilities"), { recursive: true });
  writeFileSync(
    path.join(srcTauri, "Tauri.toml"),
    [
      'productName = "Toml App"',
      'identifier = "com.example.toml"',
      "[[app.windows]]",
      'label = "editor"',
      "[app.security]",
      'capabilities = ["editor", { identifier = "inline", windows = ["editor"], permissions = ["fs:allow-reed-file"] }]',
      "",
    ].join("\n"),
  );
  writeFileSync(
    path.join(srcTauri, "capabilities", "editor.json"),
    JSON.stringify(
      { identifier: "editor", windows: ["editor"], permissions: ["core:default"] },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(srcTauri, "capabilities", "unused.json"),
    JSON.stringify(
      { identifier: "unused", windows: ["editor"], permissions: ["core:default"] },
      null,
      2,
    ),
  );
  return app;
}
