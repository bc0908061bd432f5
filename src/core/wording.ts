/** `1 file`, `3 files`, `2 capabilities`: a count with its noun, for messages and summaries. */
export function plural(count: number, word: string, words = `${word}s`): string {
  return `${count} ${count === 1 ? word : words}`;
}

/** The verb agreeing with a count: `1 warning exceeds`, `2 warnings exceed` (`agree(n, "exceeds", "exceed")`). */
export function agree(count: number, singular: string, pluralForm: string): string {
  return count === 1 ? singular : pluralForm;
}
