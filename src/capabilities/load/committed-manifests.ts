/**
 * A committed `gen/schemas/acl-manifests.json` is the largest file most apps have (128 KB on average in
 * the corpus), and apps pinned to the same releases commit the same bytes. Its parse, shape check and
 * comparison with the release catalog are pure functions of its text and of the app facts the
 * comparison reads (the releases locked, how each plugin is built, the host crate), so they are done
 * once per content and shared by every app of a run (and of a language server's session) that has it:
 * each app still reads its own file, and gets its own document (its own name and positions).
 */
import { BoundedMemo } from "../../core/bounded-memo.js";
import { SourceDocument } from "../../core/source/document.js";
import type { ManifestDifference } from "../catalog/manifest-compare.js";
import { checkAclManifests, type ShapeProblem } from "../catalog/manifest-shape.js";
import type { AclManifests } from "../catalog/types.js";
import { sharedLoadWork } from "./shared-work.js";
import { CAPABILITY_WORDING } from "./wording.js";

/** A manifest's text parsed and shape-checked once: `serial` names the text for the comparisons. */
export interface ParsedManifest {
  serial: number;
  /** The document as the first app that read this text named it; {@link SourceDocument.at} renames it. */
  document: SourceDocument;
  manifests: AclManifests;
  problems: ShapeProblem[];
}

/** What a comparison gives every app with the same text and facts; each adds its file to the differences. */
export interface ComparedManifest {
  manifests: AclManifests;
  differences: ManifestDifference[];
}

/**
 * Bounds for long sessions: a monorepo of 100 corpus apps has 17 distinct manifests, a copy of one 74
 * apps after it; each entry holds one text and its parsed values (about 1 MB for the largest).
 */
const MAX_PARSED = 32;
const MAX_COMPARED = 64;
const parsedManifests = new BoundedMemo<string, ParsedManifest>(MAX_PARSED);
const comparedManifests = new BoundedMemo<string, ComparedManifest>(MAX_COMPARED);
let serials = 0;

/**
 * The manifest file `absolutePath` (shown as `file`) with this text, parsed and shape-checked, or the
 * shared parse of an earlier file with the same text, renamed. A text with bytes that are not UTF-8 is
 * parsed on its own (its document reports where).
 */
export function parseCommittedManifest(
  absolutePath: string,
  file: string,
  text: string,
  invalidUtf8At: number | undefined,
): ParsedManifest {
  const parse = (): ParsedManifest => {
    sharedLoadWork.manifestsParsed++;
    const document = SourceDocument.parse(
      absolutePath,
      file,
      text,
      "json",
      undefined,
      invalidUtf8At,
      CAPABILITY_WORDING,
    );
    const checked = document.ok
      ? checkAclManifests(document.value)
      : { manifests: {}, problems: [] };
    return { serial: ++serials, document, ...checked };
  };
  if (invalidUtf8At !== undefined) return parse();
  const parsed = parsedManifests.get(text, parse);
  return { ...parsed, document: parsed.document.at(absolutePath, file) };
}

/**
 * The comparison of a parsed manifest with the release catalog under `facts` (a key that holds every
 * app fact `compare` reads), computed the first time and shared after.
 */
export function compareCommittedManifest(
  parsed: ParsedManifest,
  facts: string,
  compare: () => ComparedManifest,
): ComparedManifest {
  return comparedManifests.get(`${parsed.serial}\u0000${facts}`, () => {
    sharedLoadWork.manifestsCompared++;
    return compare();
  });
}
