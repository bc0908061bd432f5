import { fstatSync, writeSync } from "node:fs";
import { FatalError } from "./errors.js";
import { describeIoError } from "./source/read.js";
import { openReport, writeReport, type FileSink, type OutputTarget } from "./file-output.js";

/** `--output FILE` / `--html FILE`: failures and refusals are fatal (exit 2), with the target untouched. */
export async function writeOutputFile(
  option: string,
  target: OutputTarget,
  text: string,
): Promise<void> {
  try {
    await writeReport(target, text);
  } catch (error) {
    throw new FatalError(
      `${option} ${target.given}: cannot write the report: ${describeIoError(error)}`,
    );
  }
}

/**
 * `--output FILE` written as the report is produced (`events`): opening refuses what `writeReport`
 * refuses, and a failure to write or finish is fatal (exit 2) with the target untouched.
 */
export async function openOutputFile(option: string, target: OutputTarget): Promise<FileSink> {
  const failed = (error: unknown) =>
    new FatalError(`${option} ${target.given}: cannot write the report: ${describeIoError(error)}`);
  const sink = await openReport(target).catch((error: unknown) => {
    throw failed(error);
  });
  return {
    ...sink,
    finish: () =>
      sink.finish().catch((error: unknown) => {
        throw failed(error);
      }),
  };
}

/** Collects what a reporter prints, to be written to a file afterwards; not a terminal, so no colour by default. */
export class CapturedOutput {
  text = "";
  write(chunk: string): void {
    this.text += chunk;
  }
}

/** The stream a {@link DescriptorOutput} falls back to: `process.stdout` or `process.stderr`. */
export interface FallbackStream {
  write(chunk: string | Uint8Array): boolean;
  on(event: "error", listener: (error: NodeJS.ErrnoException) => void): unknown;
  once(event: "drain" | "close" | "error", listener: () => void): unknown;
  off(event: "drain" | "close" | "error", listener: () => void): unknown;
  readonly writableNeedDrain: boolean;
}

/**
 * Standard output (or error) on a pipe or a file, written with `fs.writeSync` until that cannot take
 * a write whole, then through Node's stream. On a pipe, Node's stream is a net socket, and making it
 * loads and builds the net and stream modules: 18 M instructions of a one-file check that prints one
 * line (docs/performance.md). A write is synchronous as long as the descriptor takes it: a blocking
 * pipe or a file always does (the write waits for the reader, as Node's own stream on a pipe does on
 * Linux). A pipe that was made non-blocking (a Node parent's, shared with the child) may take part of
 * a write, or none (EAGAIN) when its reader is slow: the rest of that write and every later one then go
 * to the stream, made at that moment, which waits for the reader and keeps the process alive until its
 * queue is written. Nothing is written directly once the stream exists, so the order is kept and
 * nothing is lost. A closed reader (EPIPE) is thrown as the synchronous stream throws it; any other
 * error hands the write to the stream, which reports it as before.
 */
export class DescriptorOutput {
  private stream: FallbackStream | undefined;
  private readonly errorListeners: ((error: NodeJS.ErrnoException) => void)[] = [];

  constructor(
    private readonly fd: number,
    private readonly makeStream: () => FallbackStream,
    private readonly writeToDescriptor: (fd: number, data: Uint8Array) => number = writeSync,
  ) {}

  write(chunk: string): boolean {
    if (this.stream) return this.stream.write(chunk);
    let rest = utf8(chunk);
    try {
      for (;;) {
        const written = this.writeToDescriptor(this.fd, rest);
        if (written >= rest.length) return true;
        // Part of it taken (a non-blocking pipe with little room): the rest.
        rest = rest.subarray(written);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EPIPE") throw error;
      return this.fallBack().write(rest);
    }
  }

  private fallBack(): FallbackStream {
    const stream = this.makeStream();
    for (const listener of this.errorListeners) stream.on("error", listener);
    this.stream = stream;
    return stream;
  }

  get writableNeedDrain(): boolean {
    return this.stream?.writableNeedDrain ?? false;
  }

  on(event: "error", listener: (error: NodeJS.ErrnoException) => void): this {
    if (this.stream) this.stream.on(event, listener);
    else this.errorListeners.push(listener);
    return this;
  }

  once(event: "drain" | "close" | "error", listener: () => void): this {
    this.stream?.once(event, listener);
    return this;
  }

  off(event: "drain" | "close" | "error", listener: () => void): this {
    this.stream?.off(event, listener);
    return this;
  }
}

/**
 * `text` as UTF-8, encoded in one pass that also counts the bytes: a string handed to `writeSync`
 * is encoded there, but then telling a whole write from a partial one took `Buffer.byteLength`, a
 * second pass (30 M instructions of real-world-12's compact report, a two-byte string of 3.4 M
 * characters). Every character takes at most three bytes.
 */
function utf8(text: string): Buffer {
  const bytes = Buffer.allocUnsafe(text.length * 3);
  return bytes.subarray(0, bytes.write(text));
}

/**
 * Standard output or error as the bin gives it to `main`: a {@link DescriptorOutput} when the
 * descriptor is a pipe, a socket or a file, else Node's stream (a terminal's is a TTY stream, with
 * its width and colours; anything else, as Node makes it). Made on first use, as Node's own.
 */
export function standardStream(
  fd: number,
  makeStream: () => FallbackStream,
): () => DescriptorOutput | FallbackStream {
  let made: DescriptorOutput | FallbackStream | undefined;
  return () => (made ??= writesDirectly(fd) ? new DescriptorOutput(fd, makeStream) : makeStream());
}

function writesDirectly(fd: number): boolean {
  try {
    const stats = fstatSync(fd);
    return stats.isFIFO() || stats.isSocket() || stats.isFile();
  } catch {
    return false;
  }
}
