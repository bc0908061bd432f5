import { loadVersionHistory } from "../catalog/versions.js";
import { parseCommandName } from "../engine/command-name.js";
import { wordList } from "../../core/did-you-mean.js";
import { callSpan, callText, judgedFrontend, pluginMissingOn } from "./support/frontend.js";
import { defineRule } from "./types.js";

export default defineRule({
  id: "frontend-calls-unregistered-plugin",
  description:
    'Report frontend calls into an official plugin that the app\'s build does not have (the call fails with "plugin not found").',
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    notInBuild:
      '{{call}} invokes "{{command}}", but plugin "{{plugin}}" is not in the {{build}}: the call fails with "plugin {{plugin}} not found"',
  },
  async check(context) {
    const build = context.project.build;
    if (!build) return;
    const access = await judgedFrontend(context);
    if (!access) return;
    const history = await loadVersionHistory();
    // One finding per file and plugin: the first call stands for the others.
    const seen = new Set<string>();
    for (const judgement of access.judgements) {
      const plugin = parseCommandName(judgement.command).plugin;
      // The platforms the call runs on: the app's targets (the build's, narrowed by the capabilities'
      // platforms), narrowed by a platform check around the call.
      const targets = judgement.targets;
      const missing = pluginMissingOn(build, judgement, targets, (name) => history.has(name));
      if (plugin === undefined || missing.length === 0) continue;
      const entry = build.plugins.get(plugin);
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
