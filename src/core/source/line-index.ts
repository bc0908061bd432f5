import type { Position, Range } from "../location.js";

/**
 * Maps character offsets to 1-based line/column positions (columns in UTF-16 code units). The line
 * starts are found as far as the offsets asked for reach, in one pass that only moves forward: the
 * findings of a file of one 15 MB line placed up to its first megabyte read that megabyte, once,
 * and a file without findings reads nothing.
 */
export class LineIndex {
  /** The line starts found so far: every one at or before `scanned`. */
  private readonly starts: number[] = [0];
  /** Characters before this offset have been looked at. */
  private scanned = 0;

  constructor(readonly text: string) {}

  /** How many characters the search for line starts has read (it reads each at most once). */
  get charactersScanned(): number {
    return this.scanned;
  }

  get lineCount(): number {
    this.scanTo(this.text.length);
    return this.starts.length;
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    this.scanTo(clamped);
    const line = this.lineAt(clamped, 0);
    return { line: line + 1, column: clamped - this.starts[line]! + 1 };
  }

  /**
   * The positions of `offset` and of `offset + length` (as two `position` calls give them): the end's
   * line is searched for only when it is not the start's, which a finding's span nearly never leaves.
   */
  range(offset: number, length: number): Range {
    const size = this.text.length;
    const from = Math.max(0, Math.min(offset, size));
    const to = Math.max(0, Math.min(offset + length, size));
    if (to < from) return { start: this.position(offset), end: this.position(offset + length) };
    this.scanTo(to);
    const starts = this.starts;
    const line = this.lineAt(from, 0);
    const next = starts[line + 1];
    const endLine = next === undefined || next > to ? line : this.lineAt(to, line + 1);
    return {
      start: { line: line + 1, column: from - starts[line]! + 1 },
      end: { line: endLine + 1, column: to - starts[endLine]! + 1 },
    };
  }

  /** The 0-based line of a scanned offset, searched from line `low` (at or before it) on. */
  private lineAt(offset: number, low: number): number {
    const starts = this.starts;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  offset(position: Position): number {
    this.scanToLine(position.line);
    const start = this.starts[Math.max(0, Math.min(position.line - 1, this.starts.length - 1))]!;
    return Math.min(this.text.length, start + position.column - 1);
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    this.scanToLine(line + 1);
    const start = this.starts[line - 1];
    if (start === undefined) return "";
    const next = this.starts[line];
    let end = next === undefined ? this.text.length : next;
    while (end > start && (this.text[end - 1] === "\n" || this.text[end - 1] === "\r")) end--;
    return this.text.slice(start, end);
  }

  /** Finds the line starts up to `offset` (every line break before it). */
  private scanTo(offset: number): void {
    if (offset <= this.scanned) return;
    const { text, starts } = this;
    const from = this.scanned;
    // A native search of the part not read yet (a slice is a view of the text, not a copy, and bounds the
    // search at `offset`): a character loop took about 30 instructions a character (each `charCodeAt`
    // checks the string's representation again), the largest cost of placing a run's findings. Only a
    // part holding a carriage return (which may end a line alone) is read by the loop.
    const part = text.slice(from, offset);
    if (part.indexOf("\r") === -1)
      for (let at = part.indexOf("\n"); at !== -1; at = part.indexOf("\n", at + 1))
        starts.push(from + at + 1);
    else
      for (let i = from; i < offset; i++) {
        const ch = text.charCodeAt(i);
        if (ch === 10) starts.push(i + 1);
        else if (ch === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
      }
    this.scanned = offset;
  }

  /** Finds the line starts up to that of `line` (1-based), or all of them when the text has fewer lines. */
  private scanToLine(line: number): void {
    const { text, starts } = this;
    let i = this.scanned;
    for (; starts.length < line && i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 10) starts.push(i + 1);
      else if (ch === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
    }
    this.scanned = Math.max(this.scanned, i);
  }
}
