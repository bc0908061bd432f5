#!/usr/bin/env node
import module from "node:module";

module.enableCompileCache?.();
const { main } = await import("../dist/cli-bundle/main.js");
const argv = process.argv.slice(2);
// `check --watch` runs until Ctrl-C and then exits 0; every other command keeps Node's default Ctrl-C.
const interrupt = new AbortController();
if (argv.includes("--watch")) process.once("SIGINT", () => interrupt.abort());
process.exitCode = await main({ argv, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env, signal: interrupt.signal });
