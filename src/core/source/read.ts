import { AsyncLocalStorage } from "node:async_hooks";
import { isAscii, isUtf8 } from "node:buffer";
import {
  closeSync,
  constants as fsConstants,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  statSync,
  type Dirent,
} from "node:fs";
import path from "node:path";
import { memoPerLoad, noteRead } from "./read-log.js";

/** Files larger than this are refused with a finding (configurable with `--max-file-size`). */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** `invalidUtf8At`: character offset of the first byte that is not UTF-8 (the text has U+FFFD there). */
export type ReadResult =
  { ok: true; text: string; invalidUtf8At?: number } | { ok: false; message: string };

/**
 * Reads a text file with a size limit; never throws for file problems. Synchronous on purpose:
 * capability files are small and local, and for thousands of them the thread-pool round trips of
 * asynchronous reads (stat, open, read, close) cost more than the reads (3x in the benchmark).
 * The stat comes first so that a FIFO is never opened (which would block), unless the caller knows
 * the path a regular file (`known`).
 */
export function readTextFile(
  file: string,
  maxBytes: number,
  /**
   * `"regular file"`: a walk (its folder entry's type, or the stat of a link it follows) or
   * {@link pathKind} found the path a regular file, so the stat before the read can be left out for a
   * small file; see {@link smallRegularFileText}.
   */
  known?: "regular file",
): ReadResult {
  noteRead("files", file);
  const editorTexts = openBuffers.getStore();
  const open = editorTexts?.get(file);
  if (open !== undefined) return { ok: true, text: open };
  if (known === "regular file") {
    const small = smallRegularFileText(fsPath(file), maxBytes);
    if (small !== undefined) {
      // Its identity is asked of the disk only if a report is to be written (`wasReadThisRun`).
      if (editorTexts === undefined) logReadByName(file);
      return small;
    }
  }
  try {
    const target = fsPath(file);
    const info = statSync(target);
    if (info.isDirectory()) return { ok: false, message: "is a directory, not a file" };
    if (!info.isFile())
      return { ok: false, message: "is not a regular file (FIFO, socket or device); skipped" };
    if (info.size > maxBytes) {
      return {
        ok: false,
        message: `file is ${formatBytes(info.size)}, over the ${formatBytes(maxBytes)} limit (raise it with --max-file-size)`,
      };
    }
    const result: ReadResult =
      info.size >= LARGE_FILE_BYTES ? largeFileText(target) : smallFileText(target);
    // An editor's check writes nothing, and the language server lives for hours while every save
    // makes a new inode: its reads are not logged, or the log would grow without end.
    if (editorTexts === undefined) filesRead.add(fileIdentity(info));
    return result;
  } catch (error) {
    return { ok: false, message: `cannot read file: ${describeIoError(error)}` };
  }
}

/**
 * From this size on a file is read as bytes and, when they are all ASCII (as capability files
 * nearly always are), taken as one-byte text directly: Node's UTF-8 read decodes at about a third of
 * the speed of the ASCII check and copy (bench row 6's 15 MB list: 40 ms against 7.5 ms of CPU).
 * Small files keep the one native call, which saves the system calls of a read into a buffer.
 */
export const LARGE_FILE_BYTES = 1024 * 1024;

/**
 * Node reads and decodes a file in one native call (the floor of reading: open, read, close and
 * decode without a buffer handed to JavaScript). Invalid bytes come out as U+FFFD, so a text without
 * one was valid UTF-8; one with a U+FFFD (a real one, or invalid bytes) is read again as bytes and
 * decided exactly.
 */
function smallFileText(target: string | Buffer): ReadResult {
  const text = readFileSync(target, UTF8_READ);
  return text.includes("\ufffd")
    ? { ok: true, ...decodeUtf8(readFileSync(target)) }
    : { ok: true, text };
}

function largeFileText(target: string | Buffer): ReadResult {
  readWork.largeReads++;
  return bytesText(readFileSync(target));
}

/**
 * A file's bytes as text: ASCII bytes are their own characters, as Latin-1 decodes them; anything
 * else is decoded as the small files are (a U+FFFD from the lossy decoder is decided exactly).
 */
function bytesText(bytes: Buffer): ReadResult {
  if (isAscii(bytes)) return { ok: true, text: bytes.toString("latin1") };
  const text = bytes.toString("utf8");
  return text.includes("\ufffd") ? { ok: true, ...decodeUtf8(bytes) } : { ok: true, text };
}

