import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { harness } from "./helpers.js";
import { useSuiteValue } from "./suite-value.js";

/**
 * Issue 12, item 9: a client generated from /openapi.json with openapi-typescript
 * (default options) and openapi-fetch runs the README's first session without a
 * cast. The types are generated from the document the app serves, written with
 * the client (test/openapi-client/first-session.mts) to a directory of their
 * own, type-checked there and run against the app in process.
 */

const here = dirname(fileURLToPath(import.meta.url));
const CLIENT = join(here, "openapi-client", "first-session.mts");
// In the package (git ignores .tmp/), so that the client resolves openapi-fetch from its node_modules.
const TMP = join(here, "..", ".tmp");

/** The repository's compiler settings (tsconfig.base.json, tsconfig.tests.json), checking only. */
const COMPILER: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
  types: ["node"],
  strict: true,
  noUncheckedIndexedAccess: true,
  noImplicitOverride: true,
  verbatimModuleSyntax: true,
  erasableSyntaxOnly: true,
  isolatedModules: true,
  skipLibCheck: true,
  noEmit: true,
};

/** The compiler's complaints about `file` and what it imports, one line each. */
function typeErrors(file: string): string[] {
  const program = ts.createProgram([file], COMPILER);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (d.file === undefined || d.start === undefined) return message;
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName}:${line + 1}:${character + 1} ${message}`;
  });
}

/** Every way `source` could overrule the types: `as`, `<T>x`, `x!` and `@ts-` directives. */
function overrulings(source: string): string[] {
  const file = ts.createSourceFile("client.mts", source, ts.ScriptTarget.ES2023, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) {
      found.push(node.getText(file));
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  for (const directive of source.match(/@ts-\w+/g) ?? []) found.push(directive);
  return found;
}

describe("a client generated from /openapi.json (openapi-typescript, openapi-fetch)", () => {
  const generated = useSuiteValue(
    "the client was not generated",
    async (defer) => {
      const h = harness();
      const res = await h.call("GET", "/openapi.json");
      expect(res.status).toBe(200);
      // The served bytes, with openapi-typescript's default options.
      const types = astToString(await openapiTS(await res.text()));
      mkdirSync(TMP, { recursive: true });
      const dir = mkdtempSync(join(TMP, "openapi-client-"));
      defer(() => rmSync(dir, { recursive: true, force: true }));
      writeFileSync(join(dir, "schema.ts"), types);
      const source = readFileSync(CLIENT, "utf8");
      const client = join(dir, "first-session.mts");
      writeFileSync(client, source);
      return { h, dir, client, source };
    },
    60_000,
  );

  test("the client holds no cast", () => {
    expect(generated.source).not.toContain(" as ");
    expect(overrulings(generated.source)).toEqual([]);
  });

  test("the client type-checks against the generated types, strictly", () => {
    expect(typeErrors(generated.client)).toEqual([]);
  }, 180_000);

  test("a mistyped call does not type-check: the types are the API's, not `any`", () => {
    const wrong = join(generated.dir, "wrong.mts");
    writeFileSync(
      wrong,
      [
        'import createClient from "openapi-fetch";',
        'import type { paths } from "./schema.js";',
        "const api = createClient<paths>();",
        'await api.POST("/api/listings", { body: { title: "T", description: "D", category: "plumbing" } });',
        'await api.GET("/api/listings/{id}", {});',
        "",
      ].join("\n"),
    );
    const errors = typeErrors(wrong);
    expect(errors.some((e) => e.includes('"plumbing"'))).toBe(true);
    expect(errors.some((e) => e.includes("wrong.mts:5:"))).toBe(true);
  }, 180_000);

  test("the client runs the README's first session", async () => {
    const { firstSession } = await import(pathToFileURL(generated.client).href);
    const session = await firstSession(async (request: Request) => generated.h.app.fetch(request));

    expect(session.user).toMatchObject({
      email: "ada@example.com",
      is_admin: false,
      account_type: "personal",
    });
    expect(session.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(session.key).toMatchObject({ name: "API Key", is_active: true, user_id: session.user.id });
    expect(session.key.key).toMatch(/^psm_[0-9a-f]{64}$/);
    expect(session.anonymous).toEqual({ status: 401, code: "unauthenticated" });
    expect(session.listing).toMatchObject({
      title: "Kubernetes audit",
      description: "Two-week review",
      category: "cybersecurity",
      price: 4800,
      condition: "good",
      images: [],
      status: "active",
      views: 0,
      user_id: session.user.id,
    });
    expect(session.found).toEqual({ count: 1, ids: [session.listing.id] });
    expect(session.fetched).toEqual(session.listing);
    expect(session.me).toMatchObject({ id: session.user.id, active_listings_count: 1 });
  });
});
