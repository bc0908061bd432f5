import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../helpers/run.js";
import { caplint, freePort, startHttpFixture } from "../../mcp/helpers.js";

/**
 * Issue 21: no secret a live run is given (arguments, --env values, headers, URL credentials and
 * query parameters, known token shapes) appears in any output: every format, the dump, error
 * messages and --verbose lines. Each secret is unique, so one `not.toContain` per output finds it.
 */
const LIVE = { timeout: 90_000 };
const FORMATS = ["stylish", "compact", "json", "sarif", "github"];
const hostile = path.join(ROOT, "fixtures/mcp/hostile-stdio-server.mjs");

const ARG_SECRETS = {
  "--api-key": "argsecret-after-option-1",
  "--client-secret=": "argsecret-inline-2",
  "DB_PASSWORD=": "argsecret-assignment-3",
  openai: "sk-argsecretOPENAIabcdef4",
  github: "ghp_argsecretGITHUB0123456789a",
  githubPat: "github_pat_argsecretFINEGRAINED_0123456789",
  slack: "xoxb-argsecret-slack-5678",
  aws: "AKIAARGSECRETAWS0123",
  urlPassword: "argurlpass6",
  urlQuery: "argurlquerytoken7",
};
const ENV_SECRETS = { API_TOKEN: "envsecret-token-8", PLAIN_SETTING: "Env-Plain-Value-9x" };

const secretArgs = [
  "--api-key",
  ARG_SECRETS["--api-key"],
  `--client-secret=${ARG_SECRETS["--client-secret="]}`,
  `DB_PASSWORD=${ARG_SECRETS["DB_PASSWORD="]}`,
  ARG_SECRETS.openai,
  ARG_SECRETS.github,
  ARG_SECRETS.githubPat,
  ARG_SECRETS.slack,
  ARG_SECRETS.aws,
  `https://bob:${ARG_SECRETS.urlPassword}@example.com/api?token=${ARG_SECRETS.urlQuery}`,
];
const envArgs = Object.entries(ENV_SECRETS).flatMap(([name, value]) => [
  "--env",
  `${name}=${value}`,
]);
const ALL = [...Object.values(ARG_SECRETS), ...Object.values(ENV_SECRETS)];

function expectNoSecret(output: string, secrets: readonly string[], where: string): void {
  for (const secret of secrets) expect(output, `${where} shows ${secret}`).not.toContain(secret);
}

describe("secrets given to a --stdio server", () => {
  it(
    "are *** in every format, with the server named (no file for a live server)",
    LIVE,
    async () => {
      for (const format of FORMATS) {
        const result = await caplint([
          "mcp",
          "-f",
          format,
          ...envArgs,
          "--stdio",
          "--",
          "node",
          hostile,
          "echo-secrets",
          ...secretArgs,
        ]);
        expect(result.code, `${format}: ${result.stderr}`).toBe(1);
        expectNoSecret(result.stdout + result.stderr, ALL, format);
        expect(result.stdout, format).toContain("--api-key ***");
        expect(result.stdout, format).toContain("--client-secret=***");
        expect(result.stdout, format).toContain("DB_PASSWORD=***");
        expect(result.stdout, format).toContain("https://***@example.com/api?token=***");
      }
    },
  );

  it(
    "are *** in the dump (which keeps what replaying needs: the listing and the redacted command)",
    LIVE,
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), "caplint-secrets-"));
      const file = path.join(dir, "dump.json");
      const result = await caplint([
        "mcp",
        "dump",
        "-o",
        file,
        ...envArgs,
        "--stdio",
        "--",
        "node",
        hostile,
        "echo-secrets",
        ...secretArgs,
      ]);
      expect(result).toMatchObject({ code: 0, stdout: "", stderr: "" });
      const dump = readFileSync(file, "utf8");
      expectNoSecret(dump, ALL, "dump");
      const parsed = JSON.parse(dump) as { server: { command: string[] }; pages: unknown[] };
      expect(parsed.server.command.slice(0, 4)).toEqual([
        "node",
        hostile,
        "echo-secrets",
        "--api-key",
      ]);
      expect(parsed.server.command[4]).toBe("***");
      expect(parsed.pages).toHaveLength(1);
      const replay = await caplint(["mcp", "-f", "compact", "dump.json"], { cwd: dir });
      expect(replay.stdout).toContain('error tool name "hostile get status" contains " "');
    },
  );

  it("are *** in --verbose lines and the server's stderr passed through", LIVE, async () => {
    const result = await caplint([
      "mcp",
      "--verbose",
      ...envArgs,
      "--stdio",
      "--",
      "node",
      hostile,
      "echo-secrets",
      ...secretArgs,
    ]);
    expect(result.stderr).toContain("starting with --api-key ***");
    expect(result.stderr).toContain('"API_TOKEN":"***"');
    expectNoSecret(result.stderr + result.stdout, ALL, "--verbose");
  });

  it(
    "are *** in the error of a server that fails, even when it repeats them on stderr",
    LIVE,
    async () => {
      const result = await caplint([
        "mcp",
        ...envArgs,
        "--stdio",
        "--",
        "node",
        hostile,
        "die-echoing",
        ...secretArgs,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /^caplint: the server \(node \S+ die-echoing --api-key \*\*\* .*exited with code 1 before answering initialize; its last stderr line: fatal: rejected --api-key \*\*\*/,
      );
      expectNoSecret(result.stderr + result.stdout, ALL, "error");
    },
  );
});

