/**
 * A committed `gen/schemas/acl-manifests.json` is the largest file most apps have (128 KB on average in
 * the corpus), and apps pinned to the same releases commit the same bytes. Its parse, shape check and
 * comparison with the release catalog are pure functions of its text and of the app facts the
 * comparison reads (the releases locked, how each plugin is built, the host crate), so they are done
 * once per content and shared by every app of a run (and of a language server's session) that has it:
 * each app still reads its own file, and gets its own document (its own name and positions).
 *
 * Apps on other releases commit other texts, but most of a text is the same plugins at the same
 * releases: the file is one member per plugin, written by the build from that plugin's release. So
 * each member's text (`"fs": {...}`) is shape-checked and compared once per run too, keyed on its
 * exact text and the facts that plugin's comparison reads; a text one byte different is a member of
 * its own.
 */
import { BoundedMemo } from "../../core/bounded-memo.js";
import { SourceDocument } from "../../core/source/document.js";
import type { ManifestDifference } from "../catalog/manifest-compare.js";
import {
  checkAclManifest,
  checkAclManifests,
  type ShapeProblem,
} from "../catalog/manifest-shape.js";
import type { AclManifests, Manifest } from "../catalog/types.js";
import { work } from "../work.js";
import { CAPABILITY_WORDING } from "./wording.js";

/** A manifest's text parsed and shape-checked once: `serial` names the text for the comparisons. */
export interface ParsedManifest {
  serial: number;
  /** The document as the first app that read this text named it; {@link SourceDocument.at} renames it. */
  document: SourceDocument;
  manifests: AclManifests;
  problems: ShapeProblem[];
  /** Each member's shared check, by key, when the text could be split into members (see {@link topLevelMembers}). */
  members?: ReadonlyMap<string, CheckedMember>;
}

/** One member's text (a plugin key and its manifest) shape-checked once per run; `serial` names that text. */
export interface CheckedMember {
  serial: number;
  manifest: Manifest | undefined;
  problems: ShapeProblem[];
}

/** What a comparison gives every app with the same text and facts; each adds its file to the differences. */
export interface ComparedManifest {
  manifests: AclManifests;
  differences: ManifestDifference[];
}

/** What comparing one member gives every manifest that has it under the same facts. */
export interface ComparedMember {
  manifest: Manifest;
  differences: ManifestDifference[];
}

/**
 * Bounds for long sessions: a monorepo of 100 corpus apps has 16 distinct manifests, a copy of one 74
 * apps after it, and 83 distinct members among them; each entry holds one text and its parsed values
 * (about 1 MB for the largest manifest).
 */
const MAX_PARSED = 32;
const MAX_COMPARED = 64;
const MAX_MEMBERS = 256;
const MAX_COMPARED_MEMBERS = 512;
const parsedManifests = new BoundedMemo<string, ParsedManifest>(MAX_PARSED);
const comparedManifests = new BoundedMemo<string, ComparedManifest>(MAX_COMPARED);
const checkedMembers = new BoundedMemo<string, CheckedMember>(MAX_MEMBERS);
const comparedMembers = new BoundedMemo<string, ComparedMember>(MAX_COMPARED_MEMBERS);
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
    work.manifestsParsed++;
    const document = SourceDocument.parse(
      absolutePath,
      file,
      text,
      "json",
      undefined,
      invalidUtf8At,
      CAPABILITY_WORDING,
    );
    if (!document.ok) return { serial: ++serials, document, manifests: {}, problems: [] };
    const checked = checkedByMember(document.value, text) ?? checkAclManifests(document.value);
    return { serial: ++serials, document, ...checked };
  };
  if (invalidUtf8At !== undefined) return parse();
  const parsed = parsedManifests.get(text, parse);
  return { ...parsed, document: parsed.document.at(absolutePath, file) };
}

/**
 * {@link checkAclManifests} of a parsed object, one member at a time, each member's check shared by
 * every text with a member of the same key and text; undefined when the text cannot be split into the
 * members the parse kept (see {@link topLevelMembers}).
 */
