/** `1 file`, `3 files`, `2 capabilities`: a count with its noun, for messages and summaries. */
export function plural(count: number, word: string, words = `${word}s`): string {
  return `${count} ${count === 1 ? word : words}`;
}
