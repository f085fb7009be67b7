#!/usr/bin/env node
// The `psm-mcp` command. Like bin.ts, this file parses on old Node.js versions
// (ES2017, no static import but the version check), so that on Node.js 20 it
// says which version it needs instead of failing on the server's syntax.
import { nodeIsRecentEnough } from "./node-check.js";

if (nodeIsRecentEnough("psm-mcp")) {
  // mcp-cli.ts reports its own failures in one line; this catches what escapes it.
  import("./mcp-cli.js")
    .then((cli) => cli.run(process.argv.slice(2)))
    .catch((error: unknown) => {
      process.stderr.write(`psm-mcp: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    });
}