function checkedByMember(
  value: unknown,
  text: string,
): Pick<ParsedManifest, "manifests" | "problems" | "members"> | undefined {
  const split = topLevelMembers(text);
  if (!split) return undefined;
  const texts = new Map(split);
  const parsed = value as Record<string, unknown>;
  // In the parse's order, as checkAclManifests walks it (integer-like keys first).
  const keys = Object.keys(parsed);
  if (keys.length !== texts.size || !keys.every((key) => texts.has(key))) return undefined;
  const manifests: AclManifests = {};
  const problems: ShapeProblem[] = [];
  const members = new Map<string, CheckedMember>();
  for (const key of keys) {
    // The key and the text, apart: no text of one key can be read as another key's.
    const member = checkedMembers.get(`${key}\u0000${texts.get(key)!}`, () => {
      work.manifestMembersChecked++;
      return { serial: ++serials, ...checkAclManifest(key, parsed[key]) };
    });
    members.set(key, member);
    if (member.manifest) manifests[key] = member.manifest;
    for (const problem of member.problems) problems.push(problem);
  }
  return { manifests, problems, members };
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
    work.manifestsCompared++;
    return compare();
  });
}

/**
 * The comparison of one member with the release catalog under `facts` (a key that holds everything
 * `compare` reads besides the member), computed the first time and shared after.
 */
export function compareCommittedMember(
  member: CheckedMember,
  facts: string,
  compare: () => ComparedMember,
): ComparedMember {
  return comparedMembers.get(`${member.serial}\u0000${facts}`, () => {
    work.manifestMembersCompared++;
    return compare();
  });
}

/** JSON's four white-space characters. */
function skipWhiteSpace(text: string, at: number): number {
  for (;;) {
    const code = text.charCodeAt(at);
    if (code !== 32 && code !== 10 && code !== 13 && code !== 9) return at;
    at++;
  }
}

/** Where the string whose opening quote is at `quote` ends (just past its closing quote). */
function stringEnd(text: string, quote: number): number {
  for (let at = quote + 1; ;) {
    const close = text.indexOf('"', at);
    if (close === -1) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(close - 1 - backslashes) === 92 /* \ */) backslashes++;
    if (backslashes % 2 === 0) return close + 1;
    at = close + 1;
  }
}

/** Where the value starting at `start` ends (just past it); brackets inside strings do not count. */
function valueEnd(text: string, start: number): number {
  const first = text.charCodeAt(start);
  if (first === 34 /* " */) return stringEnd(text, start);
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 34 /* " */) at = stringEnd(text, at) - 1;
    else if (code === 123 /* { */ || code === 91 /* [ */) depth++;
    else if (code === 125 /* } */ || code === 93 /* ] */) {
      if (depth === 0) return at;
      if (--depth === 0) return at + 1;
    } else if (depth === 0 && (code === 44 /* , */ || code <= 32)) return at;
  }
  return text.length;
}

/**
 * The members of a JSON text that `JSON.parse` read as an object: each key and its value's text, in
 * order. Undefined when the text is no object or a key is written twice (the parse keeps the last
 * one: such a text is checked whole). Only for valid JSON: it finds the members, it checks nothing.
 */
export function topLevelMembers(text: string): Array<[key: string, text: string]> | undefined {
  let at = skipWhiteSpace(text, 0);
  if (text.charCodeAt(at) !== 123 /* { */) return undefined;
  const members: Array<[string, string]> = [];
  const keys = new Set<string>();
  at = skipWhiteSpace(text, at + 1);
  if (text.charCodeAt(at) === 125 /* } */) return members;
  for (;;) {
    if (text.charCodeAt(at) !== 34 /* " */) return undefined;
    const keyEnd = stringEnd(text, at);
    const written = text.slice(at, keyEnd);
    const key = written.includes("\\") ? (JSON.parse(written) as string) : written.slice(1, -1);
    if (keys.has(key)) return undefined;
    keys.add(key);
    at = skipWhiteSpace(text, keyEnd);
    if (text.charCodeAt(at) !== 58 /* : */) return undefined;
    const start = skipWhiteSpace(text, at + 1);
    const end = valueEnd(text, start);
    members.push([key, text.slice(start, end)]);
    at = skipWhiteSpace(text, end);
    const next = text.charCodeAt(at);
    if (next === 125 /* } */) return members;
    if (next !== 44 /* , */) return undefined;
    at = skipWhiteSpace(text, at + 1);
  }
}
