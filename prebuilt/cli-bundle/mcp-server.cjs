"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __commonJS = (cb, mod) => function __require() {
  try {
    return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports;
  } catch (e) {
    throw mod = 0, e;
  }
};
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);

// node_modules/isexe/windows.js
var require_windows = __commonJS({
  "node_modules/isexe/windows.js"(exports2, module2) {
    module2.exports = isexe;
    isexe.sync = sync;
    var fs = require("fs");
    function checkPathExt(path, options) {
      var pathext = options.pathExt !== void 0 ? options.pathExt : process.env.PATHEXT;
      if (!pathext) {
        return true;
      }
      pathext = pathext.split(";");
      if (pathext.indexOf("") !== -1) {
        return true;
      }
      for (var i = 0; i < pathext.length; i++) {
        var p = pathext[i].toLowerCase();
        if (p && path.substr(-p.length).toLowerCase() === p) {
          return true;
        }
      }
      return false;
    }
    function checkStat(stat, path, options) {
      if (!stat.isSymbolicLink() && !stat.isFile()) {
        return false;
      }
      return checkPathExt(path, options);
    }
    function isexe(path, options, cb) {
      fs.stat(path, function(er, stat) {
        cb(er, er ? false : checkStat(stat, path, options));
      });
    }
    function sync(path, options) {
      return checkStat(fs.statSync(path), path, options);
    }
  }
});

// node_modules/isexe/mode.js
var require_mode = __commonJS({
  "node_modules/isexe/mode.js"(exports2, module2) {
    module2.exports = isexe;
    isexe.sync = sync;
    var fs = require("fs");
    function isexe(path, options, cb) {
      fs.stat(path, function(er, stat) {
        cb(er, er ? false : checkStat(stat, options));
      });
    }
    function sync(path, options) {
      return checkStat(fs.statSync(path), options);
    }
    function checkStat(stat, options) {
      return stat.isFile() && checkMode(stat, options);
    }
    function checkMode(stat, options) {
      var mod = stat.mode;
      var uid = stat.uid;
      var gid = stat.gid;
      var myUid = options.uid !== void 0 ? options.uid : process.getuid && process.getuid();
      var myGid = options.gid !== void 0 ? options.gid : process.getgid && process.getgid();
      var u = parseInt("100", 8);
      var g = parseInt("010", 8);
      var o = parseInt("001", 8);
      var ug = u | g;
      var ret = mod & o || mod & g && gid === myGid || mod & u && uid === myUid || mod & ug && myUid === 0;
      return ret;
    }
  }
});

// node_modules/isexe/index.js
var require_isexe = __commonJS({
  "node_modules/isexe/index.js"(exports2, module2) {
    var fs = require("fs");
    var core;
    if (process.platform === "win32" || global.TESTING_WINDOWS) {
      core = require_windows();
    } else {
      core = require_mode();
    }
    module2.exports = isexe;
    isexe.sync = sync;
    function isexe(path, options, cb) {
      if (typeof options === "function") {
        cb = options;
        options = {};
      }
      if (!cb) {
        if (typeof Promise !== "function") {
          throw new TypeError("callback not provided");
        }
        return new Promise(function(resolve, reject) {
          isexe(path, options || {}, function(er, is) {
            if (er) {
              reject(er);
            } else {
              resolve(is);
            }
          });
        });
      }
      core(path, options || {}, function(er, is) {
        if (er) {
          if (er.code === "EACCES" || options && options.ignoreErrors) {
            er = null;
            is = false;
          }
        }
        cb(er, is);
      });
    }
    function sync(path, options) {
      try {
        return core.sync(path, options || {});
      } catch (er) {
        if (options && options.ignoreErrors || er.code === "EACCES") {
          return false;
        } else {
          throw er;
        }
      }
    }
  }
});

