/**
 * Reports written while the findings arrive, for inputs whose findings are unbounded in number (a
 * recording read from a pipe that never ends): each finding is printed and dropped, so memory holds
 * one finding, not all of them, in every format. The text is the same as the reporter's for the same
 * findings in the same order.
 */
import type { Diagnostic, LintSummary } from "../diagnostics.js";
import { textLines } from "../terminal-text.js";
import { loadReporter, type ReporterName } from "./index.js";
import type { ReporterContext } from "./types.js";

export interface StreamedReport {
  /** Prints one finding; `lineText` is the text of its line when at hand (stylish shows it as the code frame). */
  add(d: Diagnostic, lineText?: string): void;
  /** Prints what follows the findings: the counts, the notes, the configuration used. */
  end(closing: StreamedClosing): void;
}

export interface StreamedClosing {
  summary: LintSummary;
  notes?: readonly string[];
  config?: string | null;
  /** Warnings `--quiet` did not show (stylish says how many). */
  hiddenWarnings?: number;
  /** Adds members to a JSON report's top-level object (after `summary`). */
  extendJson?: Record<string, unknown>;
}

const NO_FINDINGS: LintSummary = { files: 0, errors: 0, warnings: 0, suggestions: 0, fixable: 0 };

export async function streamedReport(
  format: ReporterName,
  write: (text: string) => void,
  context: ReporterContext,
): Promise<StreamedReport> {
  switch (format) {
    case "compact":
    case "github": {
      const reporter = await loadReporter(format);
      return {
        add: (d) => write(reporter({ diagnostics: [d], summary: NO_FINDINGS }, context)),
        end: () => undefined,
      };
    }
    case "stylish": {
      const { findingLines, closingLines } = await import("./stylish.js");
      let file: string | undefined;
      let problemFile: string | undefined;
      let files = 0;
      return {
        add(d, lineText) {
          if (d.file !== file) {
            write(
              textLines([...(file === undefined ? [] : [""]), context.paint.underline(d.file)]),
            );
            file = d.file;
          }
          if (d.severity !== "suggestion" && problemFile !== d.file) {
            problemFile = d.file;
            files++;
          }
          write(
            textLines(
              findingLines(d, lineText === undefined ? undefined : { text: lineText }, context),
            ),
          );
        },
        end({ summary, notes = [], config, hiddenWarnings = 0 }) {
          write(
            textLines([
              ...(file === undefined ? [] : [""]),
              ...closingLines(summary, files, notes, config, context.paint, hiddenWarnings),
            ]),
          );
        },
      };
    }
    case "json": {
      const [reporter, { jsonDiagnostic }] = await Promise.all([
        loadReporter("json"),
        import("./json.js"),
      ]);
      return spliced(
        write,
        '"diagnostics": []',
        jsonDiagnostic,
        ({ summary, notes, config, extendJson }) => {
          const text = reporter(
            {
              diagnostics: [],
              summary,
              ...(notes ? { notes } : {}),
              ...(config !== undefined ? { config } : {}),
            },
            context,
          );
          return extendJson
            ? JSON.stringify({ ...(JSON.parse(text) as object), ...extendJson }, null, 2) + "\n"
            : text;
        },
        reporter({ diagnostics: [], summary: NO_FINDINGS }, context),
      );
    }
    case "sarif": {
      const [reporter, { sarifResult, sarifRuleIndex }] = await Promise.all([
        loadReporter("sarif"),
        import("./sarif.js"),
      ]);
      const ruleIndex = sarifRuleIndex(context);
      return spliced(
        write,
        '"results": []',
        (d) => sarifResult(d, ruleIndex, context.cwd),
        ({ summary, notes, config }) =>
          reporter(
            {
              diagnostics: [],
              summary,
              ...(notes ? { notes } : {}),
              ...(config !== undefined ? { config } : {}),
            },
            context,
          ),
        reporter({ diagnostics: [], summary: NO_FINDINGS }, context),
      );
    }
  }
}

/**
 * A JSON document streamed around its findings array: the reporter's document without findings is
 * cut at the (empty) array, the part before it is written first, each finding is written as an item
 * indented as JSON.stringify would, and the part after it (counts, configuration) comes from the
 * document rendered at the end. The marker cannot occur earlier: quotes inside JSON strings are escaped.
 */
function spliced(
  write: (text: string) => void,
  marker: string,
  item: (d: Diagnostic) => unknown,
  render: (closing: StreamedClosing) => string,
  empty: string,
): StreamedReport {
  const cut = (text: string) => {
    const at = text.indexOf(marker);
    if (at < 0) throw new Error(`streamed report: no ${marker} in the document`);
    return at + marker.length - 1;
  };
  const head = empty.slice(0, cut(empty));
  // Items sit two spaces deeper than the line that holds the array's key.
  const indent = " ".repeat(head.slice(head.lastIndexOf("\n") + 1).search(/\S/) + 2);
  write(head);
  let items = 0;
  return {
    add(d) {
      write(
        (items++ === 0 ? "\n" : ",\n") +
          indent +
          JSON.stringify(item(d), null, 2).replace(/\n/g, `\n${indent}`),
      );
    },
    end(closing) {
      const full = render(closing);
      write((items > 0 ? `\n${indent.slice(2)}` : "") + full.slice(cut(full)));
    },
  };
}
