import { createRequire } from "node:module";
import { constants, type Stats } from "node:fs";
import {
  access,
  chmod,
  chown,
  lstat,
  mkdir,
  open,
  realpath,
  rename,
  rm,
  stat,
  statfs,
  type FileHandle,
} from "node:fs/promises";
import path from "node:path";
import { isWithin, repositoryRoot, wasReadThisRun } from "./source/read.js";
import { terminalSafe, type TextSink } from "./terminal-text.js";

/**
 * Every file caplint writes goes through here: fixed capability files (`--fix`) and reports
 * (`--output`, `report --html`). The rules, for a tool that may run as root on a stranger's
 * repository:
 *
 * - never write through a symbolic link (a committed `report.sarif -> ~/.ssh/authorized_keys`);
 * - a regular file is replaced atomically (temporary file in the same folder, flushed, renamed), keeping
 *   its mode, its extended attributes (user attributes, ACLs, SELinux labels) and, when caplint may,
 *   its owner and group; a file with other hard links, or whose owner or attributes cannot be carried
 *   over, is written in place after the temporary copy proved the text fits, so it keeps its identity;
 *   a read-only file is refused;
 * - a character device, FIFO or socket (`/dev/null`, `/dev/stdout`, a named pipe) is written directly,
 *   never replaced by a regular file; a block device is refused;
 * - the temporary name is short, so names near the file-system limit still work.
 */
export class WriteRefused extends Error {}

/** Replaces the contents of a regular file (or creates it), keeping its identity; see above. */
export async function replaceFile(file: string, text: string): Promise<void> {
  const sink = await replacementSink(file);
  sink.write(text);
  await sink.finish();
}

/**
 * A file written piece by piece (`events -o` of a million findings never holds the report whole):
 * `write` queues text and says false when over {@link HIGH_WATER} characters wait, `drained()` waits
 * for them; nothing replaces the target before `finish()`, and `abandon()` leaves it untouched.
 */
export interface FileSink {
  write(text: string): boolean;
  drained(): Promise<void> | undefined;
  finish(): Promise<void>;
  abandon(): Promise<void>;
}

const HIGH_WATER = 1 << 20;

/** A {@link FileSink} into a temporary file in the target's folder, put in place by `finish()` keeping the target's identity. */
async function replacementSink(file: string): Promise<FileSink> {
  const existing = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (existing?.isSymbolicLink())
    throw new WriteRefused("is a symbolic link; not written through it");
  if (existing && !existing.isFile())
    throw new WriteRefused(existing.isDirectory() ? "is a directory" : "is not a regular file");
  if (existing && (await isReadOnly(file, existing)))
    throw new WriteRefused("is read-only; not written (make it writable first)");
  const temporary = path.join(path.dirname(file), `.caplint-${process.pid}-${temporaryName()}.tmp`);
  // `wx`: never follow or clobber something already at the temporary name.
  const handle = await open(temporary, "wx", existing ? existing.mode & 0o7777 : 0o666);
  const queue = new WriteQueue((text) => writeWhole(handle, text));
  const discard = async () => {
    await handle.close().catch(() => {});
    await rm(temporary, { force: true });
  };
  return {
    write: (text) => queue.write(text),
    drained: () => queue.drained(),
    abandon: discard,
    finish: async () => {
      try {
        await queue.flushed();
        await handle.sync();
        await handle.close();
        await putInPlace(file, temporary, existing);
      } catch (error) {
        await discard();
        throw error;
      }
    },
  };
}

/**
 * Ordered asynchronous writes, gathered into pieces of {@link PIECE} characters (one system call per
 * finding doubled the time of a million), with a bound on what waits; the first failure is thrown by
 * `flushed()`.
 */
class WriteQueue {
  private gathered = "";
  private waiting = 0;
  private tail: Promise<unknown> = Promise.resolve();
  private failure: unknown;
  constructor(private readonly writeOne: (text: string) => Promise<unknown>) {}

  write(text: string): boolean {
    this.gathered += text;
    if (this.gathered.length >= PIECE) this.send();
    return this.waiting < HIGH_WATER;
  }

