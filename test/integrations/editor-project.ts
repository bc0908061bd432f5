/** What the editor tests share: the project with caplint installed (scripts/lib/editor-project.mjs) and the README's code blocks. */
import { readFileSync } from "node:fs";
import path from "node:path";
// @ts-expect-error: a plain ES module shared with scripts/editors-screenshot.mjs, no types.
import { editorProject as makeProject } from "../../scripts/lib/editor-project.mjs";
import { ROOT } from "../helpers/run.js";

export interface EditorProject {
  root: string;
  /** The app's main capability file. */
  capability: string;
  remove: () => void;
}

export const editorProject = makeProject as () => EditorProject;

/** The one README block in `language` that contains `containing`. */
export function readmeBlock(language: string, containing: string): string {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const found = [...readme.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "gm"))]
    .map((m) => m[1]!)
    .filter((block) => block.includes(containing));
  if (found.length !== 1)
    throw new Error(
      `README.md has ${found.length} \`\`\`${language} blocks with ${containing}, expected one`,
    );
  return found[0]!;
}
