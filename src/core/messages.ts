/**
 * Messages as data (ESLint's `meta.messages`): a rule declares its message templates by id, and a
 * finding names the id and the values of the template's `{{name}}` placeholders. Programs read the
 * id (JSON, SARIF) without parsing prose; the text stays in one place per rule.
 */
import { cutText } from "./quote.js";

/** messageId → template; `{{name}}` placeholders are filled from the finding's `data`. */
export type RuleMessages = Readonly<Record<string, string>>;

/** The placeholder names of a template, as a union type (`never` when it has none). */
export type Placeholders<Template extends string> = string extends Template
  ? string
  : Template extends `${string}{{${infer Name}}}${infer Rest}`
    ? Name | Placeholders<Rest>
    : never;

/** Facts behind a finding: the placeholder values, plus any other facts programs read (not printed). */
export type MessageData = Readonly<Record<string, unknown>>;

/**
 * What a rule reports about its message: one of its own ids, with a value for every placeholder of
 * that template, checked at compile time for rules declared with a literal `messages` object.
 */
export type MessageReport<M extends RuleMessages> = string extends keyof M
  ? { messageId: string; data?: MessageData }
  : SpecificMessageReport<M>;

type SpecificMessageReport<M extends RuleMessages> = {
  [Id in keyof M & string]: { messageId: Id } & ([Placeholders<M[Id]>] extends [never]
    ? { data?: MessageData }
    : { data: Readonly<Record<Placeholders<M[Id]>, string | number>> & MessageData });
}[keyof M & string];

const PLACEHOLDER = /\{\{([^{}]*)\}\}/g;
/** Keyed on the rules' own message templates (shipped code, a few hundred at most), never on user input. */
const compiled = new Map<string, string[]>();
const PLACEHOLDER_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** The placeholder names of a template, in order of appearance. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/** True for a placeholder name caplint accepts (`{{name}}`, no spaces). */
export function isPlaceholderName(name: string): boolean {
  return PLACEHOLDER_NAME.test(name);
}

/** A rule broke its own contract (an unknown messageId, a missing placeholder value, a fix it may not offer). */
export class RuleContractError extends Error {
  constructor(ruleId: string, problem: string) {
    super(`rule "${ruleId}" ${problem}`);
    this.name = "RuleContractError";
  }
}

/**
 * The finding's text: the rule's template for `messageId` with its placeholders filled from `data`.
 * An unknown id or a placeholder without a value is a bug in the rule, never in the user's input.
 */
export function formatMessage(
  rule: { id: string; messages: RuleMessages },
  messageId: string,
  data: MessageData = {},
): string {
  const template = Object.hasOwn(rule.messages, messageId) ? rule.messages[messageId] : undefined;
  if (template === undefined)
    throw new RuleContractError(
      rule.id,
      `reported messageId "${messageId}", which its meta.messages does not declare`,
    );
  // Split once per template: a run formats tens of thousands of findings from a few dozen templates.
  let parts = compiled.get(template);
  if (!parts) compiled.set(template, (parts = template.split(PLACEHOLDER)));
  // Odd places hold placeholder names (the pattern's one capture group).
  let text = parts[0]!;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i]!;
    const value = Object.hasOwn(data, name) ? data[name] : undefined;
    if (value === undefined)
      throw new RuleContractError(
        rule.id,
        `reported messageId "${messageId}" without a value for {{${name}}}`,
      );
    text += String(value) + parts[i + 1]!;
  }
  return text;
}

/**
 * A value for a message. A number is shown as the file wrote it when that is known (`1e400`, `1.50`):
 * JSON.parse turns `1e400` into Infinity, which JSON.stringify would print as null.
 */
export function shownValue(value: unknown, written?: string): string {
  if (typeof value === "number") return written ?? String(value);
  return JSON.stringify(value) ?? typeof value;
}

/** A value cut to `limit` characters, with a marker saying how much is left out. */
export function cutValue(text: string, limit: number): string {
  return cutText(text, limit, { head: limit, countRest: true });
}
