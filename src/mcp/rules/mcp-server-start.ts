import { definePipelineStep } from "./types.js";

/**
 * The finding of `caplint mcp --servers` for a declared server that could not be linted: its entry
 * cannot be run as written (an `${input:…}` caplint does not ask for, an unset variable, neither a
 * command nor a URL), or the server did not start or answer. Reported at the server's entry.
 */
export default definePipelineStep({
  id: "mcp-server-start",
  description:
    "Every server a client configuration declares (caplint mcp --servers) can be started and answers initialize and tools/list.",
  category: "correctness",
  defaultSeverity: "error",
  fixable: false,
  messages: {
    failed: "server {{server}} could not be linted: {{problem}}",
    unresolvedInput:
      "server {{server}} uses {{reference}} ({{what}}); caplint asks for nothing, so it cannot start this server",
    unsetVariable:
      "server {{server}} uses {{reference}}, and the environment variable is not set (nor a default given with :-)",
    invalidEntry: "server {{server}} cannot be run as written: {{problem}}",
  },
});