describe("secrets in a --url", () => {
  let server: { url: string; stop(): Promise<void> };
  beforeAll(async () => {
    server = await startHttpFixture("http-server.mjs");
  }, 30_000);
  afterAll(() => server?.stop());

  const URL_SECRETS = ["urlpass-10", "urlquerytoken-11", "urlapikey-12"];
  const withSecrets = (url: string) => {
    const parsed = new URL(url);
    parsed.username = "alice";
    parsed.password = URL_SECRETS[0]!;
    parsed.search = `?token=${URL_SECRETS[1]}&api_key=${URL_SECRETS[2]}&page=2`;
    return parsed.href;
  };

  it(
    "are *** in every format and the dump; the run still works (fetch refuses a URL with credentials: they travel as a Basic Authorization header)",
    LIVE,
    async () => {
      for (const format of FORMATS) {
        const result = await caplint(["mcp", "-f", format, "--url", withSecrets(server.url)]);
        expect(result.stderr, format).toBe("");
        expectNoSecret(result.stdout, URL_SECRETS, format);
      }
      const dump = await caplint(["mcp", "dump", "--url", withSecrets(server.url)]);
      expect(dump.code).toBe(0);
      expectNoSecret(dump.stdout, URL_SECRETS, "dump");
      expect((JSON.parse(dump.stdout) as { server: { url: string } }).server.url).toBe(
        `${new URL(server.url).origin.replace("//", "//***@")}/mcp?token=***&api_key=***&page=2`,
      );
    },
  );

  it("are not repeated in errors: once, redacted", LIVE, async () => {
    const port = await freePort();
    const result = await caplint([
      "mcp",
      "--timeout",
      "5",
      "--url",
      withSecrets(`http://127.0.0.1:${port}/mcp`),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `caplint: the server at http://***@127.0.0.1:${port}/mcp?token=***&api_key=***&page=2 failed initialize: connection refused\n`,
    );
  });
});

describe("secrets of a configured server (--servers)", () => {
  let server: { url: string; stop(): Promise<void> };
  beforeAll(async () => {
    server = await startHttpFixture("http-server.mjs");
  }, 30_000);
  afterAll(() => server?.stop());

  it("header values and env values are *** in every format", LIVE, async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "caplint-secrets-config-"));
    const HEADER = "headersecret-13";
    const ENV = "configenvsecret-14";
    writeFileSync(
      path.join(dir, ".mcp.json"),
      JSON.stringify(
        {
          mcpServers: {
            remote: {
              type: "http",
              url: server.url,
              headers: { Authorization: `Bearer ${HEADER}`, "X-Api-Key": "${HEADER_KEY}" },
            },
            local: {
              command: "node",
              args: [hostile, "die-echoing", "--token", "${TOKEN_VALUE}"],
              env: { SERVICE_TOKEN: ENV },
            },
          },
        },
        null,
        2,
      ),
    );
    const secrets = [HEADER, ENV, "headerkey-from-env-15", "token-from-env-16"];
    for (const format of FORMATS) {
      const result = await caplint(["mcp", "-f", format, "--servers", ".mcp.json"], {
        cwd: dir,
        env: { HEADER_KEY: "headerkey-from-env-15", TOKEN_VALUE: "token-from-env-16" },
      });
      expect(result.code, format).toBe(1);
      expect(result.stdout, format).toContain("mcp-server-start");
      expectNoSecret(result.stdout + result.stderr, secrets, format);
    }
  });
});
