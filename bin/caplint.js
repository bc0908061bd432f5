#!/usr/bin/env node
import module from "node:module";

module.enableCompileCache?.();
const { main } = await import("../dist/cli-bundle/main.js");
const argv = process.argv.slice(2);
// `check --watch` runs until Ctrl-C and then exits 0; every other command keeps Node's default Ctrl-C.
const interrupt = new AbortController();
if (argv.includes("--watch")) process.once("SIGINT", () => interrupt.abort());
// Standard input is touched only when a command reads it (`check -`): opening it eagerly can keep a terminal's stdin busy.
const stdin = { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() };
process.exitCode = await main({ argv, stdout: process.stdout, stderr: process.stderr, stdin, cwd: process.cwd(), env: process.env, signal: interrupt.signal });
