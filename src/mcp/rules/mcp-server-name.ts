import { serverName } from "../listing.js";
import { SERVER_NAME_PATTERNS, serviceFromServerName, versionToken } from "../naming.js";
import { quote } from "../text.js";
import { defineMcpRule } from "./types.js";

export default defineMcpRule({
  id: "mcp-server-name",
  input: "static",
  description:
    "serverInfo.name is {service}_mcp (lowercase, underscores) or {service}-mcp-server (lowercase, hyphens; --server-name-style pins one), without a version or a date.",
  category: "style",
  defaultSeverity: "warning",
  fixable: false,
  messages: {
    versioned:
      "server name {{name}} carries a version or date ({{version}}); a server name stays the same across releases",
    convention: "server name {{name}} does not follow the {{convention}} convention",
  },
  check({ listing, settings, report }) {
    const name = serverName(listing);
    if (name === undefined || !listing.serverInfo) return;
    const path = [...listing.serverInfo.path, "name"];
    const styles =
      settings.serverNameStyle === "any"
        ? (["python", "node"] as const)
        : ([settings.serverNameStyle] as const);
    // With either style accepted, the suggestion keeps the separator the name already uses.
    const suggested =
      settings.serverNameStyle === "any"
        ? name.includes("-")
          ? "node"
          : "python"
        : settings.serverNameStyle;
    const service = serviceFromServerName(name)?.toLowerCase();
    const pattern = SERVER_NAME_PATTERNS[suggested];
    const suggestion = service
      ? `${suggested === "node" ? service.replace(/_/g, "-") : service}${pattern.suffix}`
      : pattern.example;
    const version = versionToken(name);
    if (version !== undefined) {
      report({
        path,
        messageId: "versioned",
        data: { name: quote(name), version: quote(version) },
        hint: `name it ${quote(suggestion)} and put the version in serverInfo.version`,
      });
    } else if (!styles.some((style) => SERVER_NAME_PATTERNS[style].pattern.test(name))) {
      report({
        path,
        messageId: "convention",
        data: {
          name: quote(name),
          convention: styles
            .map((style) => (style === "node" ? "{service}-mcp-server" : "{service}_mcp"))
            .join(" or "),
        },
        hint: `name it ${quote(suggestion)}`,
      });
    }
  },
});
