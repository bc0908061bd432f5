import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { DescriptorOutput, type FallbackStream } from "../../src/core/output.js";

/** A descriptor that takes `room` bytes in all, then refuses (EAGAIN), as a full non-blocking pipe. */
function pipeWithRoom(room: number) {
  const taken: Buffer[] = [];
  let left = room;
  let calls = 0;
  const write = (_fd: number, data: string | Uint8Array): number => {
    calls++;
    const bytes = typeof data === "string" ? Buffer.from(data) : Buffer.from(data);
    if (left === 0)
      throw Object.assign(new Error("EAGAIN: resource temporarily unavailable"), {
        code: "EAGAIN",
      });
    const part = bytes.subarray(0, left);
    left -= part.length;
    taken.push(part);
    return part.length;
  };
  return { write, taken, calls: () => calls };
}

/** Node's stream as the fallback, recording what it was given. */
class RecordingStream extends EventEmitter implements FallbackStream {
  readonly chunks: Buffer[] = [];
  writableNeedDrain = false;
  write(chunk: string | Uint8Array): boolean {
    this.chunks.push(Buffer.from(chunk));
    return true;
  }
}

describe("DescriptorOutput (standard output written with fs.writeSync)", () => {
  it("writes whole writes to the descriptor and never makes the stream", () => {
    const pipe = pipeWithRoom(1 << 20);
    let made = 0;
    const output = new DescriptorOutput(1, () => (made++, new RecordingStream()), pipe.write);
    expect(output.write("one ✓\n")).toBe(true);
    expect(output.write("two\n")).toBe(true);
    expect(Buffer.concat(pipe.taken).toString()).toBe("one ✓\ntwo\n");
    expect(made).toBe(0);
    expect(output.writableNeedDrain).toBe(false);
  });

  it("hands the rest of a partial write, and every later write, to the stream: in order, nothing lost", () => {
    // Room for 5 bytes: "héllo" is 6 bytes, so the descriptor takes half of the é's bytes.
    const pipe = pipeWithRoom(5);
    const stream = new RecordingStream();
    let made = 0;
    const output = new DescriptorOutput(1, () => (made++, stream), pipe.write);
    expect(output.write("ab")).toBe(true);
    output.write("cdé!");
    output.write("next\n");
    expect(made).toBe(1);
    const all = Buffer.concat([...pipe.taken, ...stream.chunks]).toString();
    expect(all).toBe("abcdé!next\n");
    // Once the stream exists nothing more goes to the descriptor directly.
    const calls = pipe.calls();
    output.write("more");
    expect(pipe.calls()).toBe(calls);
  });

  it("writes on when the descriptor takes a write in parts, splitting characters, without the stream", () => {
    // At most 4 bytes a call: "›" (3 bytes) and "é" (2) are cut between calls.
    const taken: Buffer[] = [];
    let made = 0;
    const output = new DescriptorOutput(
      1,
      () => (made++, new RecordingStream()),
      (_fd, data) => {
        const part = Buffer.from(data).subarray(0, 4);
        taken.push(part);
        return part.length;
      },
    );
    expect(output.write("a › b é ›\n")).toBe(true);
    expect(Buffer.concat(taken).toString()).toBe("a › b é ›\n");
    expect(taken.length).toBe(Math.ceil(Buffer.byteLength("a › b é ›\n") / 4));
    expect(made).toBe(0);
  });

  it("gives a write the descriptor refuses outright (EAGAIN) to the stream", () => {
    const pipe = pipeWithRoom(0);
    const stream = new RecordingStream();
    const output = new DescriptorOutput(1, () => stream, pipe.write);
    output.write("all of it\n");
    expect(Buffer.concat(stream.chunks).toString()).toBe("all of it\n");
  });

  it("throws a closed reader (EPIPE) as the synchronous stream does, without making the stream", () => {
    let made = 0;
    const output = new DescriptorOutput(
      1,
      () => (made++, new RecordingStream()),
      () => {
        throw Object.assign(new Error("EPIPE: broken pipe"), { code: "EPIPE" });
      },
    );
    expect(() => output.write("x")).toThrow(expect.objectContaining({ code: "EPIPE" }));
    expect(made).toBe(0);
  });

  it("attaches error listeners given before the fall-back to the stream, and forwards drain waits", () => {
    const stream = new RecordingStream();
    const output = new DescriptorOutput(1, () => stream, pipeWithRoom(0).write);
    const errors: string[] = [];
    output.on("error", (error) => errors.push(String(error.code)));
    output.write("x");
    stream.emit("error", Object.assign(new Error("late"), { code: "EPIPE" }));
    expect(errors).toEqual(["EPIPE"]);
    stream.writableNeedDrain = true;
    expect(output.writableNeedDrain).toBe(true);
    let drained = 0;
    const listener = () => drained++;
    output.once("drain", listener);
    stream.emit("drain");
    output.off("drain", listener);
    expect(drained).toBe(1);
  });
});
