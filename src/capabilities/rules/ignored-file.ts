import path from "node:path";
import { nearest, quoteList, wordList } from "../../core/did-you-mean.js";
import { defineRule, type RuleContext } from "./types.js";
import { TARGETS, valuesOf, type Target } from "../model/types.js";

/** Files people keep next to capabilities on purpose; the host skips them and so do we. */
const DOCUMENTATION_NAME =
  /^(readme|licen[cs]e|copying|notice|changelog|authors|contributing)(\..*)?$/i;
const DOCUMENTATION_EXTENSION = /\.(md|markdown|mdx|rst|adoc|txt)$/i;
const REUSE_SIDECAR = ".license";

export default defineRule({
  id: "ignored-file",
  description:
    "Report capability files the build never loads: a wrong extension, or a capability left out of a non-empty app.security.capabilities, and references there to missing capabilities; and symbolic links leading out of the project, which caplint does not follow.",
  category: "correctness",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    outsideLink:
      "symbolic link leading out of the project (to {{target}}) is not read: caplint follows no link whose target leaves the repository (the app's folder outside a repository, or the folder given)",
    json5File:
      'capability file with extension ".json5" is not loaded: {{framework}} reads .json and .toml files, and .json5 only with its "config-json5" feature',
    otherExtension:
      "file {{extension}} in a capabilities folder is not loaded: {{framework}} reads only .json and .toml files",
    notSelected:
      'capability "{{capability}}" is not loaded: app.security.capabilities in {{configFile}} lists the capabilities the build uses, and it is not among them',
    notSelectedOnItsPlatforms:
      'capability "{{capability}}" is not loaded on {{platforms}}, where it applies: app.security.capabilities in {{configFile}} lists the capabilities built there, and it is not among them (it is loaded on {{loadedOn}} only)',
    selectedMissing:
      'app.security.capabilities names "{{capability}}", but no capability file defines it: {{buildError}}',
    selectedTwice: 'app.security.capabilities lists "{{capability}}" twice: {{buildError}}',
  },
  check(context) {
    checkOutsideLinks(context);
    checkExtensions(context);
    checkSelection(context);
  },
});

/** Links out of the project are never followed: what they lead to is not the repository's to show. */
function checkOutsideLinks(context: RuleContext) {
  for (const link of context.project.outsideLinks) {
    context.report({
      at: { absolutePath: link.file },
      path: [],
      messageId: "outsideLink",
      data: { target: link.target },
      hint: "replace the link with the file itself, or pass the target's path to caplint explicitly if it is meant to be checked",
    });
  }
}

function checkExtensions(context: RuleContext) {
  const present = new Set([
    ...context.project.skippedFiles,
    ...context.project.documents.map((document) => document.absolutePath),
  ]);
  for (const absolute of context.project.skippedFiles) {
    const name = path.basename(absolute);
    if (DOCUMENTATION_NAME.test(name) || DOCUMENTATION_EXTENSION.test(name)) continue;
    // REUSE requires the licence of `main.json` in `main.json.license` beside it: part of the file, not a stray one.
    if (name.endsWith(REUSE_SIDECAR) && present.has(absolute.slice(0, -REUSE_SIDECAR.length)))
      continue;
    const extension = path.extname(name);
    const json5 = extension === ".json5";
    context.report({
      at: { absolutePath: absolute },
      path: [],
      ...(json5
        ? { messageId: "json5File", data: { framework: context.catalog.framework } }
        : {
            messageId: "otherExtension",
            data: {
              extension: extension ? `with extension "${extension}"` : "without an extension",
              framework: context.catalog.framework,
            },
          }),
      hint: json5
        ? `convert it to plain JSON as ${name.slice(0, -extension.length)}.json (no comments, unquoted keys or trailing commas), or enable ${context.catalog.framework}'s "config-json5" Cargo feature`
        : "convert it to .json or .toml if it is a capability, otherwise move it out of the capabilities folder",
    });
  }
}

/**
 * A non-empty app.security.capabilities selects capability files by identifier (host-acl-semantics §1.5);
 * a platform config's own list replaces it on that target (a merge patch replaces arrays).
 */
function checkSelection(context: RuleContext) {
  const config = context.project.config;
  if (!config || config.capabilityLists.length === 0) return;
  const lists = config.capabilityLists;
  const listOn = (target: Target) =>
    lists.find((list) => !list.platforms || list.platforms.includes(target));
  const fromFiles = context.capabilities.filter((capability) => !capability.source.inline);
  const active = new Set(context.project.activeCapabilities);
  for (const capability of fromFiles) {
    // A capability for no valid target (`platforms: []`, misspelt names) is judged on every target.
    const named = capability.platforms
      ? TARGETS.filter((target) => valuesOf(capability.platforms!).includes(target))
      : [];
    const forTargets = named.length ? named : TARGETS;
    const loadedOn = active.has(capability) ? (capability.configPlatforms ?? TARGETS) : [];
    if (forTargets.some((target) => loadedOn.includes(target))) continue;
    // Every target it is for has a list (a target without one loads every file), and none names it.
    const leavingOut = [...new Set(forTargets.map((target) => listOn(target)!))];
    const configFile = wordList(leavingOut.map((list) => list.document.file));
    context.report({
      at: capability.source,
      path: [...capability.source.path, "identifier"],
      ...(loadedOn.length
        ? {
            messageId: "notSelectedOnItsPlatforms",
            data: {
              capability: capability.identifier,
              configFile,
              platforms: wordList(forTargets),
              loadedOn: wordList(loadedOn),
            },
          }
        : { messageId: "notSelected", data: { capability: capability.identifier, configFile } }),
      hint: `add "${capability.identifier}" to app.security.capabilities in ${configFile}, or delete the capability if it is unused`,
    });
  }
  const defined = new Set(fromFiles.map((capability) => capability.identifier));
  // A file that does not parse may define the capability; its parse finding comes first.
  const unreadable = context.project.documents.some((document) => !document.ok);
  for (const list of lists) {
    const seen = new Set<string>();
    const builds = list.platforms
      ? `the ${wordList(list.platforms)} build${list.platforms.length > 1 ? "s" : ""}`
      : "the build";
    for (const ref of list.refs) {
      const missing = !defined.has(ref.identifier);
      const repeated = seen.has(ref.identifier);
      seen.add(ref.identifier);
      if (missing ? unreadable : !repeated) continue;
      // The build takes each listed capability out of the file set, so a second mention finds nothing.
      const buildError = `${builds} ${list.platforms && list.platforms.length > 1 ? "fail" : "fails"} with "capability with identifier ${ref.identifier} not found"`;
      const close = nearest(ref.identifier, [...defined], 2);
      context.report({
        at: list.document,
        path: ref.path,
        messageId: missing ? "selectedMissing" : "selectedTwice",
        data: { capability: ref.identifier, buildError },
        // tauri-codegen panics on the reference ("capability with identifier … not found"): the build stops.
        escalate: true,
        hint: !missing
          ? "remove this entry"
          : close.length
            ? `did you mean ${quoteList(close)}?`
            : `create a capability "${ref.identifier}" in the capabilities folder, or remove this entry`,
      });
    }
  }
}