  drained(): Promise<void> | undefined {
    return this.waiting < HIGH_WATER ? undefined : this.tail.then(() => undefined);
  }

  async flushed(): Promise<void> {
    this.send();
    await this.tail;
    // The write's own rejection, whatever it was, rethrown as the writer gave it.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    if (this.failure !== undefined) throw this.failure;
  }

  private send(): void {
    const text = this.gathered;
    if (text === "") return;
    this.gathered = "";
    this.waiting += text.length;
    this.tail = this.tail
      .then(() => (this.failure === undefined ? this.writeOne(text) : undefined))
      .catch((error: unknown) => (this.failure ??= error))
      .finally(() => (this.waiting -= text.length));
  }
}

const PIECE = 1 << 16;

/**
 * Writes all of `text`: a write may take only part of what it is given (the disk filled up, the
 * file-size limit was reached) and say so only by the count it returns, the error coming with the next
 * write. Before, that count was ignored, and a full disk renamed a truncated report over the old one.
 */
async function writeWhole(handle: FileHandle, text: string | Buffer): Promise<void> {
  const bytes = typeof text === "string" ? Buffer.from(text, "utf8") : text;
  for (let offset = 0; offset < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, null);
    if (bytesWritten <= 0)
      throw Object.assign(new Error("the file system took no more bytes"), { code: "EIO" });
    offset += bytesWritten;
  }
}

/** Renames the finished temporary file over `file`, or copies it into `file`'s inode when a rename would change its identity. */
async function putInPlace(
  file: string,
  temporary: string,
  existing: Stats | undefined,
): Promise<void> {
  if (!existing) {
    await rename(temporary, file);
    await syncFolder(path.dirname(file));
    return;
  }
  const ownerKept = await keepOwner(temporary, existing);
  const attributesKept = ownerKept && (await copyExtendedAttributes(file, temporary));
  // After chown, which clears set-user-ID bits; open() applied the umask: chmod sets the bits exactly.
  await chmod(temporary, existing.mode & 0o7777);
  if (existing.nlink > 1 || !ownerKept || !attributesKept) {
    // A rename would split the hard links, hand the file to another owner or drop attributes: write the same inode.
    await copyInPlace(temporary, file, existing);
    await rm(temporary, { force: true });
    return;
  }
  await rename(temporary, file);
  await syncFolder(path.dirname(file));
}

async function isReadOnly(file: string, info: Stats): Promise<boolean> {
  // Root may write anything; a file without any write bit is still one its owner meant to keep.
  if ((info.mode & 0o222) === 0) return true;
  return access(file, constants.W_OK).then(
    () => false,
    () => true,
  );
}

async function keepOwner(temporary: string, existing: Stats): Promise<boolean> {
  const created = await stat(temporary);
  if (created.uid === existing.uid && created.gid === existing.gid) return true;
  try {
    await chown(temporary, existing.uid, existing.gid);
    return true;
  } catch {
    return false;
  }
}

type ExtendedAttributes = typeof import("@napi-rs/xattr");

/**
 * Gives `temporary` exactly the extended attributes of `file` (what `getfattr -d -m -` lists: `user.*`,
 * POSIX ACLs, `security.*`), so the rename keeps them. False when one cannot be set or removed (a
 * `security.*` attribute without the privilege, a file system that refuses `user.*`): the caller then
 * writes in place. Without the native module (a platform it has no build for, the bundled GitHub
 * Action without node_modules) attributes cannot be seen, and the file is replaced as before.
 */
async function copyExtendedAttributes(file: string, temporary: string): Promise<boolean> {
  const attributes = extendedAttributes();
  if (!attributes) return true;
  // A file system without extended attributes has none to keep.
  const wanted = await attributes.listAttributes(file).catch(() => undefined);
  if (wanted === undefined) return true;
  try {
    for (const name of wanted) {
      const value = await attributes.getAttribute(file, name);
      if (value !== null) await attributes.setAttribute(temporary, name, value);
    }
    // A default ACL of the folder, or a label the policy gave the new file, that the original did not have.
    for (const name of await attributes.listAttributes(temporary)) {
      if (!wanted.includes(name)) await attributes.removeAttribute(temporary, name);
    }
    return true;
  } catch {
    return false;
  }
}