// node_modules/which/which.js
var require_which = __commonJS({
  "node_modules/which/which.js"(exports2, module2) {
    var isWindows = process.platform === "win32" || process.env.OSTYPE === "cygwin" || process.env.OSTYPE === "msys";
    var path = require("path");
    var COLON = isWindows ? ";" : ":";
    var isexe = require_isexe();
    var getNotFoundError = (cmd) => Object.assign(new Error(`not found: ${cmd}`), { code: "ENOENT" });
    var getPathInfo = (cmd, opt) => {
      const colon = opt.colon || COLON;
      const pathEnv = cmd.match(/\//) || isWindows && cmd.match(/\\/) ? [""] : [
        // windows always checks the cwd first
        ...isWindows ? [process.cwd()] : [],
        ...(opt.path || process.env.PATH || /* istanbul ignore next: very unusual */
        "").split(colon)
      ];
      const pathExtExe = isWindows ? opt.pathExt || process.env.PATHEXT || ".EXE;.CMD;.BAT;.COM" : "";
      const pathExt = isWindows ? pathExtExe.split(colon) : [""];
      if (isWindows) {
        if (cmd.indexOf(".") !== -1 && pathExt[0] !== "")
          pathExt.unshift("");
      }
      return {
        pathEnv,
        pathExt,
        pathExtExe
      };
    };
    var which = (cmd, opt, cb) => {
      if (typeof opt === "function") {
        cb = opt;
        opt = {};
      }
      if (!opt)
        opt = {};
      const { pathEnv, pathExt, pathExtExe } = getPathInfo(cmd, opt);
      const found = [];
      const step = (i) => new Promise((resolve, reject) => {
        if (i === pathEnv.length)
          return opt.all && found.length ? resolve(found) : reject(getNotFoundError(cmd));
        const ppRaw = pathEnv[i];
        const pathPart = /^".*"$/.test(ppRaw) ? ppRaw.slice(1, -1) : ppRaw;
        const pCmd = path.join(pathPart, cmd);
        const p = !pathPart && /^\.[\\\/]/.test(cmd) ? cmd.slice(0, 2) + pCmd : pCmd;
        resolve(subStep(p, i, 0));
      });
      const subStep = (p, i, ii) => new Promise((resolve, reject) => {
        if (ii === pathExt.length)
          return resolve(step(i + 1));
        const ext = pathExt[ii];
        isexe(p + ext, { pathExt: pathExtExe }, (er, is) => {
          if (!er && is) {
            if (opt.all)
              found.push(p + ext);
            else
              return resolve(p + ext);
          }
          return resolve(subStep(p, i, ii + 1));
        });
      });
      return cb ? step(0).then((res) => cb(null, res), cb) : step(0);
    };
    var whichSync = (cmd, opt) => {
      opt = opt || {};
      const { pathEnv, pathExt, pathExtExe } = getPathInfo(cmd, opt);
      const found = [];
      for (let i = 0; i < pathEnv.length; i++) {
        const ppRaw = pathEnv[i];
        const pathPart = /^".*"$/.test(ppRaw) ? ppRaw.slice(1, -1) : ppRaw;
        const pCmd = path.join(pathPart, cmd);
        const p = !pathPart && /^\.[\\\/]/.test(cmd) ? cmd.slice(0, 2) + pCmd : pCmd;
        for (let j = 0; j < pathExt.length; j++) {
          const cur = p + pathExt[j];
          try {
            const is = isexe.sync(cur, { pathExt: pathExtExe });
            if (is) {
              if (opt.all)
                found.push(cur);
              else
                return cur;
            }
          } catch (ex) {
          }
        }
      }
      if (opt.all && found.length)
        return found;
      if (opt.nothrow)
        return null;
      throw getNotFoundError(cmd);
    };
    module2.exports = which;
    which.sync = whichSync;
  }
});

// node_modules/path-key/index.js
var require_path_key = __commonJS({
  "node_modules/path-key/index.js"(exports2, module2) {
    "use strict";
    var pathKey = (options = {}) => {
      const environment = options.env || process.env;
      const platform = options.platform || process.platform;
      if (platform !== "win32") {
        return "PATH";
      }
      return Object.keys(environment).reverse().find((key) => key.toUpperCase() === "PATH") || "Path";
    };
    module2.exports = pathKey;
    module2.exports.default = pathKey;
  }
});

