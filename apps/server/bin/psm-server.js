#!/usr/bin/env node
// The `psm-server` command as package.json's "bin" names it: committed rather than
// built, so that pnpm links it on a clean clone before the first build (a bin
// pointing into dist/ makes every such install warn). It hands over to
// dist/bin.js, which checks the Node.js version first. Old syntax only (ES2017).
import { existsSync } from "node:fs";

const entry = new URL("../dist/bin.js", import.meta.url);
if (existsSync(entry)) {
  import(entry.href);
} else {
  process.stderr.write("psm-server is not built yet: run `pnpm build` in the repository first\n");
  process.exitCode = 1;
}
