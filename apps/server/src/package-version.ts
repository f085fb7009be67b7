import { readFileSync } from "node:fs";

/** The version of @psm/server, from its package.json: one level above src/ and dist/ alike. */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}
