import { createHttpApp } from "@psm/adapter-http";
import { createMarketplace } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { canonicalJson, fingerprintOf } from "../src/catalog/keyed-call.js";
import { type ApiCatalog, apiCatalog } from "../src/catalog.js";

type Node = { [key: string]: unknown };

const config = { corsOrigins: "*" as const, publicUrl: "http://localhost:3000" };

describe("apiCatalog", () => {
  let catalog: ApiCatalog;
  let openapi: Node;

  beforeAll(async () => {
    const marketplace = createMarketplace(createTestDeps());
    catalog = await apiCatalog({}, marketplace.settings);
    const app = createHttpApp({ marketplace, config });
    openapi = (await (await app.request("/openapi.json")).json()) as Node;
  });

  const at = (node: unknown, ...path: string[]): Node => {
    let current = node;
    for (const key of path) current = (current as Node | undefined)?.[key];
    return (current ?? {}) as Node;
  };
  // A `$ref` to components, followed; `allOf` of one, unwrapped.
  const resolve = (node: Node): Node => {
    if (typeof node.$ref === "string") return resolve(at(openapi, ...node.$ref.slice(2).split("/")));
    const all = node.allOf;
    return Array.isArray(all) && all.length === 1 ? resolve(all[0] as Node) : node;
  };

  it("has the tools issue 14 names, each a registry operation's name where it runs one", () => {
    const names = catalog.tools.map((tool) => tool.name);
    for (const name of [
      "whoami",
      "search_listings",
      "get_listing",
      "list_categories",
      "create_listing",
      "update_listing",
      "delete_listing",
      "draft_listing_from_document",
      "list_messages",
      "send_message",
      "get_listing_limit",
      "list_api_keys",
    ]) {
      expect(names).toContain(name);
    }
    expect(names.filter((name) => name.startsWith("admin_"))).toHaveLength(4);
    const capabilities = new Map(catalog.capabilities.capabilities.map((c) => [c.name, c]));
    for (const tool of catalog.tools.filter((t) => t.http !== null)) {
      expect(capabilities.get(tool.name), tool.name).toMatchObject({ ...tool.http, auth: tool.auth });
    }
  });

  it("takes the input /openapi.json documents for its route, plus path parameters and the idempotency key", () => {
    let compared = 0;
    for (const tool of catalog.tools) {
      if (tool.http === null || tool.name === "draft_listing_from_document") continue;
      const operation = at(openapi, "paths", tool.http.path, tool.http.method.toLowerCase());
      const parameters = (operation.parameters ?? []) as { in: string; name: string }[];
      const body = resolve(at(operation, "requestBody", "content", "application/json", "schema"));
      const documented = [
        ...parameters.filter((p) => p.in === "path" || p.in === "query").map((p) => p.name),
        ...Object.keys(at(body, "properties")),
      ];
      if (parameters.some((p) => p.in === "header" && p.name === "Idempotency-Key"))
        documented.push("idempotency_key");
      expect(Object.keys(tool.inputSchema.properties).sort(), tool.name).toEqual(documented.sort());
      for (const [name, schema] of Object.entries(at(body, "properties"))) {
        expect(tool.inputSchema.properties[name], `${tool.name}.${name}`).toEqual(schema);
        compared++;
      }
    }
    // Every body field of create_listing, update_listing, send_message and the admin deletes.
    expect(compared).toBeGreaterThan(25);
  });

  it("answers what /openapi.json documents, or the API's {error, code}", () => {
    for (const tool of catalog.tools) {
      if (tool.http === null) continue;
      const operation = at(openapi, "paths", tool.http.path, tool.http.method.toLowerCase());
      const status = Object.keys(at(operation, "responses")).find((code) => code.startsWith("2")) ?? "";
      const ok = resolve(at(operation, "responses", status, "content", "application/json", "schema"));
      const [success, failure] = tool.outputSchema.anyOf as Node[];
      // The same fields, other users' text under untrusted_ names (untrusted.ts).
      const keys = Object.keys(at(success, "properties")).map((key) => key.replace(/^untrusted_/, ""));
      expect(keys, tool.name).toEqual(Object.keys(at(ok, "properties")));
      expect(failure?.required).toEqual(["error", "code"]);
    }
  });

  it("names other users' text untrusted in schemas, and says so", () => {
    const tool = (name: string) => catalog.tools.find((t) => t.name === name);
    // search_listings is the first tool to answer listings: its schema describes their fields.
    const first = at(tool("search_listings")?.outputSchema.anyOf, "0", "properties", "items", "items");
    expect(at(first, "properties", "untrusted_description").description).toMatch(/^UNTRUSTED: /);
    const listing = at(tool("get_listing")?.outputSchema.anyOf, "0", "properties", "listing", "allOf", "0");
    expect(Object.keys(at(listing, "properties"))).toContain("untrusted_description");
    expect(Object.keys(at(listing, "properties"))).not.toContain("description");
    expect(listing.required).toContain("untrusted_description");
    expect(String(listing.description)).toContain("search_listings");
    const message = at(tool("list_messages")?.outputSchema.anyOf, "0", "properties", "messages", "items");
    expect(Object.keys(at(message, "properties"))).toContain("untrusted_content");
    // The schemas are self-contained: no OpenAPI component names or references.
    expect(JSON.stringify(catalog.tools.map((t) => [t.inputSchema, t.outputSchema]))).not.toMatch(
      /"ref"|\$ref|\$schema/,
    );
  });

  it("marks writes honestly", () => {
    const flags = Object.fromEntries(
      catalog.tools.map((t) => [t.name, [t.readOnly, t.destructive, t.idempotent, t.openWorld]]),
    );
    expect(flags.search_listings).toEqual([true, false, true, false]);
    expect(flags.create_listing).toEqual([false, false, false, false]);
    expect(flags.update_listing).toEqual([false, true, true, false]);
    expect(flags.delete_listing).toEqual([false, true, true, false]);
    expect(flags.send_message).toEqual([false, false, false, false]);
    expect(flags.draft_listing_from_document).toEqual([true, false, true, true]);
  });
});

describe("keyed tool calls", () => {
  it("fingerprint arguments as canonical JSON, so key order does not matter and content does", () => {
    expect(canonicalJson({ b: [1, { d: 2, c: null }], a: "x", skipped: undefined })).toBe(
      '{"a":"x","b":[1,{"c":null,"d":2}]}',
    );
    const one = fingerprintOf("POST", "/api/listings", { title: "A", price: 1 });
    expect(fingerprintOf("POST", "/api/listings", { price: 1, title: "A" })).toBe(one);
    expect(fingerprintOf("POST", "/api/listings", { price: 2, title: "A" })).not.toBe(one);
    expect(fingerprintOf("DELETE", "/api/listings/x", null)).not.toBe(
      fingerprintOf("DELETE", "/api/listings/x", {}),
    );
  });
});
