import type { Command } from "commander";
import { whoCan } from "../../engine/index.js";
import { contextLabel, provenanceJson, SourceLines } from "../../query/project-model.js";
import { nearest, quoteList } from "../../util/did-you-mean.js";
import type { MainOptions } from "../io.js";
import { addQueryOptions, loadModel, type QueryOptions } from "../query-options.js";
import type { SetExitCode } from "./index.js";
import { textLines } from "../../core/terminal-text.js";

export function registerWhoCan(program: Command, io: MainOptions, setExitCode: SetExitCode): void {
  const command = program
    .command("who-can")
    .description("every capability, window pattern and origin that grants a command, and the denies that block it")
    .argument("<command>", "command as invoked: plugin:window|close, plugin:fs|read_file, my_command");
  addQueryOptions(command, ["text", "json"]).action(async (name: string, paths: string[], options: QueryOptions) => {
    const { project, model } = await loadModel(paths, options, io);
    const result = whoCan(model, name);
    const lines = new SourceLines(project);
    if (options.format === "json") {
      io.stdout.write(
        JSON.stringify(
          {
            command: result.command,
            platform: model.platform,
            deniedEverywhere: result.deniedEverywhere,
            allowedBy: result.allowedBy.map((e) => provenanceJson(e, lines)),
            deniedBy: result.deniedBy.map((e) => provenanceJson(e, lines)),
          },
          null,
          2,
        ) + "\n",
      );
    } else {
      const out = [`${result.command} on ${model.platform}`];
      if (result.allowedBy.length === 0 && result.deniedBy.length === 0) {
        const close = nearest(result.command, [...model.allowed.keys(), ...model.denied.keys()], 3);
        out.push(`  no active capability grants or denies it${close.length ? `; did you mean ${quoteList(close)}?` : ""}`);
      }
      for (const entry of result.allowedBy) {
        const targets = [entry.windows.length ? `windows: ${entry.windows.join(", ")}` : "", entry.webviews.length ? `webviews: ${entry.webviews.join(", ")}` : ""].filter(Boolean).join("; ");
        out.push(`  allowed for [${targets || "nothing: no windows or webviews"}] from ${contextLabel(entry)}`);
        out.push(`    by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})`);
      }
      for (const entry of result.deniedBy) {
        out.push(`  DENIED everywhere by capability ${entry.provenance.capability} › ${entry.provenance.chain.join(" › ")}  (${lines.where(entry)})`);
      }
      if (result.deniedEverywhere && result.allowedBy.length) out.push("  a deny in any active capability wins over every allow, for every window and origin");
      io.stdout.write(textLines(out));
    }
    setExitCode(0);
  });
}
