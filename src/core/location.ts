/*
 * Where things are in a source file. Ground-level vocabulary: the loaders, the models and the
 * diagnostics all speak it, so it imports nothing.
 */

/** Keys and indices from a document's root to a value. */
export type JsonPath = ReadonlyArray<string | number>;

export function samePath(a: JsonPath, b: JsonPath): boolean {
  // Paths are often the same array (an entry's path, handed on as a grant's provenance).
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface Position {
  /** 1-based line. */
  line: number;
  /** 1-based column, in UTF-16 code units. */
  column: number;
}

export interface Range {
  start: Position;
  /** Exclusive end. */
  end: Position;
}

/** A text edit in the jsonc-parser `Edit` shape. */
export interface TextEdit {
  offset: number;
  length: number;
  content: string;
}
