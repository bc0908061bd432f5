import { build } from "esbuild";
const r = await build({
  entryPoints: { main: "dist/cli/main.js" }, outdir: "/tmp/perf3-split", write: false,
  bundle: true, splitting: true, format: "esm", platform: "node", target: "node20",
  define: { "import.meta.url": "__caplintBundleUrl" }, metafile: true, logLevel: "error",
  external: ["@modelcontextprotocol/sdk","@modelcontextprotocol/sdk/*","zod","cross-spawn","vscode-languageserver","vscode-languageserver/*","vscode-languageserver-textdocument","@napi-rs/xattr","oxc-parser","oxc-resolver","jsonc-parser"],
});
const inputs = r.metafile.inputs;
// static import closure from an input, over inputs (import-statement only)
function closure(start) { const seen = new Set(); const st = [start]; while (st.length) { const k = st.pop(); if (seen.has(k) || !inputs[k]) continue; seen.add(k); for (const i of inputs[k].imports) if (i.kind === "import-statement" || i.kind === "require-call") st.push(i.path); } return seen; }
const size = (set) => [...set].reduce((a, k) => a + inputs[k].bytes, 0);
const m = closure(process.argv[2] ?? "dist/cli/main.js");
console.log("closure", m.size, size(m));
// who imports X: path from main to target
const target = process.argv[3];
if (target) { const prev = new Map([["dist/cli/main.js", null]]); const q = ["dist/cli/main.js"]; while (q.length) { const k = q.shift(); for (const i of inputs[k]?.imports ?? []) if ((i.kind === "import-statement"||i.kind==="require-call") && !prev.has(i.path)) { prev.set(i.path, k); q.push(i.path); } } let p = target; const chain = []; while (p) { chain.push(p); p = prev.get(p); } console.log(chain.reverse().join("\n -> ")); }
else console.log([...m].sort((a,b)=>inputs[b].bytes-inputs[a].bytes).slice(0,1000).map(k=>inputs[k].bytes+" "+k).join("\n"));
