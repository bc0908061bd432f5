import path from "node:path";

/**
 * How every command and format names a file: relative to the working directory, with `/`
 * separators, as the user typed it (`../../x.json`); absolute only when it lies more than three
 * folders up, where a chain of `../` is harder to read than the path itself.
 */
export function displayFile(cwd: string, absolute: string): string {
  const relative = path.relative(cwd, absolute);
  if (relative === "") return ".";
  const farUp =
    relative.startsWith("..") &&
    path.isAbsolute(absolute) &&
    relative.split(path.sep).filter((part) => part === "..").length > 3;
  return (farUp ? absolute : relative).split(path.sep).join("/");
}
