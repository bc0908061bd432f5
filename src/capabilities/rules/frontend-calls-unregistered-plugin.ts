import { loadVersionHistory } from "../catalog/versions.js";
import { shippedTargets } from "../load/build.js";
import { parseCommandName } from "../engine/command-name.js";
import { TARGETS } from "../model/types.js";
import { wordList } from "../../core/did-you-mean.js";
import { callSpan, callText, judgedFrontend } from "./support/frontend.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "frontend-calls-unregistered-plugin",
  description: 'Report frontend calls into an official plugin that the app\'s build does not have (the call fails with "plugin not found").',
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    notInBuild: '{{call}} invokes "{{command}}", but plugin "{{plugin}}" is not in the {{build}}: the call fails with "plugin {{plugin}} not found"',
  },
  async check(context) {
    const build = context.project.build;
    if (!build) return;
    const access = await judgedFrontend(context);
    if (!access) return;
    const history = await loadVersionHistory();
    const shipped = shippedTargets(build, context.capabilities);
    const asked = new Set(context.platforms);
    const targets = TARGETS.filter((target) => shipped.has(target) && asked.has(target));
    // One finding per file and plugin: the first call stands for the others.
    const seen = new Set<string>();
    for (const judgement of access.judgements) {
      const plugin = parseCommandName(judgement.command).plugin;
      if (plugin === undefined || judgement.key?.startsWith("core") || !history.has(plugin)) continue;
      const entry = build.plugins.get(plugin);
      const missing = targets.filter((target) => !entry || entry.presence[target] === "no");
      if (missing.length === 0) continue;
      const key = `${judgement.call.file}\u0000${plugin}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const crate = entry?.crate ?? history.crateOf(plugin) ?? `tauri-plugin-${plugin}`;
      context.report({
        at: { absolutePath: judgement.call.file },
        path: [],
        span: callSpan(judgement.call),
        messageId: "notInBuild",
        data: {
          call: callText(judgement.call),
          command: judgement.command,
          plugin,
          build: missing.length === targets.length ? "build" : `${wordList(missing)} build`,
        },
        hint: `add ${crate} to the app's Cargo.toml (cargo add ${crate}) and register it with .plugin(${crate.replace(/-/g, "_")}::init()), or remove the call`,
      });
    }
  },
});
