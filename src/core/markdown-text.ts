/**
 * Markdown written for a web page (the permission descriptions of plugins' manifests: `#### Granted
 * Permissions`, `**bold**`, `` `code` ``, lists, links) as terminal text on one line: headings end in
 * a colon, emphasis and code marks go, a list reads as a comma-separated run, and a link shows its
 * text and its address, since a terminal cannot follow it. Code keeps its text literally (`$HOME/**`
 * stays a glob).
 */
export function markdownText(markdown: string): string {
  const code: string[] = [];
  // Code first: what it holds is text, never markup.
  const text = markdown
    .replace(
      /^ *(```+|~~~+)[^\n]*\n([\s\S]*?)^ *\1 *$/gm,
      (_, _fence: string, inner: string) => `\u0000${code.push(inner.trim()) - 1}\u0000`,
    )
    .replace(
      /(`+)([\s\S]*?)\1/g,
      (_, _ticks: string, inner: string) => `\u0000${code.push(inner.trim()) - 1}\u0000`,
    );
  const pieces: string[] = [];
  let list: string[] = [];
  const endList = () => {
    if (list.length)
      pieces.push(
        `${list.join(", ")}${list.length && !/[.:;!?]$/.test(list[list.length - 1]!) ? "." : ""}`,
      );
    list = [];
  };
  for (const raw of text.replace(/<h(\d)>([\s\S]*?)<\/h\1>/gi, "\n#### $2\n").split("\n")) {
    const line = raw.trim();
    if (line === "") continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*$/.exec(line);
    const item = /^(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      list.push(inline(item[1]!));
      continue;
    }
    endList();
    if (heading)
      pieces.push(/[.:;!?]$/.test(heading[1]!) ? inline(heading[1]!) : `${inline(heading[1]!)}:`);
    else pieces.push(inline(line));
  }
  endList();
  return pieces
    .join(" ")
    .replace(/\u0000(\d+)\u0000/g, (match, index: string) => code[Number(index)] ?? match)
    .replace(/\s+/g, " ")
    .trim();
}

/** Emphasis, links and images of one line. */
function inline(line: string): string {
  return line
    .replace(
      /!?\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g,
      (_, label: string, url: string) =>
        label.trim() === "" || label.trim() === url ? url : `${label.trim()} (${url})`,
    )
    .replace(/<(https?:\/\/[^>\s]+)>/g, "$1")
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/(^|[\s(])\*(?=\S)([^*]*?\S)\*(?=[\s).,;:!?]|$)/g, "$1$2")
    .replace(/<\/?(?:b|strong|em|i|code|p|br)\s*\/?>/gi, " ");
}
