import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// Every relative link in the repository's Markdown resolves: to a file or folder that exists and,
// with a #fragment into a Markdown file, to one of its headings (GitHub's anchors). A clone is
// read without the network, so a dead relative link is a dead end for a reader.

const ROOT = resolve(import.meta.dirname, "../../../..");
const SKIP = new Set(["node_modules", ".git", "dist", ".tmp", "data", "coverage"]);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith(".md") ? [path] : [];
  });
}

/** The text outside fenced code blocks. */
function unfenced(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, "");
}

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(text: string): string {
  return unfenced(text).replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of unfenced(readFileSync(file, "utf8")).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(match[1] ?? "");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function deadLinks(file: string): string[] {
  const dead: string[] = [];
  for (const match of prose(readFileSync(file, "utf8")).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] ?? "";
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path = "", fragment] = target.split("#");
    const resolved = path === "" ? file : resolve(dirname(file), decodeURIComponent(path));
    const where = `${relative(ROOT, file)} → ${target}`;
    if (!existsSync(resolved)) {
      dead.push(`${where} (no such file)`);
      continue;
    }
    if (fragment && statSync(resolved).isFile() && resolved.endsWith(".md")) {
      if (!anchorsOf(resolved).has(fragment.toLowerCase())) dead.push(`${where} (no such heading)`);
    }
  }
  return dead;
}

describe("the repository's Markdown", () => {
  it("has no dead relative link", () => {
    const files = markdownFiles(ROOT);
    expect(files.length).toBeGreaterThan(10);
    expect(files.flatMap(deadLinks)).toEqual([]);
  });

  it("finds a dead file, a dead heading, and passes a live one (the check can fail)", () => {
    const dir = mkdtempSync(join(tmpdir(), "psm-links-"));
    const page = join(dir, "page.md");
    writeFileSync(
      page,
      "# Safe retries: `Idempotency-Key`\n[a](gone.md) [b](#nowhere) [c](#safe-retries-idempotency-key) [d](page.md)\n",
    );
    expect(deadLinks(page).map((line) => line.replace(/^.* → /, ""))).toEqual([
      "gone.md (no such file)",
      "#nowhere (no such heading)",
    ]);
  });

  it("keeps the README's front page short: the rest is in docs/", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8").split("\n").length).toBeLessThan(150);
  });
});
