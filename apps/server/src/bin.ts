#!/usr/bin/env node
// The `psm-server` command. Like node-check.ts, this file must parse on old
// Node.js versions (ES2017, no static import but that check), so that every
// command, --help included, passes the version check before cli.js, which
// needs Node.js 24.7, is loaded.
import { nodeIsRecentEnough } from "./node-check.js";

if (nodeIsRecentEnough("psm-server")) {
  // The commands report their own failures in one line; this catches what escapes them.
  import("./cli.js")
    .then((cli) => cli.run(process.argv.slice(2)))
    .catch((error: unknown) => {
      process.stderr.write(`psm-server: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    });
}
