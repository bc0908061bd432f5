import type { Position } from "../location.js";

/** Maps character offsets to 1-based line/column positions. */
export class LineIndex {
  private starts: number[] | undefined;

  constructor(readonly text: string) {}

  /** Where each line starts, found on first use: a file without findings never needs them. */
  private get lineStarts(): number[] {
    return (this.starts ??= lineStartsOf(this.text));
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: clamped - this.lineStarts[low]! + 1 };
  }

  offset(position: Position): number {
    const start =
      this.lineStarts[Math.max(0, Math.min(position.line - 1, this.lineStarts.length - 1))]!;
    return Math.min(this.text.length, start + position.column - 1);
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    const start = this.lineStarts[line - 1];
    if (start === undefined) return "";
    const next = this.lineStarts[line];
    let end = next === undefined ? this.text.length : next;
    while (end > start && (this.text[end - 1] === "\n" || this.text[end - 1] === "\r")) end--;
    return this.text.slice(start, end);
  }
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  // One character loop, not indexOf: from the V8 code cache, indexOf over a long line sometimes ran
  // hundreds of times slower than compiled fresh (a 15 MB one-line file: 1.5 s runs became 5 s).
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) starts.push(i + 1);
    else if (ch === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
}
