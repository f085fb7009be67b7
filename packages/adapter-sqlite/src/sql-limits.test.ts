import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// SQLite 3.54 plans with the value bound to a bare parameter in `LIMIT @n`, `OFFSET @n`, or an
// equality on an indexed column of a statement that orders (`user_id = @userId … ORDER BY id`), so
// every new binding expires the statement and the next step prepares it again: a fifth to two
// thirds of the statement's time (measured on bench:http's database: the page 46 → 26 µs, the FTS
// candidates 163 → 81 µs, an author's listings 15.5 → 5.2 µs). `+@n` is the same value to SQLite,
// but not a bare parameter.
const SOURCES = join(import.meta.dirname);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** Every source line of the adapter that `pattern` finds, with where it is. */
function lines(pattern: RegExp): string[] {
  return sources(SOURCES).flatMap((path) =>
    readFileSync(path, "utf8")
      .split("\n")
      .flatMap((line, i) => (pattern.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe("the adapter's SQL", () => {
  it("binds no LIMIT or OFFSET as a bare parameter, so a statement is prepared once", () => {
    expect(lines(/\b(LIMIT|OFFSET)\s+(@|\?|\$\{)/i)).toEqual([]);
  });

  it("gives a prepared query builder's limit as limitPlaceholder, which drizzle writes `LIMIT +?`", () => {
    // `.limit(sql.placeholder(…))` is written `limit ?`: the keys list and the inbox were compiled
    // again on every signed-in read (sqlite3Reprepare under sqlite3_step in a perf profile).
    expect(lines(/\.(limit|offset)\(\s*sql\.placeholder/)).toEqual([]);
  });

  it("compares an author or a category with +@, as the pages and searches that order by them need", () => {
    // In a WHERE, not an UPDATE's SET.
    expect(lines(/(?:\bl\.|\bWHERE\s+|\bAND\s+)(user_id|category)\s*=\s*@/)).toEqual([]);
  });
});
