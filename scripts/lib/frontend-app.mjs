// A generated Tauri app with a frontend of `files` TypeScript modules, as a mid-sized real app is laid
// out: an index.html and a settings.html page, an entry per page, components, stores and services
// importing each other (a tree with some shared modules and a barrel), most of them UI code with no
// Tauri call, a third calling @tauri-apps/api or an official plugin (renamed imports, the objects the
// bindings return, invoke with a literal command). Deterministic (seeded). Used by `npm run bench`
// row 14: `check` with and without the frontend scan.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { prng } from "./prng.mjs";

const CALLS = [
  [
    'import { getCurrentWindow } from "@tauri-apps/api/window";',
    "await getCurrentWindow().setTitle(`${label} (${count})`);",
  ],
  [
    'import { getCurrentWindow as current } from "@tauri-apps/api/window";',
    "await current().minimize();",
  ],
  [
    'import { invoke } from "@tauri-apps/api/core";',
    'const saved = await invoke<string>("save_note", { label, count });',
  ],
  [
    'import { listen } from "@tauri-apps/api/event";',
    'await listen<string>("note-changed", (event) => console.log(event.payload));',
  ],
  [
    'import { readTextFile, BaseDirectory } from "@tauri-apps/plugin-fs";',
    "const text = await readTextFile(`notes/${label}.md`, { baseDir: BaseDirectory.AppData });",
  ],
  [
    'import { open } from "@tauri-apps/plugin-dialog";',
    "const picked = await open({ multiple: false, directory: false });",
  ],
  [
    'import { load } from "@tauri-apps/plugin-store";',
    'const store = await load("settings.json");\n    await store.set(label, count);',
  ],
  ['import * as os from "@tauri-apps/plugin-os";', "const platform = os.platform();"],
];

/** Ordinary UI code: the bulk of a real module, which the scan parses but finds no call in. */
function uiCode(random, name, lines) {
  const out = [];
  for (let i = 0; i < lines; i++) {
    switch (Math.floor(random() * 5)) {
      case 0:
        out.push(
          `  const el${i} = document.querySelector<HTMLElement>("#${name}-${i}");`,
          `  if (el${i}) el${i}.textContent = String(count + ${i});`,
        );
        break;
      case 1:
        out.push(
          `  const items${i} = [${Array.from({ length: 6 }, (_, k) => k * i).join(", ")}].map((n) => n * count).filter((n) => n % 3 !== 0);`,
        );
        break;
      case 2:
        out.push(
          `  if (label.length > ${i}) {`,
          `    console.debug("${name}", label.slice(0, ${i}), count);`,
          "  }",
        );
        break;
      case 3:
        out.push(
          `  const style${i} = { width: \`\${count * ${i}}px\`, opacity: ${(i % 10) / 10} };`,
          `  Object.assign(document.body.style, style${i});`,
        );
        break;
      default:
        out.push(
          `  for (const key of Object.keys(state)) if (key.startsWith("${name.slice(0, 3)}")) delete state[key];`,
        );
    }
  }
  return out.join("\n");
}

/** Writes the app into `dir`; returns the number of frontend modules. */
export function frontendApp(dir, { files = 300, seed = 7 } = {}) {
  const random = prng(seed);
  const src = path.join(dir, "src");
  const tauri = path.join(dir, "src-tauri");
  mkdirSync(path.join(tauri, "capabilities"), { recursive: true });
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify(
      {
        name: "bench-frontend",
        private: true,
        type: "module",
        dependencies: {
          "@tauri-apps/api": "^2.8.0",
          "@tauri-apps/plugin-dialog": "^2.4.0",
          "@tauri-apps/plugin-fs": "^2.4.0",
          "@tauri-apps/plugin-os": "^2.3.0",
          "@tauri-apps/plugin-store": "^2.4.0",
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(tauri, "Cargo.toml"),
    '[package]\nname = "bench-frontend"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\ntauri = "2.8.0"\ntauri-plugin-dialog = "2.4.0"\ntauri-plugin-fs = "2.4.0"\ntauri-plugin-os = "2.3.0"\ntauri-plugin-store = "2.4.0"\n',
  );
  writeFileSync(
    path.join(tauri, "tauri.conf.json"),
    JSON.stringify(
      {
        identifier: "bench.frontend",
        build: { frontendDist: "../dist", devUrl: "http://localhost:1420" },
        app: { windows: [{ label: "main" }, { label: "settings", url: "settings.html" }] },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(tauri, "capabilities", "main.json"),
    JSON.stringify(
      {
        identifier: "main",
        windows: ["main"],
        permissions: [
          "core:default",
          "core:window:allow-set-title",
          "core:window:allow-minimize",
          "dialog:default",
          "fs:allow-read-text-file",
          "os:default",
          "store:default",
        ],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(tauri, "capabilities", "settings.toml"),
    'identifier = "settings"\nwindows = ["settings"]\npermissions = [\n  "core:default",\n  "store:default",\n  "os:allow-platform",\n]\n',
  );
  for (const page of ["index", "settings"])
    writeFileSync(
      path.join(dir, `${page}.html`),
      `<!doctype html>\n<html>\n  <body>\n    <div id="app"></div>\n    <script type="module" src="/src/${page === "index" ? "main" : "settings"}.ts"></script>\n  </body>\n</html>\n`,
    );
  const folders = ["components", "stores", "services", "views", "lib"];
  for (const folder of folders) mkdirSync(path.join(src, folder), { recursive: true });
  const modules = Array.from(
    { length: files - 2 },
    (_, i) => `${folders[i % folders.length]}/m${String(i).padStart(4, "0")}`,
  );
  // Each module imports up to three later ones: a tree from the entries, with shared leaves.
  for (const [i, name] of modules.entries()) {
    const imports = [];
    for (let k = 1; k <= 3; k++) {
      const child = i * 3 + k;
      if (child < modules.length) imports.push(child);
    }
    const header = imports.map(
      (child) =>
        `import { run as run${child} } from "${path.posix.relative(path.posix.dirname(name), modules[child]).replace(/^(?!\.)/, "./")}";`,
    );
    const body = [];
    if (random() < 0.35) {
      const [line, call] = CALLS[Math.floor(random() * CALLS.length)];
      header.unshift(line);
      body.push(`    ${call}`);
    }
    const calls = imports.map((child) => `  await run${child}(label, count + 1);`);
    writeFileSync(
      path.join(src, `${name}.ts`),
      `// ${name}: generated for the benchmark.\n${header.join("\n")}\n\nconst state: Record<string, number> = {};\n\nexport async function run(label: string, count: number): Promise<void> {\n  try {\n${body.join("\n")}\n  } catch (error) {\n    console.error(error);\n  }\n${uiCode(random, path.posix.basename(name), 25 + Math.floor(random() * 50))}\n${calls.join("\n")}\n}\n`,
    );
  }
  writeFileSync(
    path.join(src, "main.ts"),
    `import { run } from "./${modules[0]}";\n\nawait run("main", 0);\n`,
  );
  writeFileSync(
    path.join(src, "settings.ts"),
    `import { run } from "./${modules[1]}";\n\nawait run("settings", 0);\n`,
  );
  return files;
}
