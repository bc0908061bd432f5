/**
 * The report page's script, inlined verbatim (its SHA-256 goes into the page's Content-Security-Policy).
 * It reads the embedded JSON and fills the details panel when a matrix cell is chosen. Every value
 * enters the page through textContent, never as markup. Plain ES2020 in a string so the bytes (and
 * so the hash) are the same whatever compiles this module.
 */
export const CLIENT_SCRIPT = String.raw`(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("report-data").textContent);
  var panel = document.getElementById("details-body");
  var title = document.getElementById("details-title");
  var table = document.getElementById("matrix-table");
  var selected = null;

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function add(parent, child) { parent.appendChild(child); return child; }
  function plural(n, word) { return n + " " + word + (n === 1 ? "" : "s"); }

  function chainNode(entry) {
    var chain = el("span", "chain");
    add(chain, el("span", "cap", entry.capability));
    entry.chain.forEach(function (step) {
      add(chain, el("span", "sep", " \u203a "));
      add(chain, el("span", "perm", step));
    });
    return chain;
  }
  function sourceNode(entry) {
    var where = el("div", "where");
    add(where, el("code", "loc", entry.file + ":" + entry.line));
    if (entry.context !== "local") add(where, el("span", "ctx remote", "remote " + entry.context));
    return where;
  }
  function entriesNode(ids, className) {
    var list = el("ul", "grants " + (className || ""));
    ids.forEach(function (id) {
      var entry = data.entries[id];
      var item = add(list, el("li", "grant"));
      add(item, chainNode(entry));
      add(item, sourceNode(entry));
    });
    return list;
  }
  function scopeNode(label, scope) {
    var box = el("div", "scope");
    add(box, el("span", "scope-label", label));
    scope.allow.forEach(function (value) { add(box, el("code", "scope-allow", "allow " + value)); });
    scope.deny.forEach(function (value) { add(box, el("code", "scope-deny", "deny " + value)); });
    return box;
  }

  function render(row, col) {
    var cell = data.cells[row][col];
    var label = data.windows[row];
    var column = data.columns[col];
    var info = data.rows[row];
    title.textContent = "";
    add(title, el("span", "d-window", label));
    add(title, el("span", "d-times", " \u00d7 "));
    add(title, el("span", "d-plugin", column.label));
    panel.textContent = "";
    panel.setAttribute("data-window", label);
    panel.setAttribute("data-plugin", column.id);

    var summary = add(panel, el("p", "d-summary"));
    var added = cell.commands.filter(function (c) { return c.added; }).length;
    add(summary, el("strong", "", plural(cell.count, "callable command")));
    // The app's own column is labelled "app commands": its commands are "app commands", not "app commands commands".
    var kind = column.id === "" ? "app" : column.label;
    add(summary, document.createTextNode(" of " + column.commands + " " + kind + " command" + (column.commands === 1 ? "" : "s") + " the capabilities mention"));
    if (cell.dangers) add(summary, el("span", "pill danger", "\u26a0 " + plural(cell.dangers.length, "dangerous grant")));
    if (added) add(summary, el("span", "pill new", "+" + added + " new"));
    if (cell.denied.length) add(summary, el("span", "pill denied", "\u2716 " + cell.denied.length + " denied"));
    if (cell.remote) add(summary, el("span", "pill remote", cell.remote + " from remote pages only"));
    if (cell.platformSpecific) add(summary, el("span", "pill platform", cell.platformSpecific + " not on every platform"));
    var via = add(panel, el("p", "d-via"));
    via.textContent = info.capabilities.length
      ? "Capabilities covering \u201c" + label + "\u201d from " + data.originText + ": " + info.capabilities.join(", ")
      : "No capability covers \u201c" + label + "\u201d from " + data.originText + ".";

    if (cell.dangers) {
      var box = add(panel, el("div", "danger-box"));
      add(box, el("h3", "", "\u26a0 Dangerous grants (dangerous-permission)"));
      var notes = add(box, el("ul", "danger-notes"));
      cell.dangers.forEach(function (index) {
        var finding = data.findings[index];
        var li = add(notes, el("li"));
        add(li, el("span", "sev " + finding.severity, finding.severity));
        add(li, document.createTextNode(" " + finding.message + " "));
        add(li, el("code", "loc", finding.file + ":" + finding.line + ":" + finding.column));
      });
    }

    if (cell.commands.length) {
      var list = add(panel, el("table", "commands"));
      var head = add(add(list, el("thead")), el("tr"));
      ["Command", "Granted by (capability \u203a permission chain) and source"].forEach(function (text) { add(head, el("th", "", text)); });
      var body = add(list, el("tbody"));
      cell.commands.forEach(function (command) {
        var tr = add(body, el("tr", "command" + (command.dangers ? " is-danger" : "") + (command.added ? " is-new" : "")));
        tr.setAttribute("data-command", command.command);
        var name = add(tr, el("td", "cmd"));
        add(name, el("code", "", command.command));
        if (command.dangers) add(name, el("span", "pill danger", "\u26a0 dangerous"));
        if (command.added) add(name, el("span", "pill new", "new"));
        if (command.remoteOnly) add(name, el("span", "pill remote", "remote pages only"));
        if (command.unused) add(name, el("span", "pill unused", "not called by the frontend"));
        if (command.platforms) add(name, el("span", "pill platform", command.platforms.join(", ") + " only"));
        var why = add(tr, el("td", "why"));
        add(why, entriesNode(command.grantedBy));
        if (command.scope) add(why, scopeNode("command scope", command.scope));
        if (command.globalScope) add(why, scopeNode("global scope", command.globalScope));
      });
    } else {
      add(panel, el("p", "empty", "\u201c" + label + "\u201d cannot call any " + kind + " command from " + data.originText + "."));
    }

    if (cell.denied.length) {
      add(panel, el("h3", "", "Granted but denied"));
      add(panel, el("p", "note", "A deny in any active capability blocks the command for every window, webview and origin."));
      var denied = add(panel, el("ul", "denied-list"));
      cell.denied.forEach(function (item) {
        var li = add(denied, el("li"));
        li.setAttribute("data-command", item.command);
        add(li, el("code", "", item.command));
        if (item.platforms) add(li, el("span", "pill platform", item.platforms.join(", ") + " only"));
        add(li, el("span", "label", "denied by"));
        add(li, entriesNode(item.deniedBy, "deny"));
        if (item.grantedBy.length) {
          add(li, el("span", "label", "overrides"));
          add(li, entriesNode(item.grantedBy));
        }
      });
    }
    if (cell.removed && cell.removed.length) {
      add(panel, el("h3", "", "No longer callable (callable in the baseline)"));
      var gone = add(panel, el("p", "removed-list"));
      cell.removed.forEach(function (command) { add(gone, el("code", "chip removed", command)); });
    }
  }

  function select(td) {
    if (selected) { selected.classList.remove("selected"); selected.setAttribute("aria-pressed", "false"); }
    selected = td;
    td.classList.add("selected");
    td.setAttribute("aria-pressed", "true");
    render(Number(td.getAttribute("data-row")), Number(td.getAttribute("data-col")));
  }

  table.addEventListener("click", function (event) {
    var td = event.target.closest("td.cell");
    if (td) select(td);
  });
  table.addEventListener("keydown", function (event) {
    var td = event.target.closest("td.cell");
    if (!td) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      select(td);
      return;
    }
    var moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    var move = moves[event.key];
    if (!move) return;
    var next = table.querySelector('td.cell[data-row="' + (Number(td.getAttribute("data-row")) + move[0]) + '"][data-col="' + (Number(td.getAttribute("data-col")) + move[1]) + '"]');
    if (next) { event.preventDefault(); next.focus(); }
  });
})();
`;
