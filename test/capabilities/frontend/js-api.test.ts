import { describe, expect, it } from "vitest";
import {
  globalNamespaceModule,
  implicitCalls,
  jsApiModule,
  packageCommands,
} from "../../../src/capabilities/frontend/js-api.js";

const commandsOf = (specifier: string, member: string, version?: string) =>
  jsApiModule(specifier, version)?.member(member)?.commands;

describe("the JS call map (data/js-api-map.json)", () => {
  it("maps exports, constructors, instance and static members to the commands they invoke", () => {
    expect(commandsOf("@tauri-apps/plugin-dialog", "open", "2.4.0")).toEqual([
      "plugin:dialog|open",
    ]);
    expect(commandsOf("@tauri-apps/api/window", "Window#setTitle", "2.5.0")).toEqual([
      "plugin:window|set_title",
    ]);
    expect(commandsOf("@tauri-apps/plugin-sql", "Database.load", "2.5.0")).toEqual([
      "plugin:sql|load",
    ]);
    expect(commandsOf("@tauri-apps/plugin-sql", "Database#execute", "2.5.0")).toEqual([
      "plugin:sql|execute",
    ]);
    // A new Window creates one (and emits tauri://created); getCurrentWindow() passes { skip: true } and invokes nothing.
    expect(commandsOf("@tauri-apps/api/window", "Window", "2.5.0")).toContain(
      "plugin:window|create",
    );
    expect(commandsOf("@tauri-apps/api/window", "getCurrentWindow", "2.5.0")).toEqual([]);
  });

  it("says which class a call returns, so members of the value can be followed", () => {
    const window = jsApiModule("@tauri-apps/api/window", "2.5.0");
    expect(window?.member("getCurrentWindow")?.returns).toBe("Window");
    expect(jsApiModule("@tauri-apps/plugin-sql", "2.5.0")?.member("Database.load")?.returns).toBe(
      "Database",
    );
    expect(jsApiModule("@tauri-apps/plugin-store", "2.4.5")?.member("Store.load")?.returns).toBe(
      "Store",
    );
    expect(
      jsApiModule("@tauri-apps/plugin-shell", "2.4.0")?.member("Command.create")?.returns,
    ).toBe("Command");
    expect(jsApiModule("@tauri-apps/plugin-shell", "2.4.0")?.member("Command#spawn")?.returns).toBe(
      "Child",
    );
    expect(jsApiModule("@tauri-apps/plugin-fs", "2.6.0")?.member("open")?.returns).toBe(
      "FileHandle",
    );
  });

  it("includes inherited and mixed-in members, and members of classes from @tauri-apps/api", () => {
    // WebviewWindow mixes Window's methods in (applyMixins).
    expect(commandsOf("@tauri-apps/api/webviewWindow", "WebviewWindow#setTitle", "2.5.0")).toEqual([
      "plugin:window|set_title",
    ]);
    expect(commandsOf("@tauri-apps/api/webviewWindow", "WebviewWindow#setZoom", "2.5.0")).toEqual([
      "plugin:webview|set_webview_zoom",
    ]);
    // Store extends @tauri-apps/api/core's Resource.
    expect(commandsOf("@tauri-apps/plugin-store", "Store#close", "2.4.5")).toEqual([
      "plugin:resources|close",
    ]);
    // LazyStore's methods go through its `store` getter, which loads the store.
    expect(commandsOf("@tauri-apps/plugin-store", "LazyStore#set", "2.4.5")).toEqual([
      "plugin:store|load",
      "plugin:store|set",
    ]);
  });

  it("follows calls within a package: helpers, wrappers that pass a command on, values of a known class", () => {
    // writeFile opens a FileHandle and writes through it when given a stream (the override says when).
    const writeFile = jsApiModule("@tauri-apps/plugin-fs", "2.6.0")?.member("writeFile");
    expect(writeFile?.commands).toEqual([
      "plugin:fs|open",
      "plugin:fs|write",
      "plugin:fs|write_file",
      "plugin:resources|close",
    ]);
    expect(writeFile?.note).toMatch(/only when data is a ReadableStream/);
    // Window#onCloseRequested listens, and destroys the window when the handler does not prevent it.
    expect(commandsOf("@tauri-apps/api/window", "Window#onCloseRequested", "2.5.0")).toContain(
      "plugin:window|destroy",
    );
  });

  it("keeps a command that depends on an argument as a {n} placeholder, with a note", () => {
    const core = jsApiModule("@tauri-apps/api/core", "2.5.0");
    expect(core?.member("invoke")).toEqual({
      commands: ["{0}"],
      note: "the command depends on argument 1",
    });
    expect(core?.member("addPluginListener")?.commands).toEqual(["plugin:{0}|registerListener"]);
    // 2.12 tries the snake_case command first.
    expect(commandsOf("@tauri-apps/api/core", "addPluginListener", "2.12.5")).toEqual([
      "plugin:{0}|registerListener",
      "plugin:{0}|register_listener",
    ]);
  });

  it("answers per released version: dialog's ask() invokes ask up to 2.6.0 and message from 2.7.0", () => {
    expect(commandsOf("@tauri-apps/plugin-dialog", "ask", "2.6.0")).toEqual(["plugin:dialog|ask"]);
    expect(commandsOf("@tauri-apps/plugin-dialog", "ask", "2.7.0")).toEqual([
      "plugin:dialog|message",
    ]);
  });

  it("picks the version: exact when published, the nearest older one otherwise, the newest a range allows", () => {
    expect(jsApiModule("@tauri-apps/plugin-dialog", "2.6.0")).toMatchObject({
      version: "2.6.0",
      exact: true,
      packageName: "@tauri-apps/plugin-dialog",
    });
    // 2.1.0 was never published: 2.0.2 answers.
    expect(jsApiModule("@tauri-apps/plugin-dialog", "2.1.0")).toMatchObject({
      version: "2.0.2",
      exact: false,
    });
    expect(jsApiModule("@tauri-apps/plugin-dialog", "2.0.0-rc.1")).toMatchObject({
      version: "2.0.0",
      exact: false,
    });
    expect(jsApiModule("@tauri-apps/plugin-dialog", "~2.7.0")).toMatchObject({
      version: "2.7.3",
      exact: false,
    });
    expect(jsApiModule("@tauri-apps/plugin-dialog", "2.7")).toMatchObject({
      version: "2.7.3",
      exact: false,
    });
    const newest = jsApiModule("@tauri-apps/plugin-dialog", undefined);
    expect(newest?.exact).toBe(false);
    expect(jsApiModule("@tauri-apps/plugin-dialog", "^2.0.0")?.version).toBe(newest?.version);
    expect(jsApiModule("@tauri-apps/plugin-dialog", "99.0.0")?.version).toBe(newest?.version);
    // @tauri-apps/api 2.10.0 was published without its build: 2.9.1 answers for it.
    expect(jsApiModule("@tauri-apps/api/window", "2.10.0")).toMatchObject({
      version: "2.9.1",
      exact: false,
      specifier: "@tauri-apps/api/window",
    });
  });

  it("answers unknown modules and members with undefined", () => {
    expect(jsApiModule("@tauri-apps/plugin-nope", "2.0.0")).toBeUndefined();
    expect(jsApiModule("@tauri-apps/api/nope", "2.0.0")).toBeUndefined();
    expect(jsApiModule("@tauri-apps/plugin-dialog", "2.0.0")?.member("nope")).toBeUndefined();
  });

  it("resolves the root module's namespaces and default-export aliases", () => {
    expect(commandsOf("@tauri-apps/api", "window.getCurrentWindow", "2.5.0")).toEqual([]);
    expect(commandsOf("@tauri-apps/api", "core.invoke", "2.5.0")).toEqual(["{0}"]);
    // import Database from "@tauri-apps/plugin-sql"
    const sql = jsApiModule("@tauri-apps/plugin-sql", "2.5.0");
    expect(sql?.member("default")?.returns).toBe("Database");
    expect(sql?.member("default.load")?.commands).toEqual(["plugin:sql|load"]);
  });

  it("lists every command a package version invokes, for the version-skew check", () => {
    const old = packageCommands("@tauri-apps/plugin-dialog", "2.6.0");
    expect(old).toEqual({
      version: "2.6.0",
      exact: true,
      commands: [
        "plugin:dialog|ask",
        "plugin:dialog|confirm",
        "plugin:dialog|message",
        "plugin:dialog|open",
        "plugin:dialog|save",
      ],
    });
    expect(packageCommands("@tauri-apps/plugin-dialog", "2.7.0")?.commands).toEqual([
      "plugin:dialog|message",
      "plugin:dialog|open",
      "plugin:dialog|save",
    ]);
    // Placeholders ({0}) are left out; the package's calls into @tauri-apps/api stay in.
    const store = packageCommands("@tauri-apps/plugin-store", "2.4.5")?.commands ?? [];
    expect(store).toContain("plugin:resources|close");
    expect(store.some((command) => command.includes("{"))).toBe(false);
    expect(packageCommands("@tauri-apps/api", "2.10.0")).toMatchObject({
      version: "2.9.1",
      exact: false,
    });
    expect(packageCommands("@tauri-apps/plugin-nope", "2.0.0")).toBeUndefined();
  });

  it("maps window.__TAURI__ namespaces to modules", () => {
    expect(globalNamespaceModule("dialog")).toBe("@tauri-apps/plugin-dialog");
    expect(globalNamespaceModule("clipboardManager")).toBe("@tauri-apps/plugin-clipboard-manager");
    expect(globalNamespaceModule("window")).toBe("@tauri-apps/api/window");
    expect(globalNamespaceModule("core")).toBe("@tauri-apps/api/core");
    expect(globalNamespaceModule("clipboard-manager")).toBeUndefined();
  });

  it("lists the calls injected scripts make, each with its source", () => {
    const calls = implicitCalls();
    const commands = calls.flatMap((call) => call.commands);
    expect(commands).toEqual(
      expect.arrayContaining([
        "plugin:notification|is_permission_granted",
        "plugin:opener|open_url",
        "plugin:window|start_dragging",
        "plugin:window|internal_toggle_maximize",
      ]),
    );
    for (const call of calls) expect(call.source).toMatch(/^https:\/\/github\.com\/tauri-apps\//);
    // The web APIs the injected scripts replace, which the app (and the packages) may call directly.
    expect(calls.find((call) => call.global === "new Notification")?.commands).toEqual([
      "plugin:notification|notify",
    ]);
    expect(calls.find((call) => call.global === "alert")?.commands).toEqual([
      "plugin:dialog|message",
    ]);
    // The notification plugin's own sendNotification() is `new window.Notification(...)`.
    expect(commandsOf("@tauri-apps/plugin-notification", "sendNotification", "2.5.0")).toEqual([
      "plugin:notification|notify",
    ]);
    expect(commandsOf("@tauri-apps/plugin-notification", "requestPermission", "2.5.0")).toEqual([
      "plugin:notification|request_permission",
    ]);
  });
});
