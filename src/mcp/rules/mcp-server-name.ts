import { serverName } from "../listing.js";
import { SERVER_NAME_PATTERNS, serviceFromServerName, versionToken } from "../naming.js";
import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";

export default defineMcpRule({
  id: "mcp-server-name",
  domain: "mcp",
  input: "static",
  description: "serverInfo.name is {service}_mcp (lowercase, underscores; --server-name-style node: {service}-mcp-server) without a version or a date.",
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    versioned: "server name {{name}} carries a version or date ({{version}}); a server name stays the same across releases",
    convention: "server name {{name}} does not follow the {{convention}} convention",
  },
  check({ listing, settings, report }) {
    const name = serverName(listing);
    if (name === undefined || !listing.serverInfo) return;
    const path = [...listing.serverInfo.path, "name"];
    const style = SERVER_NAME_PATTERNS[settings.serverNameStyle];
    const version = versionToken(name);
    const service = serviceFromServerName(name);
    const suggestion = service ? `${settings.serverNameStyle === "node" ? service.replace(/_/g, "-") : service}${style.suffix}` : style.example;
    if (version !== undefined) {
      report({
        path,
        messageId: "versioned",
        data: { name: quote(name), version: quote(version) },
        hint: `name it ${quote(suggestion)} and put the version in serverInfo.version`,
      });
    } else if (!style.pattern.test(name)) {
      report({
        path,
        messageId: "convention",
        data: { name: quote(name), convention: settings.serverNameStyle === "node" ? "{service}-mcp-server" : "{service}_mcp" },
        hint: `name it ${quote(suggestion)}${settings.serverNameStyle === "python" ? " (or pass --server-name-style node for {service}-mcp-server)" : ""}`,
      });
    }
  },
});
