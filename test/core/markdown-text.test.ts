import { describe, expect, it } from "vitest";
import { markdownText } from "../../src/core/markdown-text.js";

describe("markdownText: a permission description as terminal text", () => {
  it("headings end in a colon, emphasis and code marks go, code keeps its text", () => {
    expect(
      markdownText(
        "This set configures the `fs` plugin.\n\n#### Granted Permissions\n\nIt allows **all** reads of `$HOME/**`.\n\n",
      ),
    ).toBe(
      "This set configures the fs plugin. Granted Permissions: It allows all reads of $HOME/**.",
    );
    expect(markdownText("Enables ask. (**DEPRECATED**: an alias to `allow-message`)")).toBe(
      "Enables ask. (DEPRECATED: an alias to allow-message)",
    );
    expect(markdownText("<h4>Granted Permissions</h4> All dialog types.")).toBe(
      "Granted Permissions: All dialog types.",
    );
  });

  it("a list reads as a comma-separated run; a link shows its text and its address", () => {
    expect(
      markdownText(
        "#### This default permission set includes the following:\n\n- `allow-open`\n- `allow-save`\n\nMore in [the guide](https://v2.tauri.app/plugin/fs/).",
      ),
    ).toBe(
      "This default permission set includes the following: allow-open, allow-save. More in the guide (https://v2.tauri.app/plugin/fs/).",
    );
    expect(markdownText("See <https://example.com/a>.")).toBe("See https://example.com/a.");
  });

  it("a fenced block is its code, without the fence and its language", () => {
    expect(
      markdownText(
        'An empty permission.\n\n## Example\n\n```json\n{ "identifier": "fs:scope" }\n```\n',
      ),
    ).toBe('An empty permission. Example: { "identifier": "fs:scope" }');
  });
});
