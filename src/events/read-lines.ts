/**
 * Splits a byte stream (a file or standard input) into lines as it arrives, without ever holding
 * more than one chunk and one line: a recording of any size, or one piped from a live client,
 * streams through. Lines end at "\n" ("\r\n" is handled by the validator).
 */
import { isUtf8 } from "node:buffer";
import { StringDecoder } from "node:string_decoder";

/**
 * Bytes are decoded a few KiB at a time, not a whole read at once: the decoded text stays alive while
 * its lines are checked, and whatever is alive when V8 collects the young generation is copied and
 * counts toward growing it. A 64 KiB string per read made that generation grow to its maximum
 * (32 MB) on long recordings; 4 KiB pieces cost about 30,000 more decoder calls per 128 MB.
 */
const DECODE_BYTES = 4096;

export interface LineSink {
  /** A line; `invalidUtf8` when some of its bytes were not UTF-8 (the decoder put U+FFFD for them). */
  line(text: string, invalidUtf8: boolean): void;
  /** A line longer than `maxLineChars`: its text is dropped unread, only its length is reported. */
  overlong(chars: number): void;
  /** After each chunk: a promise to wait for before reading on (the output's reader is behind), or undefined. */
  pause?(): Promise<void> | undefined;
}

export async function readLines(
  stream: AsyncIterable<Buffer | string>,
  sink: LineSink,
  maxLineChars: number,
): Promise<void> {
  const decoder = new StringDecoder("utf8");
  const utf8 = new Utf8Check();
  let carry = "";
  let skipping = 0;
  /** Lines handed to the sink so far, and the (0-based) numbers of lines ahead that hold bytes that are not UTF-8. */
  let lines = 0;
  let invalidLines: number[] = [];
  const emit = (text: string) => {
    let invalid = false;
    while (invalidLines.length > 0 && invalidLines[0]! <= lines)
      invalid = invalidLines.shift() === lines || invalid;
    lines++;
    sink.line(text, invalid);
  };
  const take = (text: string) => {
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      if (skipping) {
        lines++;
        sink.overlong(skipping + newline);
        skipping = 0;
      } else if (carry) {
        emit(carry + text.slice(start, newline));
        carry = "";
      } else {
        emit(text.slice(start, newline));
      }
      start = newline + 1;
      newline = text.indexOf("\n", start);
    }
    if (start >= text.length) return;
    if (skipping) skipping += text.length - start;
    else if (carry.length + text.length - start > maxLineChars) {
      skipping = carry.length + text.length - start;
      carry = "";
    } else carry += text.slice(start);
  };
  for await (const chunk of stream) {
    if (typeof chunk === "string") take(chunk);
    else {
      const invalid = utf8.check(chunk);
      if (invalid.length > 0)
        invalidLines = [...invalidLines, ...invalid.map((ahead) => lines + ahead)];
      for (let at = 0; at < chunk.length; at += DECODE_BYTES)
        take(decoder.write(chunk.subarray(at, at + DECODE_BYTES)));
    }
    const wait = sink.pause?.();
    if (wait) await wait;
  }
  if (utf8.truncated()) invalidLines.push(lines);
  take(decoder.end());
  if (skipping) sink.overlong(skipping);
  else if (carry) emit(carry);
}

/**
 * Whether a byte stream is UTF-8, chunk by chunk: Node's native check on each chunk, with the bytes
 * of a character cut by the chunk's end carried to the next one. Only a chunk that fails is walked
 * byte by byte, to find which of its lines hold the bad bytes.
 */
class Utf8Check {
  private tail: Buffer | undefined;

  /** For each line of the chunk with bytes that are not UTF-8: how many line breaks precede it in the chunk. */
  check(chunk: Buffer): number[] {
    const bytes = this.tail ? Buffer.concat([this.tail, chunk]) : chunk;
    const end = completeEnd(bytes);
    this.tail = end < bytes.length ? Buffer.from(bytes.subarray(end)) : undefined;
    const complete = bytes.subarray(0, end);
    return isUtf8(complete) ? [] : linesWithInvalidBytes(complete);
  }

  /** Whether the stream ended inside a character. */
  truncated(): boolean {
    return this.tail !== undefined;
  }
}

/** Where the last character of `bytes` that is cut short begins, or the length when none is. */
function completeEnd(bytes: Buffer): number {
  for (let i = bytes.length - 1; i >= 0 && i >= bytes.length - 3; i--) {
    const byte = bytes[i]!;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return bytes.length - i < need ? i : bytes.length;
  }
  return bytes.length;
}

/** The lines (counted by the line breaks before them) that hold a byte sequence that is not UTF-8 (RFC 3629). */
function linesWithInvalidBytes(bytes: Buffer): number[] {
  const found: number[] = [];
  let line = 0;
  let i = 0;
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte === 10) line++;
    if (byte < 0x80) {
      i++;
      continue;
    }
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      i += length;
      continue;
    }
    if (found[found.length - 1] !== line) found.push(line);
    i++;
  }
  return found;
}

/** The length of the well-formed UTF-8 sequence at `i`, or 0 (overlong forms, surrogates and code points past U+10FFFF are not). */
function sequenceLength(bytes: Buffer, i: number): number {
  const lead = bytes[i]!;
  const next = (k: number) => bytes[i + k] ?? 0;
  const continuation = (k: number) => (next(k) & 0xc0) === 0x80;
  if (lead >= 0xc2 && lead <= 0xdf) return continuation(1) ? 2 : 0;
  if (lead >= 0xe0 && lead <= 0xef) {
    const second = next(1);
    if (lead === 0xe0 && second < 0xa0) return 0;
    if (lead === 0xed && second > 0x9f) return 0;
    return continuation(1) && continuation(2) ? 3 : 0;
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const second = next(1);
    if (lead === 0xf0 && second < 0x90) return 0;
    if (lead === 0xf4 && second > 0x8f) return 0;
    return continuation(1) && continuation(2) && continuation(3) ? 4 : 0;
  }
  return 0;
}
