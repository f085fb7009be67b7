// Imported first by each command's entry (bin.ts, mcp-bin.ts), so it must
// parse and run on old Node.js versions to tell their users what to install
// instead of failing on syntax they lack: nothing newer than ES2017 here (no
// `?.`, no `??`, no top-level await) and no import. The server needs Node.js
// 24.7: its native crypto.argon2 hashes passwords.

const NEEDED_MAJOR = 24;
const NEEDED_MINOR = 7;

/**
 * True when this Node.js can run `command`; otherwise says on stderr which
 * version it needs, sets exit code 1 and answers false.
 */
export function nodeIsRecentEnough(command: string): boolean {
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  if (major > NEEDED_MAJOR || (major === NEEDED_MAJOR && minor >= NEEDED_MINOR)) return true;
  process.stderr.write(
    `${command} needs Node.js ${NEEDED_MAJOR}.${NEEDED_MINOR} or later (this is ${process.versions.node})\n`,
  );
  process.exitCode = 1;
  return false;
}
