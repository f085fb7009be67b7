#!/usr/bin/env node
// The `psm-server` command. This file must parse and run on old Node.js
// versions, to tell their users what to install instead of failing on syntax
// they lack: nothing newer than ES2017 here (no `?.`, no `??`, no top-level
// await) and no static import. cli.js, imported only after the check, needs
// Node.js 24.7 (the server's native crypto.argon2 hashes passwords), so every
// command, --help included, passes this check first.

const NEEDED_MAJOR = 24;
const NEEDED_MINOR = 7;

const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
if (major < NEEDED_MAJOR || (major === NEEDED_MAJOR && minor < NEEDED_MINOR)) {
  process.stderr.write(
    `psm-server needs Node.js ${NEEDED_MAJOR}.${NEEDED_MINOR} or later (this is ${process.versions.node})\n`,
  );
  process.exitCode = 1;
} else {
  // The commands report their own failures in one line; this catches what escapes them.
  import("./cli.js")
    .then((cli) => cli.run(process.argv.slice(2)))
    .catch((error: unknown) => {
      process.stderr.write(`psm-server: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    });
}