// node_modules/cross-spawn/lib/util/resolveCommand.js
var require_resolveCommand = __commonJS({
  "node_modules/cross-spawn/lib/util/resolveCommand.js"(exports2, module2) {
    "use strict";
    var path = require("path");
    var which = require_which();
    var getPathKey = require_path_key();
    function resolveCommandAttempt(parsed, withoutPathExt) {
      const env = parsed.options.env || process.env;
      const cwd = process.cwd();
      const hasCustomCwd = parsed.options.cwd != null;
      const shouldSwitchCwd = hasCustomCwd && process.chdir !== void 0 && !process.chdir.disabled;
      if (shouldSwitchCwd) {
        try {
          process.chdir(parsed.options.cwd);
        } catch (err) {
        }
      }
      let resolved;
      try {
        resolved = which.sync(parsed.command, {
          path: env[getPathKey({ env })],
          pathExt: withoutPathExt ? path.delimiter : void 0
        });
      } catch (e) {
      } finally {
        if (shouldSwitchCwd) {
          process.chdir(cwd);
        }
      }
      if (resolved) {
        resolved = path.resolve(hasCustomCwd ? parsed.options.cwd : "", resolved);
      }
      return resolved;
    }
    function resolveCommand(parsed) {
      return resolveCommandAttempt(parsed) || resolveCommandAttempt(parsed, true);
    }
    module2.exports = resolveCommand;
  }
});

