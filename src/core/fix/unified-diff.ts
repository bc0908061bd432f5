import { textLines } from "../terminal-text.js";

/** A unified diff (3 lines of context) between two versions of a small text file. */
export function unifiedDiff(file: string, before: string, after: string, context = 3): string {
  if (before === after) return "";
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  const out = [`--- a/${file}`, `+++ b/${file}`];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.kind === "same") {
      i++;
      continue;
    }
    let start = Math.max(0, i - context);
    let end = i;
    // Extend the hunk while changes are closer than two contexts apart.
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== "same") end++;
      let next = end;
      while (next < ops.length && ops[next]!.kind === "same") next++;
      if (next < ops.length && next - end <= context * 2) end = next;
      else break;
    }
    end = Math.min(ops.length, end + context);
    const hunk = ops.slice(start, end);
    const oldStart = (hunk[0]?.aIndex ?? 0) + 1;
    const newStart = (hunk[0]?.bIndex ?? 0) + 1;
    const oldCount = hunk.filter((op) => op.kind !== "add").length;
    const newCount = hunk.filter((op) => op.kind !== "del").length;
    out.push(`@@ -${oldCount ? oldStart : oldStart - 1},${oldCount} +${newCount ? newStart : newStart - 1},${newCount} @@`);
    for (const op of hunk) out.push(`${op.kind === "same" ? " " : op.kind === "del" ? "-" : "+"}${op.line}`);
    i = end;
    start = end;
  }
  return textLines(out);
}

interface Op {
  kind: "same" | "add" | "del";
  line: string;
  aIndex: number;
  bIndex: number;
}

function splitLines(text: string): string[] {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** LCS over lines after trimming the common head and tail; capability files are small. */
function diffLines(a: string[], b: string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const ops: Op[] = [];
  for (let k = 0; k < head; k++) ops.push({ kind: "same", line: a[k]!, aIndex: k, bIndex: k });
  if (midA.length * midB.length > 4_000_000) {
    midA.forEach((line, k) => ops.push({ kind: "del", line, aIndex: head + k, bIndex: head }));
    midB.forEach((line, k) => ops.push({ kind: "add", line, aIndex: head + midA.length, bIndex: head + k }));
  } else {
    const table: Uint32Array[] = Array.from({ length: midA.length + 1 }, () => new Uint32Array(midB.length + 1));
    for (let x = midA.length - 1; x >= 0; x--) {
      for (let y = midB.length - 1; y >= 0; y--) {
        table[x]![y] = midA[x] === midB[y] ? table[x + 1]![y + 1]! + 1 : Math.max(table[x + 1]![y]!, table[x]![y + 1]!);
      }
    }
    let x = 0;
    let y = 0;
    while (x < midA.length || y < midB.length) {
      if (x < midA.length && y < midB.length && midA[x] === midB[y]) {
        ops.push({ kind: "same", line: midA[x]!, aIndex: head + x, bIndex: head + y });
        x++;
        y++;
      } else if (y < midB.length && (x === midA.length || table[x]![y + 1]! > table[x + 1]![y]!)) {
        ops.push({ kind: "add", line: midB[y]!, aIndex: head + x, bIndex: head + y });
        y++;
      } else {
        ops.push({ kind: "del", line: midA[x]!, aIndex: head + x, bIndex: head + y });
        x++;
      }
    }
  }
  for (let k = tail; k > 0; k--) ops.push({ kind: "same", line: a[a.length - k]!, aIndex: a.length - k, bIndex: b.length - k });
  return ops;
}
