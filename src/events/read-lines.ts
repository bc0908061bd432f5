/**
 * Splits a byte stream (a file or standard input) into lines as it arrives, without ever holding
 * more than one chunk and one line: a recording of any size, or one piped from a live client,
 * streams through. Lines end at "\n" ("\r\n" is handled by the validator).
 */
import { StringDecoder } from "node:string_decoder";

/**
 * Bytes are decoded a few KiB at a time, not a whole read at once: the decoded text stays alive while
 * its lines are checked, and whatever is alive when V8 collects the young generation is copied and
 * counts toward growing it. A 64 KiB string per read made that generation grow to its maximum
 * (32 MB) on long recordings; 4 KiB pieces cost about 30,000 more decoder calls per 128 MB.
 */
const DECODE_BYTES = 4096;

export interface LineSink {
  line(text: string): void;
  /** A line longer than `maxLineChars`: its text is dropped unread, only its length is reported. */
  overlong(chars: number): void;
}

export async function readLines(stream: AsyncIterable<Buffer | string>, sink: LineSink, maxLineChars: number): Promise<void> {
  const decoder = new StringDecoder("utf8");
  let carry = "";
  let skipping = 0;
  const take = (text: string) => {
    let start = 0;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      if (skipping) {
        sink.overlong(skipping + newline);
        skipping = 0;
      } else if (carry) {
        sink.line(carry + text.slice(start, newline));
        carry = "";
      } else {
        sink.line(text.slice(start, newline));
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
    else for (let at = 0; at < chunk.length; at += DECODE_BYTES) take(decoder.write(chunk.subarray(at, at + DECODE_BYTES)));
  }
  take(decoder.end());
  if (skipping) sink.overlong(skipping);
  else if (carry) sink.line(carry);
}