let loadedAttributes: ExtendedAttributes | null | undefined;
function extendedAttributes(): ExtendedAttributes | null {
  if (loadedAttributes === undefined) {
    try {
      loadedAttributes = createRequire(import.meta.url)("@napi-rs/xattr") as ExtendedAttributes;
    } catch {
      loadedAttributes = null;
    }
  }
  return loadedAttributes;
}

async function copyInPlace(temporary: string, file: string, before: Stats): Promise<void> {
  // O_NOFOLLOW: the path must still be the file checked above, not a link swapped in meanwhile.
  const handle = await open(file, constants.O_WRONLY | constants.O_NOFOLLOW);
  const source = await open(temporary, "r");
  try {
    const now = await handle.stat();
    if (now.ino !== before.ino || now.dev !== before.dev)
      throw new WriteRefused("was replaced while caplint was writing it");
    const size = (await source.stat()).size;
    // Once the first byte is overwritten the old text is gone: a disk that could not take the whole new
    // text (a copy-on-write file system needs it all again) is found before, and the file left as it was.
    const room = await statfs(path.dirname(file)).then(
      (space) => space.bavail * space.bsize,
      () => Number.POSITIVE_INFINITY,
    );
    if (room < size) throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
    const buffer = Buffer.alloc(1 << 16);
    for (let position = 0; ;) {
      const { bytesRead } = await source.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      await writeWhole(handle, buffer.subarray(0, bytesRead));
      position += bytesRead;
    }
    // Overwritten from the start, then cut to the new length: a longer old text loses its tail only now.
    await handle.truncate(size);
    await handle.sync();
  } finally {
    await source.close();
    await handle.close();
  }
}

/** Makes a rename survive a crash; a file system that cannot sync a folder has nothing more to offer. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY).catch(() => undefined);
  if (!handle) return;
  await handle.sync().catch(() => {});
  await handle.close().catch(() => {});
}

export interface OutputTarget {
  /** The path as given (`-` is standard output); relative to `cwd`. */
  given: string;
  cwd: string;
  stdout: TextSink;
  /** Files the run read: a report never replaces one of them. */
  inputs: readonly string[];
  /**
   * The names of the files a project of the command's kind holds (its configs), which a report never
   * replaces even when this run did not read them; given by the domain (core names no framework).
   */
  projectFiles?: RegExp | undefined;
}

/**
 * Writes a report to `--output`/`--html`, through the terminal-safe layer like standard output.
 * Throws {@link WriteRefused} (or an I/O error) with the target untouched.
 */
export async function writeReport(target: OutputTarget, text: string): Promise<void> {
  const sink = await openReport(target);
  sink.write(text);
  await sink.finish();
}

/**
 * A report written as it is produced (`events -o`), each piece through the terminal-safe layer: to
 * standard output (`-`), onto a device or FIFO, or into a temporary file that `finish()` puts in place.
 * Every refusal of {@link writeReport} happens here, before anything is written.
 */