/**
 * The text of a file already known to be a regular file (a walk's or {@link pathKind}'s answer) when
 * it is smaller than {@link SMALL_READ_BYTES} and within the limit, else undefined (the caller then
 * reads it as any file: stat first, each refusal worded). Open, read, a read that finds the end,
 * close: the system calls of `readFileSync` (bench row 5's floor), where a stat before them made five
 * for each of its 2,760 files. What the stat decided is decided without it: the type by the walk (as
 * racy as the stat was: both ask before the open), the size by the read, which takes at most the
 * limit and one byte, so a file over the limit is never read whole; the open does not block (a FIFO
 * put in the file's place since: the read fails or finds nothing, and the stat words it).
 */
function smallRegularFileText(target: string | Buffer, maxBytes: number): ReadResult | undefined {
  let fd: number;
  try {
    fd = openSync(target, OPEN_NOT_BLOCKING);
  } catch {
    return undefined;
  }
  try {
    const wanted = Math.min(SMALL_READ_BYTES, maxBytes + 1);
    const length = readSync(fd, smallRead, 0, wanted, null);
    // Nothing (an empty file, or no regular file any more), as much as was asked (a larger file, or
    // one over the limit), or more past what seemed the end: read as any file.
    if (length === 0 || length === wanted || readSync(fd, smallRead, length, 1, null) !== 0)
      return undefined;
    readWork.smallRegularReads++;
    return smallReadText(length);
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The text of the first `length` bytes of {@link smallRead}: decoded as UTF-8 in one native call
 * (an ASCII text comes out as the one-byte string Latin-1 would make), and decided exactly, as
 * {@link bytesText} does, when a U+FFFD came out. For a small file the calls cost more than the
 * bytes: a view of the buffer, an ASCII check and a Latin-1 copy were three (bench row 2's 2,000
 * files: 13 M instructions more than this one).
 */
function smallReadText(length: number): ReadResult {
  const text = smallRead.toString("utf8", 0, length);
  return text.includes("\ufffd")
    ? { ok: true, ...decodeUtf8(smallRead.subarray(0, length)) }
    : { ok: true, text };
}

/** Files below this size (nearly every capability and permission file) are read by {@link smallRegularFileText}. */
export const SMALL_READ_BYTES = 64 * 1024;

/** The buffer every small read goes into: its text is copied out before the next read. */
const smallRead = Buffer.allocUnsafe(SMALL_READ_BYTES);

const OPEN_NOT_BLOCKING = fsConstants.O_RDONLY | fsConstants.O_NONBLOCK;

/** The options of a read as text, made once: a string option is copied into a new object per call. */
const UTF8_READ = { encoding: "utf8", flag: "r" } as const;

/**
 * The texts of files open in an editor (absolute path → unsaved text), for the language server: inside
 * {@link withOpenBuffers} every reader (capability, permission, Cargo and config files, build.rs) and
 * {@link pathKind} see them instead of the disk, as the build will once they are saved. Scoped to one
 * asynchronous call, so that nothing else in the process (and no later run) sees them.
 */
const openBuffers = new AsyncLocalStorage<ReadonlyMap<string, string>>();

export function withOpenBuffers<T>(
  texts: ReadonlyMap<string, string>,
  run: () => Promise<T>,
): Promise<T> {
  return openBuffers.run(texts, run);
}

/**
 * Every file read since the run began, by device and inode (so any name or hard link of it matches;
 * a file read without a stat is kept by its name until then, see {@link logReadByName}):
 * `--output` must never replace a file the run read, whichever loader read it (a Cargo.lock, a plugin's
 * permission file, build.rs). Per run: `main` empties it first, and the language server's checks
 * (inside {@link withOpenBuffers}) add nothing to it.
 */
const filesRead = new Set<string>();

function fileIdentity(info: { dev: number; ino: number }): string {
  return `${info.dev}:${info.ino}`;
}

/**
 * A file read without a stat ({@link smallRegularFileText}) is logged by its name (in
 * {@link filesReadByName}, beside the identities), and its identity asked of the disk when
 * {@link wasReadThisRun} is first asked, which only a run writing a report does: not for each of a
 * large app's files in every run (2,760 stats in bench row 5). The identity is then the file at that
 * path, the one read unless something replaced it meanwhile. A name read again (`--watch` reloads the
 * same files at every change) is logged once.
 */
function logReadByName(file: string): void {
  filesReadByName.add(file);
}

/**
 * The names of {@link logReadByName}, apart from the identities: the name itself is kept (the
 * string the read log holds, its hash already made), where a marked copy in {@link filesRead} made
 * a new string per file and hashed it.
 */
const filesReadByName = new Set<string>();

export function wasReadThisRun(info: { dev: number; ino: number }): boolean {
  for (const file of filesReadByName) {
    readWork.identitiesAsked++;
    try {
      const read = statSync(fsPath(file), { throwIfNoEntry: false });
      if (read !== undefined) filesRead.add(fileIdentity(read));
    } catch {
      // Gone or unreachable since its read: no file of it to replace.
    }
  }
  filesReadByName.clear();
  return filesRead.has(fileIdentity(info));
}

/** A new run (one `main` call) starts with nothing read. */
export function forgetFilesRead(): void {
  filesRead.clear();
  filesReadByName.clear();
}

/**
 * Work counters for tests (never timed): texts decoded by the exact decoder below, large files read,
 * small files known to be regular files read without a stat ({@link smallRegularFileText}) and the
 * identities of those asked later ({@link wasReadThisRun}), paths asked of the disk by {@link pathKind}, real paths asked of it by {@link realPath}, repositories
 * searched for by {@link repositoryRoot}, folders listed as bytes (names a text listing cannot sort).
 */
export const readWork = {
  exactDecodes: 0,
  largeReads: 0,
  smallRegularReads: 0,
  identitiesAsked: 0,
  stats: 0,
  realPaths: 0,
  repositorySearches: 0,
  folderByteListings: 0,
};

const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 exactly: a fatal decoder decides validity, so a real U+FFFD in a file is just a
 * character. Invalid bytes become U+FFFD, and the offset of the first one is returned for the
 * document pre-check to report.
 */
export function decodeUtf8(buffer: Uint8Array): { text: string; invalidUtf8At?: number } {
  readWork.exactDecodes++;
  try {
    return { text: strictDecoder.decode(buffer) };
  } catch {
    const text = decoder.decode(buffer);
    return { text, invalidUtf8At: firstReplacedCharacter(text, buffer) };
  }
}

/** The first U+FFFD of the lossy decoding that is not the bytes EF BF BD in the file. */
function firstReplacedCharacter(text: string, bytes: Uint8Array): number {
  let byte = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (
      code === 0xfffd &&
      !(bytes[byte] === 0xef && bytes[byte + 1] === 0xbf && bytes[byte + 2] === 0xbd)
    )
      return i;
    byte += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (code > 0xffff) i++;
  }
  return 0;
}

/**
 * The text of a file a finding points at but caplint did not load (a skipped or unreadable file),
 * for a code frame: only a regular file that is no symbolic link (which may lead out of the project)
 * and not over the size limit; never a FIFO, which would block.
 */
export function readForCodeFrame(file: string): string | undefined {
  try {
    const info = lstatSync(fsPath(file));
    if (!info.isFile() || info.size > DEFAULT_MAX_FILE_BYTES) return undefined;
    return decodeUtf8(readFileSync(fsPath(file))).text;
  } catch {
    return undefined;
  }
}

/**
 * File names are bytes on Linux, and need not be UTF-8. caplint names such a file by a text in which
 * each byte that is not UTF-8 reads `\xHH` (so every output shows it escaped and nothing is mis-read
 * through a lossy U+FFFD name that may be another file's), and remembers the bytes to open it by.
 * Not bounded and not per run: a name handed out must open the same file for as long as anyone holds
 * it (an editor's diagnostics, a later `--fix`); it grows only with the names that are not UTF-8 in
 * the folders walked.
 */
const rawPaths = new Map<string, Buffer>();

/** What to hand the file system for a path caplint names: its real bytes when its name is not UTF-8. */
export function fsPath(file: string): string | Buffer {
  return rawPaths.size === 0 ? file : (rawPaths.get(file) ?? file);
}

/** Whether the path's name (or a folder's on the way) is not UTF-8: caplint then never writes to it. */
export function hasRawName(file: string): boolean {
  return rawPaths.has(file);
}

/** A directory entry's name as text: itself when it is UTF-8, else with `\xHH` for each byte that is not. */
export function nameText(bytes: Buffer): { text: string; utf8: boolean } {
  try {
    return { text: strictDecoder.decode(bytes), utf8: true };
  } catch {
    let text = "";
    let i = 0;
    while (i < bytes.length) {
      const length = sequenceLength(bytes, i);
      if (length > 0) {
        text += strictDecoder.decode(bytes.subarray(i, i + length));
        i += length;
      } else {
        text += `\\x${bytes[i]!.toString(16).padStart(2, "0")}`;
        i++;
      }
    }
    return { text, utf8: false };
  }
}

/** The length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function sequenceLength(bytes: Buffer, i: number): number {
  const lead = bytes[i]!;
  const length =
    lead < 0x80
      ? 1
      : lead >= 0xc2 && lead <= 0xdf
        ? 2
        : lead >= 0xe0 && lead <= 0xef
          ? 3
          : lead >= 0xf0 && lead <= 0xf4
            ? 4
            : 0;
  if (length <= 1) return length;
  if (i + length > bytes.length) return 0;
  try {
    strictDecoder.decode(bytes.subarray(i, i + length));
    return length;
  } catch {
    return 0;
  }
}

/**
 * A folder's entries in the order of their names' bytes. Read with names as text (Node decodes them as
 * UTF-8) when every name is plain: no buffer per name, no native call per comparison of the sort and
 * none per name to validate and decode it (a capabilities folder of 2,000 files). Names below U+D800
 * compare as their UTF-8 bytes do; a name at or above it (a U+FFFD that may stand for bytes that are
 * not UTF-8, or characters whose UTF-16 order is not their bytes') and every name of a folder whose own
 * name is not UTF-8 make the folder listed again as bytes, as before.
 */
function folderEntries(dir: string): Array<Dirent<string> | Dirent<Buffer>> {
  if (!rawPaths.has(dir)) {
    const entries = readdirSync(dir, { withFileTypes: true });
    let plain = true;
    for (let index = 0; index < entries.length && plain; index++)
      plain = !NOT_PLAIN_NAME.test(entries[index]!.name);
    if (plain) return entries.sort(byName);
  }
  readWork.folderByteListings++;
  return readdirSync(fsPath(dir), { withFileTypes: true, encoding: "buffer" }).sort((a, b) =>
    Buffer.compare(a.name, b.name),
  );
}

/** A character whose UTF-16 order may not be its UTF-8 bytes' order, or a U+FFFD of a lossy decoding. */
const NOT_PLAIN_NAME = /[\ud800-\uffff]/;

/** Names of one folder are distinct. */
function byName(a: Dirent<string>, b: Dirent<string>): number {
  return a.name < b.name ? -1 : 1;
}

/**
 * What `path.join(dir, name)` puts before a name read from `dir`: a folder entry's name holds no
 * separator and is never `.` or `..`, so joining it is the folder's own join followed by the name
 * (NUL stands in for the name: no file name or path holds it). Worked out once per folder, not per entry.
 */
function childPrefix(dir: string): string {
  return path.join(dir, "\0").slice(0, -1);
}

/** The child `name` (bytes) of `dir` (whose {@link childPrefix} is `prefix`) as caplint names it, remembering its bytes when they are not UTF-8. */
function childPath(dir: string, prefix: string, name: Buffer): { full: string; name: string } {
  // Most names are UTF-8: validated natively, without the exact decoder's exception path.
  const { text, utf8 } = isUtf8(name)
    ? { text: name.toString("utf8"), utf8: true }
    : nameText(name);
  const full = prefix + text;
  const parent = rawPaths.get(dir);
  if (!utf8 || parent)
    rawPaths.set(full, Buffer.concat([parent ?? Buffer.from(dir), Buffer.from(path.sep), name]));
  return { full, name: text };
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} B`;
}

export function describeIoError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  const known: Record<string, string> = {
    ENOENT: "no such file or directory",
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    ELOOP: "too many levels of symbolic links",
    EISDIR: "is a directory",
    ENOTDIR: "not a directory",
    // A write that failed part-way: the code is named, since it is what a CI log is searched for.
    ENOSPC: "no space left on device (ENOSPC)",
    EDQUOT: "disk quota exceeded (EDQUOT)",
    EFBIG: "file too large: over the file-size limit (EFBIG, ulimit -f)",
    EROFS: "read-only file system (EROFS)",
    EIO: "input/output error (EIO)",
  };
  return (code && known[code]) ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Synchronous inside, like the reads: a stat of a local path costs microseconds, a thread-pool round trip
 * more, and a one-file check that makes no asynchronous file call never loads node:fs/promises.
 * One load asks about the same paths again and again (an app's package.json four times, each platform
 * config twice, every `.git` from the app up to the root once per search: a monorepo outside a
 * repository probed `.git` 33 times per app): each path's answer is kept for the newest recording in
 * progress (a load's), so it never outlives that load, and every probe is still recorded in the read
 * log (`--watch` re-runs when a probed path appears). Without a recording, every call asks the disk.
 */
export async function pathKind(target: string): Promise<PathKind> {
  noteRead("files", target);
  // A buffer not saved yet is a file already.
  if (openBuffers.getStore()?.has(target)) return "file";
  return kindsPerLoad(target, () => diskKind(target));
}

type PathKind = "file" | "directory" | "other" | "missing";

const kindsPerLoad = memoPerLoad<PathKind>();

function diskKind(target: string): PathKind {
  readWork.stats++;
  try {
    // A missing path is the usual answer (platform configs, .git on the way up): no exception is made for it.
    const info = statSync(target, { throwIfNoEntry: false });
    if (info === undefined) return "missing";
    return info.isDirectory() ? "directory" : info.isFile() ? "file" : "other";
  } catch {
    return "missing";
  }
}

/**
 * The repository holding `folder`: the nearest folder at or above it with `.git` (a folder, or a
 * worktree's file); undefined outside one. A load asked it twice for its app (the catalog's and the
 * capabilities' link boundary), a `.git` per folder up to the root each time: asked once per load.
 */
export function repositoryRoot(folder: string): string | undefined {
  return repositoriesPerLoad(folder, () => diskRepositoryRoot(folder));
}

const repositoriesPerLoad = memoPerLoad<string | undefined>();

function diskRepositoryRoot(folder: string): string | undefined {
  readWork.repositorySearches++;
  for (let dir = path.resolve(folder); ;) {
    if (lstatSync(path.join(dir, ".git"), { throwIfNoEntry: false }) !== undefined) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

export interface WalkResult {
  files: string[];
  /** Symbolic links below the folder whose target leaves the root: never read. */
  outside: OutsideLink[];
  /** Files under the folder that the host would not load as capabilities (wrong extension). */
  skipped: string[];
  problems: Array<{ file: string; message: string }>;
}

export interface OutsideLink {
  /** The link, as found below the root. */
  file: string;
  /** Where it leads (its real path). */
  target: string;
}

/** Whether `real` (a real path) is `root` or below it. */
export function isWithin(real: string, root: string): boolean {
  return real === root || real.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}

/**
 * The real path of `file` when it (or a folder on the way) is a symbolic link leading out of
 * `rootReal`, else undefined. A repository from a stranger can commit `capabilities/x.json ->
 * ~/.npmrc` or `/proc/self/environ`: its content would be read and printed in a code frame.
 */
export async function leavesRoot(file: string, rootReal: string): Promise<string | undefined> {
  const real = realPath(file);
  return real !== undefined && !isWithin(real, rootReal) ? real : undefined;
}

/**
 * The real path of a path, or undefined when it cannot be resolved: one system call (the JavaScript
 * realpath walks the path a component at a time). One load asked for its app folder's four times (the
 * walk's boundary, the config's and build.rs's link checks, each lock search) and for its Cargo.lock's
 * twice: asked once per load.
 */
export function realPath(file: string): string | undefined {
  return realPathsPerLoad(file, () => diskRealPath(file));
}

const realPathsPerLoad = memoPerLoad<string | undefined>();

function diskRealPath(file: string): string | undefined {
  readWork.realPaths++;
  try {
    return realpathSync.native(file);
  } catch {
    return undefined;
  }
}

/** How a domain walks its folders: which names it never reads, and how it words a folder named like a file. */
export interface WalkOptions {
  /** File names skipped without a word. */
  ignoreName?: ((name: string) => boolean) | undefined;
  /** Folder names neither entered nor reported (a build tool's own output, say). */
  skipFolder?: ((name: string) => boolean) | undefined;
  /** The problem of a folder whose name ends in one of the extensions. */
  folderLikeFile?: string | undefined;
  /** Symbolic links are followed while they stay inside it (default: `root`). */
  boundary?: string | undefined;
}

/** `pathKind` of `folder`'s `.git`: the searches of one load walk the same folders up to the root. */
export function repositoryMarkerKind(folder: string): Promise<PathKind> {
  return pathKind(path.join(folder, ".git"));
}

/** The folders from `start` up to the repository root (the nearest folder holding `.git`), nearest first; `outside` when there is no repository. */
export async function foldersToRepositoryRoot(
  start: string,
  outside: readonly string[] = [start],
): Promise<string[]> {
  const folders: string[] = [];
  for (let dir = start; ;) {
    folders.push(dir);
    if ((await repositoryMarkerKind(dir)) !== "missing") return folders;
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return [...outside];
}

/**
 * Files below `root` with one of `extensions`, recursively. Symlinked folders are followed once
 * (loops are cut by real path), but only while they stay inside `options.boundary` (default: `root`);
 * a link leading out is listed in `outside` and not followed.
 */
export function walk(
  root: string,
  extensions: readonly string[],
  options: WalkOptions = {},
): Promise<WalkResult> {
  const {
    ignoreName = () => false,
    skipFolder = () => false,
    folderLikeFile = "is a folder named like the files read here; skipped",
    boundary = root,
  } = options;
  const result: WalkResult = { files: [], outside: [], skipped: [], problems: [] };
  noteRead("trees", root);
  const seen = new Set<string>();
  const boundaryReal = realPath(boundary) ?? path.resolve(boundary);
  // Synchronous, like the reads (see readTextFile), and one system call per folder: a folder reached
  // through a folder (not a link) is where its parent's real path says, so only the root and the links
  // found below it are resolved.
  const visit = (dir: string, knownReal?: string): void => {
    let real: string;
    try {
      real = knownReal ?? realpathSync.native(fsPath(dir));
    } catch (error) {
      result.problems.push({ file: dir, message: `cannot read folder: ${describeIoError(error)}` });
      return;
    }
    if (!isWithin(real, boundaryReal)) {
      result.outside.push({ file: dir, target: real });
      return;
    }
    if (seen.has(real)) return;
    seen.add(real);
    let entries;
    try {
      entries = folderEntries(dir);
    } catch (error) {
      result.problems.push({ file: dir, message: `cannot read folder: ${describeIoError(error)}` });
      return;
    }
    const prefix = childPrefix(dir);
    for (const entry of entries) {
      let full: string;
      let name: string;
      if (typeof entry.name === "string") {
        name = entry.name;
        full = prefix + name;
      } else ({ full, name } = childPath(dir, prefix, entry.name));
      let isDir = entry.isDirectory();
      let isFile = entry.isFile();
      const link = entry.isSymbolicLink();
      if (link) {
        try {
          const target = realpathSync.native(fsPath(full));
          if (!isWithin(target, boundaryReal)) {
            if (
              !skipFolder(name) &&
              (hasExtension(name, extensions) || statSync(fsPath(full)).isDirectory())
            )
              result.outside.push({ file: full, target });
            continue;
          }
          const info = statSync(fsPath(full));
          isDir = info.isDirectory();
          isFile = info.isFile();
        } catch (error) {
          result.problems.push({
            file: full,
            message: `broken symbolic link: ${describeIoError(error)}`,
          });
          continue;
        }
      }
      if (isDir) {
        if (skipFolder(name)) continue;
        if (hasExtension(name, extensions))
          result.problems.push({ file: full, message: folderLikeFile });
        // A name that is not UTF-8 reads differently in a real path (U+FFFD) than here (`\xHH`): resolved, so
        // loops are cut by one spelling.
        visit(full, link || hasRawName(full) ? undefined : path.join(real, name));
      } else if (ignoreName(name)) {
        continue;
      } else if (hasExtension(name, extensions)) {
        if (isFile) result.files.push(full);
        else
          result.problems.push({
            file: full,
            message: "is not a regular file (FIFO, socket or device); skipped",
          });
      } else if (isFile && !name.startsWith(".")) {
        result.skipped.push(full);
      }
    }
  };
  visit(root);
  return Promise.resolve(result);
}

/** Whether `name` ends with one of `extensions` (no closure per name of a walk). */
function hasExtension(name: string, extensions: readonly string[]): boolean {
  for (let index = 0; index < extensions.length; index++)
    if (name.endsWith(extensions[index]!)) return true;
  return false;
}
