/**
 * Splits a byte stream (a file or standard input) into lines as it arrives, without ever holding
 * more than one chunk and one line: a recording of any size, or one piped from a live client,
 * streams through. Lines end at "\n" ("\r\n" is handled by the validator).
 */
import { StringDecoder } from "node:string_decoder";

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
  for await (const chunk of stream) take(typeof chunk === "string" ? chunk : decoder.write(chunk));
  take(decoder.end());
  if (skipping) sink.overlong(skipping);
  else if (carry) sink.line(carry);
}
