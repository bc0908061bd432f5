/**
 * The script of a frontend file, as blocks of JavaScript or TypeScript at their offsets in the file: a
 * `.ts`/`.js` file is one block; a `.vue`, `.svelte` or `.html` file has its `<script>` elements and the
 * expressions of its template (event handlers, bindings, `{…}` and `{{…}}`), which see the script's
 * top-level names. The attribute `data-tauri-drag-region` of a template is found here too (in JSX it
 * is an attribute of the syntax tree).
 */

export type ScriptLanguage = "js" | "jsx" | "ts" | "tsx";

export interface ScriptBlock {
  /** The text to parse; `prefix` characters of it are not in the file (a wrapper that makes a template expression a statement). */
  text: string;
  /** Offset in the file of the block's first character after the prefix. */
  offset: number;
  prefix: number;
  language: ScriptLanguage;
  /** A `<script src=…>` of an HTML page: the module it loads. */
  source?: string;
}

export interface FileBlocks {
  blocks: ScriptBlock[];
  /** Offsets of `data-tauri-drag-region` attributes in markup. */
  dragRegions: number[];
}

export const SCRIPT_EXTENSIONS = [
  ".ts",
  ".tsx",
  ".mts",
  ".cts",
  ".js",
  ".jsx",
  ".mjs",
  ".cjs",
] as const;
export const MARKUP_EXTENSIONS = [".vue", ".svelte", ".html", ".htm"] as const;

export function isFrontendFile(file: string): boolean {
  const lower = file.toLowerCase();
  return (
    [...SCRIPT_EXTENSIONS, ...MARKUP_EXTENSIONS].some((extension) => lower.endsWith(extension)) &&
    !lower.endsWith(".d.ts")
  );
}

function languageOfFile(file: string): ScriptLanguage {
  const lower = file.toLowerCase();
  if (lower.endsWith(".tsx")) return "tsx";
  if (/\.[mc]?ts$/.test(lower)) return "ts";
  if (lower.endsWith(".jsx")) return "jsx";
  // Plain .js files often hold JSX (create-react-app): parsing them as JSX accepts both.
  return "jsx";
}

