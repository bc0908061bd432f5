import type { SourceDocument } from "../../src/core/source/document.js";
import type { JsonPathTree } from "../../src/core/source/json-tree.js";

/** A JSON syntax tree in jsonc-parser's shape, to compare caplint's compact tree with it node for node. */
export type Shape = {
  type: string;
  offset: number;
  length: number;
  value?: unknown;
  children?: Shape[];
};
export const shape = (
  node: { type: string; offset: number; length: number; value?: unknown; children?: unknown[] },
  isKey = false,
): Shape => ({
  type: node.type,
  offset: node.offset,
  length: node.length,
  ...(isKey ? { value: node.value } : {}),
  ...(node.children
    ? {
        children: (node.children as Shape[]).map((child, i) =>
          shape(child, node.type === "property" && i === 0),
        ),
      }
    : {}),
});
/** The compact tree (whole or made along paths) in jsonc-parser's shape: objects hold property nodes of a key and a value. */
export const treeShape = (tree: JsonPathTree, node: number): Shape => {
  const type = tree.kind(node);
  const items = Array.from({ length: tree.childCount(node) }, (_, i) => tree.child(node, i));
  const member = (child: number): Shape => ({
    type: "property",
    offset: tree.keyOffset(child),
    length: tree.offset(child) + tree.length(child) - tree.keyOffset(child),
    children: [
      {
        type: "string",
        offset: tree.keyOffset(child),
        length: tree.keyLength(child),
        value: tree.key(child),
      },
      treeShape(tree, child),
    ],
  });
  return {
    type,
    offset: tree.offset(node),
    length: tree.length(node),
    ...(type === "object"
      ? { children: items.map(member) }
      : type === "array"
        ? { children: items.map((child) => treeShape(tree, child)) }
        : {}),
  };
};

/** Where a JSON path lands in a document, as `line:column-line:column` (and whether only an ancestor was found). */
export const at = (
  document: SourceDocument,
  path: (string | number)[],
  target: "key" | "value" = "value",
) => {
  const { range, exact } = document.locate(path, target);
  return `${range.start.line}:${range.start.column}-${range.end.line}:${range.end.column}${exact ? "" : " (ancestor)"}`;
};
