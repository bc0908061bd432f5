import { createRequire } from "node:module";
import { constants, type Stats } from "node:fs";
import { access, chmod, chown, lstat, open, realpath, rename, rm, stat } from "node:fs/promises";
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
  const existing = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (existing?.isSymbolicLink()) throw new WriteRefused("is a symbolic link; not written through it");
  if (existing && !existing.isFile()) throw new WriteRefused(existing.isDirectory() ? "is a directory" : "is not a regular file");
  if (existing && (await isReadOnly(file, existing))) throw new WriteRefused("is read-only; not written (make it writable first)");
  const temporary = path.join(path.dirname(file), `.caplint-${process.pid}-${temporaryName()}.tmp`);
  let created = false;
  try {
    // `wx`: never follow or clobber something already at the temporary name.
    const handle = await open(temporary, "wx", existing ? existing.mode & 0o7777 : 0o666);
    created = true;
    try {
      await handle.writeFile(text, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (!existing) {
      await rename(temporary, file);
      return;
    }
    const ownerKept = await keepOwner(temporary, existing);
    const attributesKept = ownerKept && (await copyExtendedAttributes(file, temporary));
    // After chown, which clears set-user-ID bits; open() applied the umask: chmod sets the bits exactly.
    await chmod(temporary, existing.mode & 0o7777);
    if (existing.nlink > 1 || !ownerKept || !attributesKept) {
      // A rename would split the hard links, hand the file to another owner or drop attributes: write the same inode.
      await writeInPlace(file, text, existing);
      await rm(temporary, { force: true });
      return;
    }
    await rename(temporary, file);
  } catch (error) {
    if (created) await rm(temporary, { force: true });
    throw error;
  }
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

async function writeInPlace(file: string, text: string, before: Stats): Promise<void> {
  // O_NOFOLLOW: the path must still be the file checked above, not a link swapped in meanwhile.
  const handle = await open(file, constants.O_WRONLY | constants.O_NOFOLLOW);
  try {
    const now = await handle.stat();
    if (now.ino !== before.ino || now.dev !== before.dev) throw new WriteRefused("was replaced while caplint was writing it");
    await handle.truncate(0);
    await handle.write(text, 0, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface OutputTarget {
  /** The path as given (`-` is standard output); relative to `cwd`. */
  given: string;
  cwd: string;
  stdout: TextSink;
  /** Files the run read: a report never replaces one of them. */
  inputs: readonly string[];
}

/**
 * Writes a report to `--output`/`--html`, through the terminal-safe layer like standard output.
 * Throws {@link WriteRefused} (or an I/O error) with the target untouched.
 */
export async function writeReport(target: OutputTarget, text: string): Promise<void> {
  const safe = terminalSafe(text);
  if (target.given === "-") {
    target.stdout.write(safe);
    return;
  }
  const file = path.resolve(target.cwd, target.given);
  const link = await lstat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  const info = link?.isSymbolicLink() ? await stat(file).catch(() => undefined) : link;
  if (info && (wasReadThisRun(info) || (await isInput(info, target.inputs))))
    throw new WriteRefused("is one of the files being checked; refusing to replace it with the report");
  if (info?.isFile() && PROJECT_FILE_NAME.test(path.basename(file)))
    throw new WriteRefused(`is an app file caplint reads (${path.basename(file)}); refusing to replace it with the report`);
  const escape = await linkedOutOfRepository(file, path.resolve(target.cwd));
  if (escape) throw new WriteRefused(`is reached through a symbolic link out of the repository (to ${escape}); not written through it`);
  if (info?.isBlockDevice()) throw new WriteRefused("is a block device; refusing to write a report onto it");
  if (info && (info.isCharacterDevice() || info.isFIFO() || info.isSocket())) {
    // /dev/null, /dev/stdout (a link to the pipe or terminal), a named pipe: written, never replaced.
    const handle = await open(file, constants.O_WRONLY | constants.O_APPEND);
    try {
      await handle.write(safe, null, "utf8");
    } finally {
      await handle.close();
    }
    return;
  }
  if (link?.isSymbolicLink()) {
    // /dev/stdout redirected to a file is such a link too; what it names is the caller's to choose.
    if (isStandardStreamAlias(file)) {
      target.stdout.write(safe);
      return;
    }
    throw new WriteRefused("is a symbolic link; not written through it (give the path of its target)");
  }
  await replaceFile(file, safe);
}

/** Files an app's checks read, whichever command writes the report (`schema -o tauri.conf.json`). */
const PROJECT_FILE_NAME = /^((tauri|host)(\.[A-Za-z]+)?\.conf\.(json5?|toml)|Cargo\.(toml|lock)|build\.rs|acl-manifests\.json)$/;

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
  const { randomBytes } = createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return randomBytes(6).toString("hex");
}