export function fileBlocks(file: string, text: string): FileBlocks {
  const lower = file.toLowerCase();
  if (!MARKUP_EXTENSIONS.some((extension) => lower.endsWith(extension))) {
    return {
      blocks: [{ text, offset: 0, prefix: 0, language: languageOfFile(file) }],
      dragRegions: [],
    };
  }
  const blocks: ScriptBlock[] = [];
  const markup: Array<[start: number, end: number]> = [];
  const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
  let last = 0;
  for (const match of text.matchAll(SCRIPT)) {
    const attributes = match[1]!;
    const body = match[2]!;
    const bodyOffset = match.index + match[0].indexOf(">") + 1;
    markup.push([last, match.index]);
    last = match.index + match[0].length;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    if (
      type &&
      !["module", "text/javascript", "application/javascript", "text/typescript", "ts"].includes(
        type,
      )
    )
      continue;
    const lang = /\blang\s*=\s*["']?([^"'\s>]+)/i.exec(attributes)?.[1]?.toLowerCase();
    const language: ScriptLanguage =
      lang === "ts" || lang === "typescript"
        ? "ts"
        : lang === "tsx"
          ? "tsx"
          : lang === "jsx"
            ? "jsx"
            : "js";
    const src = /\bsrc\s*=\s*["']([^"']+)["']/i.exec(attributes)?.[1];
    if (src !== undefined)
      blocks.push({ text: "", offset: bodyOffset, prefix: 0, language, source: src });
    if (body.trim()) blocks.push({ text: body, offset: bodyOffset, prefix: 0, language });
  }
  markup.push([last, text.length]);
  const dragRegions: number[] = [];
  const isVue = lower.endsWith(".vue");
  const isSvelte = lower.endsWith(".svelte");
  const scriptLanguage = blocks.find((block) => !block.source)?.language ?? "js";
  const expressionLanguage: ScriptLanguage =
    scriptLanguage === "ts" || scriptLanguage === "tsx" ? "ts" : "js";
  for (const [start, end] of markup) {
    const part = text.slice(start, end);
    for (const match of part.matchAll(/\bdata-tauri-drag-region\b/g))
      dragRegions.push(start + match.index);
    if (isVue) blocks.push(...vueExpressions(part, start, expressionLanguage));
    if (isSvelte) blocks.push(...svelteExpressions(part, start, expressionLanguage));
  }
  return { blocks, dragRegions };
}

/**
 * A template expression as a block: `() => { … }` makes statements and expressions alike parse. Under
 * a template's platform check (`{#if isDesktop}`) the expression is wrapped in the same `if`, so the
 * analyzer narrows it as it narrows script code.
 */
function expressionBlock(
  expression: string,
  offset: number,
  language: ScriptLanguage,
  guard?: string,
): ScriptBlock {
  const prefix = guard ? `() => { if (${guard}) {` : "() => {";
  const suffix = guard ? "\n}}" : "\n}";
  return { text: `${prefix}${expression}${suffix}`, offset, prefix: prefix.length, language };
}

/**
 * A condition simple enough to repeat as a guard: a name or member chain, a check call with no
 * arguments (`isDesktop()`, `platform()`), negated or compared with a literal. Anything else is left out
 * of the guard (which only widens where the code is judged to run), and no call of it is read twice.
 */
const PLAIN_CONDITION =
  /^\s*!*\s*[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*(?:\s*\(\s*\))?(?:\s*[!=]==?\s*(["'])[\w-]+\1)?\s*$/;
const CHECK_CALL = /(?:^|\.)\s*(?:is_?[A-Za-z]\w*|IS_\w+|platform|type|osType|os_type)\s*\(/;

function plainCondition(condition: string): boolean {
  return (
    PLAIN_CONDITION.test(condition) && (!condition.includes("(") || CHECK_CALL.test(condition))
  );
}

/** One open `{#…}` block of Svelte markup; for `#if`, the conditions of its branches so far. */
interface SvelteFrame {
  keyword: string;
  /** The conditions of the branches before the current one (they failed). */
  previous: string[];
  /** The current branch's condition; undefined in `{:else}` and in blocks other than `#if`. */
  current?: string;
}

/** The conditions that hold where the open blocks put the markup, as one expression (undefined: none). */
function svelteGuard(frames: readonly SvelteFrame[]): string | undefined {
  const terms: string[] = [];
  for (const frame of frames) {
    if (frame.keyword !== "if") continue;
    for (const condition of frame.previous)
      if (plainCondition(condition)) terms.push(`!(${condition.trim()})`);
    if (frame.current !== undefined && plainCondition(frame.current))
      terms.push(`(${frame.current.trim()})`);
  }
  return terms.length ? terms.join(" && ") : undefined;
}

/** Follows `{#if}`, `{:else if}`, `{:else}`, `{/if}` and the other blocks' opening and closing tags. */
function trackSvelteBlock(frames: SvelteFrame[], tag: string, rest: string): void {
  const kind = tag[0];
  const name = tag.slice(1);
  if (kind === "#")
    frames.push({ keyword: name, previous: [], ...(name === "if" ? { current: rest } : {}) });
  else if (kind === ":" && name === "else") {
    const frame = frames[frames.length - 1];
    if (frame?.keyword !== "if") return;
    frame.previous.push(frame.current ?? "");
    const elseIf = /^if\s+([\s\S]*)$/.exec(rest.trim());
    if (elseIf) frame.current = elseIf[1]!;
    else delete frame.current;
  } else if (kind === "/") {
    const at = frames.map((frame) => frame.keyword).lastIndexOf(name);
    if (at >= 0) frames.splice(at);
  }
}

/** `@click="…"`, `v-on:…`, `:prop="…"`, `v-bind:…`, `v-if`/`v-show`/`v-for`-free directives, and `{{ … }}`. */
function vueExpressions(part: string, start: number, language: ScriptLanguage): ScriptBlock[] {
  const blocks: ScriptBlock[] = [];
  const ranges = vueGuardRanges(part);
  const guardAt = (at: number) => {
    const terms = ranges
      .filter(
        (range) =>
          range.start <= at &&
          at < range.end &&
          !(range.condition <= at && at < range.conditionEnd),
      )
      .map((range) => range.guard);
    return terms.length ? terms.join(" && ") : undefined;
  };
  for (const match of part.matchAll(
    /(?:\s)(?:@|v-on:|:|v-bind:|v-if=|v-show=|v-else-if=)[\w.:-]*=?\s*=\s*"([^"]*)"/g,
  )) {
    const value = match[1]!;
    const at = match.index + match[0].length - value.length - 1;
    blocks.push(expressionBlock(value, start + at, language, guardAt(at)));
  }
  for (const match of part.matchAll(/\{\{([\s\S]*?)\}\}/g))
    blocks.push(
      expressionBlock(match[1]!, start + match.index + 2, language, guardAt(match.index + 2)),
    );
  return blocks;
}

/** Elements that have no closing tag. */
const VOID_ELEMENTS = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);

/**
 * The spans of a Vue template that a `v-if`, `v-else-if` or `v-else` puts under a condition (the
 * element, its attributes and what it holds), each with the condition as one expression (earlier
 * branches negated) and where the element's own condition is written (it is not under itself).
 */
function vueGuardRanges(
  part: string,
): Array<{ start: number; end: number; guard: string; condition: number; conditionEnd: number }> {
  const ranges: Array<{
    start: number;
    end: number;
    guard: string;
    condition: number;
    conditionEnd: number;
  }> = [];
  // Comments hold no elements; blanked to keep offsets.
  const text = part.replace(/<!--[\s\S]*?-->/g, (comment) => " ".repeat(comment.length));
  const open: Array<{ name: string; range?: (typeof ranges)[number] }> = [];
  // Per depth: the conditions of the v-if / v-else-if chain of the element just before, if any.
  const chains: Array<string[] | undefined> = [];
  for (const tag of text.matchAll(
    /<(\/?)([A-Za-z][\w.:-]*)((?:[^>"']|"[^"]*"|'[^']*')*?)(\/?)>/g,
  )) {
    const [whole, closing, rawName, attributes, selfClosing] = tag;
    const name = rawName!.toLowerCase();
    if (closing) {
      const at = open.map((element) => element.name).lastIndexOf(name);
      if (at < 0) continue;
      for (const element of open.splice(at))
        if (element.range) element.range.end = tag.index + whole.length;
      chains.length = open.length + 1;
      continue;
    }
    const depth = open.length;
    chains.length = depth + 1;
    const directive = /\s(v-if|v-else-if|v-else)(?:\s*=\s*"([^"]*)")?/.exec(attributes!);
    let range: (typeof ranges)[number] | undefined;
    if (directive) {
      const condition = directive[2] ?? "";
      const previous = directive[1] === "v-if" ? [] : (chains[depth] ?? []);
      const terms = previous.filter(plainCondition).map((c) => `!(${c.trim()})`);
      if (directive[1] !== "v-else" && plainCondition(condition))
        terms.push(`(${condition.trim()})`);
      chains[depth] = directive[1] === "v-else" ? undefined : [...previous, condition];
      const conditionAt =
        tag.index +
        1 +
        closing!.length +
        rawName!.length +
        directive.index +
        directive[0].length -
        condition.length -
        (directive[2] === undefined ? 0 : 1);
      if (terms.length)
        range = {
          start: tag.index,
          end: tag.index + whole.length,
          guard: terms.join(" && "),
          condition: conditionAt,
          conditionEnd: conditionAt + condition.length,
        };
      if (range) ranges.push(range);
    } else chains[depth] = undefined;
    if (!selfClosing && !VOID_ELEMENTS.has(name)) open.push({ name, ...(range ? { range } : {}) });
  }
  return ranges;
}

/** Svelte markup: every `{…}` (balanced braces), except blocks' own keywords (`{#if …}`, `{/if}`, `{:else}`, `{@html …}`). */
function svelteExpressions(part: string, start: number, language: ScriptLanguage): ScriptBlock[] {
  const blocks: ScriptBlock[] = [];
  const frames: SvelteFrame[] = [];
  let depth = 0;
  let open = -1;
  for (let i = 0; i < part.length; i++) {
    const c = part[i];
    if (c === "{") {
      if (depth === 0) open = i;
      depth++;
    } else if (c === "}" && depth > 0) {
      depth--;
      if (depth === 0) {
        let inner = part.slice(open + 1, i);
        let innerOffset = start + open + 1;
        const keyword = /^\s*(?:[#:@/][a-z]+)\s*/.exec(inner);
        // The `{#if}`'s own condition runs where the blocks around it put it: its guard is taken first.
        const guard = svelteGuard(frames);
        if (keyword) trackSvelteBlock(frames, keyword[0].trim(), inner.slice(keyword[0].length));
        if (keyword) {
          if (/^\s*[/:]/.test(inner) || /^\s*#each/.test(inner)) {
            // `{#each list as item}`: only the list is an expression; closing and `:else` blocks have none.
            const each = /^\s*#each\s+([\s\S]*?)\s+as\s/.exec(inner);
            if (!each) continue;
            inner = each[1]!;
            innerOffset += each[0].indexOf(inner);
          } else {
            inner = inner.slice(keyword[0].length);
            innerOffset += keyword[0].length;
          }
        }
        blocks.push(expressionBlock(inner, innerOffset, language, guard));
      }
    }
  }
  return blocks;
}

/**
 * Build output and minified bundles: a long first line, or long lines throughout. Their calls are the
 * sources' calls again (counted from the sources), and parsing them costs most of a scan.
 */
export function looksMinified(text: string): boolean {
  if (text.length < 2_000) return false;
  const sample = text.slice(0, 20_000);
  const lines = sample.split("\n");
  const longLines = lines.filter((line) => line.length > 500).length;
  return (
    longLines > 0 &&
    (lines.length < 5 || longLines / lines.length > 0.2 || sample.length / lines.length > 300)
  );
}
