import { defineRule } from "./types.js";
import { valuesOf } from "../model/types.js";
import { describeRelease, REMOTE_APP_COMMANDS_CHECKED_SINCE } from "../catalog/versions.js";

export default defineRule({
  id: "remote-app-commands",
  description:
    "Report capabilities that let remote pages into windows of an app whose locked Tauri release (before 2.11.1) does not check the app's own commands from remote pages and that defines no permissions: those pages may call every command the app registers.",
  category: "security",
  security: { severity: 8.8, cwe: [862] },
  defaultSeverity: "error",
  fixable: false,
  scope: "document",
  messages: {
    uncheckedFromRemote:
      'capability "{{capability}}" lets remote pages ({{urls}}) into {{targets}}, and {{release}} does not check the app\'s own commands from them: the app defines no permissions, so those pages may call every command the app registers',
  },
  check(context) {
    if (context.catalog.checksRemoteAppCommands) return;
    const release = describeRelease(context.catalog.hostRelease!);
    for (const capability of context.capabilities) {
      const urls = capability.remote?.urls ?? [];
      const labels = [...valuesOf(capability.windows), ...valuesOf(capability.webviews)];
      // A capability that reaches no window or webview lets no page in: no-target's finding.
      if (urls.length === 0 || labels.length === 0) continue;
      context.report({
        at: capability.source,
        path: urls[0]!.path,
        messageId: "uncheckedFromRemote",
        data: {
          capability: capability.identifier,
          urls: valuesOf(urls)
            .map((url) => `"${url}"`)
            .join(", "),
          targets: `${labels.length === 1 ? "window" : "windows"} ${labels.map((label) => `"${label}"`).join(", ")}`,
          release,
        },
        hint: `build with release ${REMOTE_APP_COMMANDS_CHECKED_SINCE} or later, which refuses app commands from remote pages unless a capability grants them; or define app permissions (tauri_build::AppManifest in build.rs, or src-tauri/permissions/), so that every app command is checked and only granted ones pass`,
      });
    }
  },
});