// node_modules/cross-spawn/lib/util/escape.js
var require_escape = __commonJS({
  "node_modules/cross-spawn/lib/util/escape.js"(exports2, module2) {
    "use strict";
    var metaCharsRegExp = /([()\][%!^"`<>&|;, *?])/g;
    function escapeCommand(arg) {
      arg = arg.replace(metaCharsRegExp, "^$1");
      return arg;
    }
    function escapeArgument(arg, doubleEscapeMetaChars) {
      arg = `${arg}`;
      arg = arg.replace(/(?=(\\+?)?)\1"/g, '$1$1\\"');
      arg = arg.replace(/(?=(\\+?)?)\1$/, "$1$1");
      arg = `"${arg}"`;
      arg = arg.replace(metaCharsRegExp, "^$1");
      if (doubleEscapeMetaChars) {
        arg = arg.replace(metaCharsRegExp, "^$1");
      }
      return arg;
    }
    module2.exports.command = escapeCommand;
    module2.exports.argument = escapeArgument;
  }
});

// node_modules/shebang-regex/index.js
var require_shebang_regex = __commonJS({
  "node_modules/shebang-regex/index.js"(exports2, module2) {
    "use strict";
    module2.exports = /^#!(.*)/;
  }
});

// node_modules/shebang-command/index.js
var require_shebang_command = __commonJS({
  "node_modules/shebang-command/index.js"(exports2, module2) {
    "use strict";
    var shebangRegex = require_shebang_regex();
    module2.exports = (string = "") => {
      const match = string.match(shebangRegex);
      if (!match) {
        return null;
      }
      const [path, argument] = match[0].replace(/#! ?/, "").split(" ");
      const binary = path.split("/").pop();
      if (binary === "env") {
        return argument;
      }
      return argument ? `${binary} ${argument}` : binary;
    };
  }
});

// node_modules/cross-spawn/lib/util/readShebang.js
var require_readShebang = __commonJS({
  "node_modules/cross-spawn/lib/util/readShebang.js"(exports2, module2) {
    "use strict";
    var fs = require("fs");
    var shebangCommand = require_shebang_command();
    function readShebang(command) {
      const size = 150;
      const buffer = Buffer.alloc(size);
      let fd;
      try {
        fd = fs.openSync(command, "r");
        fs.readSync(fd, buffer, 0, size, 0);
        fs.closeSync(fd);
      } catch (e) {
      }
      return shebangCommand(buffer.toString());
    }
    module2.exports = readShebang;
  }
});

// node_modules/cross-spawn/lib/parse.js
var require_parse = __commonJS({
  "node_modules/cross-spawn/lib/parse.js"(exports2, module2) {
    "use strict";
    var path = require("path");
    var resolveCommand = require_resolveCommand();
    var escape = require_escape();
    var readShebang = require_readShebang();
    var isWin = process.platform === "win32";
    var isExecutableRegExp = /\.(?:com|exe)$/i;
    var isCmdShimRegExp = /node_modules[\\/].bin[\\/][^\\/]+\.cmd$/i;
    function detectShebang(parsed) {
      parsed.file = resolveCommand(parsed);
      const shebang = parsed.file && readShebang(parsed.file);
      if (shebang) {
        parsed.args.unshift(parsed.file);
        parsed.command = shebang;
        return resolveCommand(parsed);
      }
      return parsed.file;
    }
    function parseNonShell(parsed) {
      if (!isWin) {
        return parsed;
      }
      const commandFile = detectShebang(parsed);
      const needsShell = !isExecutableRegExp.test(commandFile);
      if (parsed.options.forceShell || needsShell) {
        const needsDoubleEscapeMetaChars = isCmdShimRegExp.test(commandFile);
        parsed.command = path.normalize(parsed.command);
        parsed.command = escape.command(parsed.command);
        parsed.args = parsed.args.map((arg) => escape.argument(arg, needsDoubleEscapeMetaChars));
        const shellCommand = [parsed.command].concat(parsed.args).join(" ");
        parsed.args = ["/d", "/s", "/c", `"${shellCommand}"`];
        parsed.command = process.env.comspec || "cmd.exe";
        parsed.options.windowsVerbatimArguments = true;
      }
      return parsed;
    }
    function parse(command, args, options) {
      if (args && !Array.isArray(args)) {
        options = args;
        args = null;
      }
      args = args ? args.slice(0) : [];
      options = Object.assign({}, options);
      const parsed = {
        command,
        args,
        options,
        file: void 0,
        original: {
          command,
          args
        }
      };
      return options.shell ? parsed : parseNonShell(parsed);
    }
    module2.exports = parse;
  }
});

// node_modules/cross-spawn/lib/enoent.js
var require_enoent = __commonJS({
  "node_modules/cross-spawn/lib/enoent.js"(exports2, module2) {
    "use strict";
    var isWin = process.platform === "win32";
    function notFoundError(original, syscall) {
      return Object.assign(new Error(`${syscall} ${original.command} ENOENT`), {
        code: "ENOENT",
        errno: "ENOENT",
        syscall: `${syscall} ${original.command}`,
        path: original.command,
        spawnargs: original.args
      });
    }
    function hookChildProcess(cp, parsed) {
      if (!isWin) {
        return;
      }
      const originalEmit = cp.emit;
      cp.emit = function(name, arg1) {
        if (name === "exit") {
          const err = verifyENOENT(arg1, parsed);
          if (err) {
            return originalEmit.call(cp, "error", err);
          }
        }
        return originalEmit.apply(cp, arguments);
      };
    }
    function verifyENOENT(status, parsed) {
      if (isWin && status === 1 && !parsed.file) {
        return notFoundError(parsed.original, "spawn");
      }
      return null;
    }
    function verifyENOENTSync(status, parsed) {
      if (isWin && status === 1 && !parsed.file) {
        return notFoundError(parsed.original, "spawnSync");
      }
      return null;
    }
    module2.exports = {
      hookChildProcess,
      verifyENOENT,
      verifyENOENTSync,
      notFoundError
    };
  }
});

// node_modules/cross-spawn/index.js
var require_cross_spawn = __commonJS({
  "node_modules/cross-spawn/index.js"(exports2, module2) {
    "use strict";
    var cp = require("child_process");
    var parse = require_parse();
    var enoent = require_enoent();
    function spawn2(command, args, options) {
      const parsed = parse(command, args, options);
      const spawned = cp.spawn(parsed.command, parsed.args, parsed.options);
      enoent.hookChildProcess(spawned, parsed);
      return spawned;
    }
    function spawnSync(command, args, options) {
      const parsed = parse(command, args, options);
      const result = cp.spawnSync(parsed.command, parsed.args, parsed.options);
      result.error = result.error || enoent.verifyENOENTSync(result.status, parsed);
      return result;
    }
    module2.exports = spawn2;
    module2.exports.spawn = spawn2;
    module2.exports.sync = spawnSync;
    module2.exports._parse = parse;
    module2.exports._enoent = enoent;
  }
});

// dist/mcp/server-process.js
var server_process_exports = {};
__export(server_process_exports, {
  EARLY_FLAGS: () => EARLY_FLAGS,
  EARLY_VALUE_OPTIONS: () => EARLY_VALUE_OPTIONS,
  ServerProcess: () => ServerProcess,
  earlyTarget: () => earlyTarget,
  inheritedEnvironment: () => inheritedEnvironment,
  startEarly: () => startEarly,
  startServer: () => startServer,
  stopUnadopted: () => stopUnadopted
});
module.exports = __toCommonJS(server_process_exports);
var import_node_fs = require("node:fs");
var import_cross_spawn = __toESM(require_cross_spawn(), 1);

// dist/core/quote.js
var INVISIBLE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
function escapeInvisible(text) {
  return text.replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// dist/mcp/text.js
function escapeControls(text) {
  return escapeInvisible(text.replace(/[\u0000-\u001f"\\]/g, (c) => c === '"' ? '\\"' : c === "\\" ? "\\\\" : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
}

// dist/mcp/server-process.js
var INHERITED_ENV_VARS = process.platform === "win32" ? [
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PATH",
  "PROCESSOR_ARCHITECTURE",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "TEMP",
  "USERNAME",
  "USERPROFILE",
  "PROGRAMFILES"
] : ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"];
function inheritedEnvironment(env = process.env) {
  const inherited = {};
  for (const key of INHERITED_ENV_VARS) {
    const value = env[key];
    if (value !== void 0 && !value.startsWith("()"))
      inherited[key] = value;
  }
  return inherited;
}
var EARLY_STDOUT_BYTES = 10 * 1024 * 1024;
var STDERR_TAIL = 5;
var OWN_GROUP = process.platform !== "win32";
var ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"];
var ServerProcess = class {
  target;
  child;
  /** How the child ended, once it has. */
  exit;
  /** A failure to start it (ENOENT: no such command). */
  spawnError;
  /** The last lines of its stderr (sanitized by whoever prints them). */
  stderrTail = [];
  closed = false;
  listener;
  early = [];
  stopping = false;
  stopped;
  earlyBytes = 0;
  started;
  ended;
  onSignal = (signal) => void this.stopOnSignal(signal);
  /** Where stderr goes; until the run says (a server started by the bin), what it writes is held. */
  output;
  heldStderr = [];
  /** A stderr line not yet ended, passed through once it is (a secret split across chunks is still redacted whole). */
  stderrPartial = "";
  constructor(target, output) {
    this.target = target;
    this.output = output;
    this.child = (0, import_cross_spawn.default)(target.command, target.args, {
      env: { ...inheritedEnvironment(), ...target.env },
      ...target.cwd === void 0 ? {} : { cwd: target.cwd },
      // Its own process group, so that stop() ends what it started too (npx, a shell, workers), not only the process caplint spawned.
      detached: OWN_GROUP,
      stdio: ["pipe", "pipe", "pipe"],
      shell: false,
      windowsHide: process.platform === "win32"
    });
    const child = this.child;
    this.started = new Promise((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", reject);
    });
    this.started.catch(() => void 0);
    this.ended = new Promise((resolve) => child.once("close", () => resolve()));
    child.on("error", (error) => {
      this.spawnError ??= error;
      this.listener?.error(error);
    });
    child.once("exit", (code, signal) => {
      this.exit = { code, signal };
      this.removeSignalHandlers();
    });
    child.once("close", () => {
      this.closed = true;
      this.removeSignalHandlers();
      this.listener?.close();
    });
    child.stdin?.on("error", (error) => this.listener?.error(error));
    child.stdout?.on("error", (error) => this.listener?.error(error));
    child.stdout?.on("data", (chunk) => this.readStdout(chunk));
    child.stderr?.on("data", (chunk) => this.readStderr(chunk.toString("utf8")));
    if (child.pid !== void 0)
      for (const signal of ENDING_SIGNALS)
        process.on(signal, this.onSignal);
  }
  /** The run's stderr settings, for a server started before they were known: held output is written now. */
  setOutput(output) {
    this.output = output;
    const held = this.heldStderr;
    this.heldStderr = [];
    for (const text of held)
      this.passThrough(text);
  }
  get pid() {
    return this.child.pid;
  }
  /** Resolves once the process runs, rejects with the spawn error (ENOENT) when it cannot. */
  whenStarted() {
    return this.started;
  }
  /**
   * Starts reading stdout into `listener`, beginning with whatever the server wrote before. When the
   * server has already gone, `close` follows once its last output is read.
   */
  listen(listener) {
    if (this.listener)
      throw new Error("the server's stdout is already read");
    this.listener = listener;
    const early2 = this.early;
    this.early = [];
    for (const chunk of early2)
      listener.data(chunk);
    this.child.stdout?.resume();
    if (this.closed)
      queueMicrotask(() => listener.close());
  }
  /** Writes one serialized message to the server's stdin; resolves once written (or buffered below the high-water mark). */
  write(text) {
    const stdin = this.child.stdin;
    if (this.closed || !stdin || stdin.destroyed)
      return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      if (stdin.write(text))
        resolve();
      else
        stdin.once("drain", resolve);
    });
  }
  /**
   * Ends the server and its process tree, bounded in time, and waits until it is reaped: stdin is
   * closed (a well-behaved server exits then), it gets 300 ms, then its process group and every
   * descendant get SIGTERM and 1.5 s, then SIGKILL. Descendants still running once the server has
   * gone (a worker that inherited stdout, a daemon that left the group with setsid) are ended the
   * same way. Its stdout is drained meanwhile, and its pipes are let go after a last 500 ms: a
   * process caplint could not end never keeps caplint from exiting.
   */
  stop() {
    this.stopped ??= this.stopOnce();
    return this.stopped;
  }
  async stopOnce() {
    const child = this.child;
    if (child.pid === void 0 || this.closed && !OWN_GROUP)
      return;
    this.stopping = true;
    this.early = [];
    child.stdout?.resume();
    const tree = descendants(child.pid);
    if (this.exit === void 0) {
      child.stdin?.end();
      if (!await this.exited(300)) {
        this.signalTree(tree, "SIGTERM");
        if (!await this.exited(1500)) {
          this.signalTree(tree, "SIGKILL");
          await this.exited(2e3);
        }
      }
    }
    await this.endLeftovers(tree);
    await Promise.race([this.ended, delay(500)]);
    if (!this.closed)
      for (const stream of [child.stdin, child.stdout, child.stderr])
        stream?.destroy();
    this.removeSignalHandlers();
  }
  /** The server's group and its descendants still running after it exited: SIGTERM, then SIGKILL after 300 ms. */
  async endLeftovers(tree) {
    if (!OWN_GROUP)
      return;
    const running = () => tree.some(isRunning) || groupRuns(this.child.pid);
    if (!running())
      return;
    this.signalTree(tree, "SIGTERM");
    for (let waited = 0; waited < 300 && running(); waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    if (running())
      this.signalTree(tree, "SIGKILL");
  }
  /** Signals the server's process group (POSIX), the processes it started that left the group, and the server itself. */
  signalTree(tree, signal) {
    const pid = this.child.pid;
    if (OWN_GROUP) {
      try {
        process.kill(-pid, signal);
      } catch {
      }
      for (const member of this.exit === void 0 ? [...tree, ...descendants(pid)] : tree) {
        try {
          process.kill(member, signal);
        } catch {
        }
      }
    }
    if (this.exit === void 0)
      this.child.kill(signal);
  }
  exited(ms) {
    if (this.exit !== void 0)
      return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.child.once("exit", () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
  /**
   * Ctrl-C (or SIGTERM, SIGHUP) while the server runs: caplint would die at once and leave a server
   * that ignores its closed stdin running. The server and its process tree are stopped (SIGTERM,
   * SIGKILL after 1 s) and reaped, then the signal is raised again so that caplint ends as it would have.
   */
  async stopOnSignal(signal) {
    this.removeSignalHandlers();
    const tree = this.child.pid === void 0 ? [] : descendants(this.child.pid);
    if (this.exit === void 0) {
      this.signalTree(tree, "SIGTERM");
      if (!await this.exited(1e3)) {
        this.signalTree(tree, "SIGKILL");
        await this.exited(2e3);
      }
    }
    if (this.child.pid !== void 0)
      await this.endLeftovers(tree);
    if (process.listenerCount(signal) === 0)
      process.kill(process.pid, signal);
  }
  removeSignalHandlers() {
    for (const signal of ENDING_SIGNALS)
      process.removeListener(signal, this.onSignal);
  }
  readStdout(chunk) {
    if (this.listener)
      return this.listener.data(chunk);
    if (this.stopping)
      return;
    this.early.push(chunk);
    this.earlyBytes += chunk.length;
    if (this.earlyBytes > EARLY_STDOUT_BYTES)
      this.child.stdout?.pause();
  }
  readStderr(text) {
    if (this.output)
      this.passThrough(text);
    else if (this.heldStderr.length < 1e3)
      this.heldStderr.push(text);
    for (const line of text.split("\n"))
      if (line.trim())
        this.stderrTail.push(line.trim());
    this.stderrTail.splice(0, Math.max(0, this.stderrTail.length - STDERR_TAIL));
  }
  passThrough(text) {
    if (!this.output?.verbose)
      return;
    const lines = this.stderrPartial + text;
    const end = lines.lastIndexOf("\n") + 1;
    this.stderrPartial = lines.slice(end);
    let shown = lines.slice(0, end);
    if (this.stderrPartial.length > 65536) {
      shown += this.stderrPartial;
      this.stderrPartial = "";
    }
    if (shown === "")
      return;
    const redact = this.output.redact ?? ((plain) => plain);
    this.output.stderr.write(escapeControls(redact(shown)).replace(/\\u000a/g, "\n").replace(/\\u0009/g, "	").replace(/\\\\/g, "\\").replace(/\\"/g, '"'));
  }
};
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return !isZombie(pid);
  } catch {
    return false;
  }
}
function groupRuns(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
function isZombie(pid) {
  try {
    const stat = (0, import_node_fs.readFileSync)(`/proc/${pid}/stat`, "utf8");
    return stat.charAt(stat.lastIndexOf(")") + 2) === "Z";
  } catch {
    return false;
  }
}
function descendants(pid) {
  if (process.platform !== "linux")
    return [];
  const children = /* @__PURE__ */ new Map();
  let entries;
  try {
    entries = (0, import_node_fs.readdirSync)("/proc");
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57)
      continue;
    try {
      const stat = (0, import_node_fs.readFileSync)(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z")
        continue;
      const parent = Number(fields[1]);
      const list = children.get(parent);
      if (list)
        list.push(Number(entry));
      else
        children.set(parent, [Number(entry)]);
    } catch {
    }
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.pop()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}
var early;
var abandoned = [];
function startServer(target, output) {
  const started = early;
  early = void 0;
  if (started && sameTarget(started.target, target)) {
    started.setOutput(output);
    return started;
  }
  if (started)
    abandoned.push(started.stop());
  return new ServerProcess(target, output);
}
function sameTarget(a, b) {
  const sameEnv = Object.keys(a.env).length === Object.keys(b.env).length && Object.entries(a.env).every(([key, value]) => b.env[key] === value);
  return a.command === b.command && a.args.length === b.args.length && a.args.every((arg, i) => arg === b.args[i]) && sameEnv;
}
function startEarly(argv) {
  const target = earlyTarget(argv);
  if (target && early === void 0)
    early = new ServerProcess(target);
  return early;
}
async function stopUnadopted() {
  const left = early;
  early = void 0;
  if (left)
    abandoned.push(left.stop());
  await Promise.all(abandoned.splice(0));
}
var EARLY_FLAGS = /* @__PURE__ */ new Set([
  "--stdio",
  "--probe",
  "--verbose",
  "-q",
  "--quiet",
  "--color",
  "--no-color",
  "--debug"
]);
var EARLY_VALUE_OPTIONS = /* @__PURE__ */ new Set([
  "--timeout",
  "--env",
  "--max-calls",
  "--service",
  "--server-name-style",
  "--verbs",
  "--list-tools",
  "-f",
  "--format",
  "-o",
  "--output",
  "--max-warnings",
  "-c",
  "--config",
  "--rule",
  "--only",
  "--max-file-size",
  "--servers",
  "--server"
]);
function earlyTarget(argv) {
  if (argv[0] !== "mcp")
    return void 0;
  const end = argv.indexOf("--");
  const command = argv[end + 1];
  if (end < 0 || command === void 0 || command === "")
    return void 0;
  let stdio = false;
  const env = {};
  for (let i = argv[1] === "dump" ? 2 : 1; i < end; i++) {
    const arg = argv[i];
    const equals = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = equals > 0 ? arg.slice(0, equals) : arg;
    if (equals < 0 && EARLY_FLAGS.has(name)) {
      stdio ||= name === "--stdio";
      continue;
    }
    if (!EARLY_VALUE_OPTIONS.has(name))
      return void 0;
    const value = equals > 0 ? arg.slice(equals + 1) : argv[++i];
    if (value === void 0 || i >= end)
      return void 0;
    if (name === "--env") {
      const at = value.indexOf("=");
      if (at <= 0)
        return void 0;
      env[value.slice(0, at)] = value.slice(at + 1);
    }
  }
  return stdio ? { kind: "stdio", command, args: argv.slice(end + 2), env } : void 0;
}
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  EARLY_FLAGS,
  EARLY_VALUE_OPTIONS,
  ServerProcess,
  earlyTarget,
  inheritedEnvironment,
  startEarly,
  startServer,
  stopUnadopted
});
