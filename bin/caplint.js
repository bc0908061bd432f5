#!/usr/bin/env node
import module from "node:module";

module.enableCompileCache?.();
const { main } = await import("../dist/cli/main.js");
process.exitCode = await main({ argv: process.argv.slice(2), stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env });