export async function openReport(target: OutputTarget): Promise<FileSink> {
  if (target.given === "-") return safeSink(standardOutputSink(target.stdout));
  const file = path.resolve(target.cwd, target.given);
  const link = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  const info = link?.isSymbolicLink() ? await stat(file).catch(() => undefined) : link;
  if (info && (wasReadThisRun(info) || (await isInput(info, target.inputs))))
    throw new WriteRefused(
      "is one of the files being checked; refusing to replace it with the report",
    );
  if (info?.isFile() && target.projectFiles?.test(path.basename(file)))
    throw new WriteRefused(
      `is an app file caplint reads (${path.basename(file)}); refusing to replace it with the report`,
    );
  const missing = link === undefined ? await missingFolders(path.dirname(file)) : undefined;
  const escape = await linkedOutOfRepository(
    missing ? path.join(missing.existing, "-") : file,
    path.resolve(target.cwd),
  );
  if (escape)
    throw new WriteRefused(
      `is reached through a symbolic link out of the repository (to ${escape}); not written through it`,
    );
  if (info?.isBlockDevice())
    throw new WriteRefused("is a block device; refusing to write a report onto it");
  if (info && (info.isCharacterDevice() || info.isFIFO() || info.isSocket())) {
    // /dev/null, /dev/stdout (a link to the pipe or terminal), a named pipe: written, never replaced.
    const handle = await open(file, constants.O_WRONLY | constants.O_APPEND);
    return safeSink(
      queuedSink(new WriteQueue((text) => writeWhole(handle, text)), () => handle.close()),
    );
  }
  if (link?.isSymbolicLink()) {
    // /dev/stdout redirected to a file is such a link too; what it names is the caller's to choose.
    if (isStandardStreamAlias(file)) return safeSink(standardOutputSink(target.stdout));
    throw new WriteRefused(
      "is a symbolic link; not written through it (give the path of its target)",
    );
  }
  // A folder that does not exist yet is made, as ESLint's --output-file does (`-o reports/ci/check.sarif`).
  if (missing) await mkdir(path.dirname(file), { recursive: true });
  return safeSink(await replacementSink(file));
}

/** The nearest folder of `folder` that exists, when `folder` itself does not (it is made before the report is written). */
async function missingFolders(folder: string): Promise<{ existing: string } | undefined> {
  let existing = folder;
  for (;;) {
    const info = await lstat(existing).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (info) return existing === folder ? undefined : { existing };
    const parent = path.dirname(existing);
    if (parent === existing) return undefined;
    existing = parent;
  }
}

function queuedSink(queue: WriteQueue, close: () => Promise<void>): FileSink {
  return {
    write: (text) => queue.write(text),
    drained: () => queue.drained(),
    finish: async () => {
      try {
        await queue.flushed();
      } finally {
        await close();
      }
    },
    abandon: () => close().catch(() => {}),
  };
}

function safeSink(sink: FileSink): FileSink {
  return { ...sink, write: (text) => sink.write(terminalSafe(text)) };
}

/** Standard output may say when a slow reader has caught up (`SafeOutput.drained()`). */
function standardOutputSink(
  stdout: TextSink & { drained?: () => Promise<void> | undefined },
): FileSink {
  return {
    write: (text) => stdout.write(text) !== false,
    drained: () => stdout.drained?.(),
    finish: () => Promise.resolve(),
    abandon: () => Promise.resolve(),
  };
}

/**
 * The real folder of `file` when a folder on its way is a symbolic link that leads out of the
 * repository the run is in (the nearest folder above `cwd` with `.git`, else `cwd`): a committed
 * `reports -> /etc` must not turn `-o reports/x` into a write outside. A path given outside the
 * repository is the user's own choice.
 */
async function linkedOutOfRepository(file: string, cwd: string): Promise<string | undefined> {
  const root = repositoryRoot(cwd) ?? cwd;
  const folder = path.dirname(file);
  if (!isWithin(folder, root)) return undefined;
  const realFolder = await realpath(folder).catch(() => undefined);
  if (realFolder === undefined) return undefined;
  return isWithin(realFolder, await realpath(root).catch(() => root)) ? undefined : realFolder;
}

/** `/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`: the caller's standard output, however it is connected. */
function isStandardStreamAlias(file: string): boolean {
  return /^\/(dev\/stdout|dev\/fd\/1|proc\/self\/fd\/1)$/.test(file);
}

async function isInput(info: Stats, inputs: readonly string[]): Promise<boolean> {
  for (const input of inputs) {
    const other = await stat(input).catch(() => undefined);
    if (other?.isFile() && other.ino === info.ino && other.dev === info.dev) return true;
  }
  return false;
}

/** Random enough that two runs never share a temporary file; node:crypto loads only when a file is written. */
function temporaryName(): string {
  const { randomBytes } = createRequire(import.meta.url)(
    "node:crypto",
  ) as typeof import("node:crypto");
  return randomBytes(6).toString("hex");
}
