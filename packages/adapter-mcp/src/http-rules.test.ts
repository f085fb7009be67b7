import { describe, expect, it } from "vitest";
import { allowedOrigins, isAllowedOrigin } from "./origin.js";
import { rateClassesOf } from "./rate-classes.js";
import { readOnlyRequested } from "./read-only.js";
import type { McpTool } from "./tool.js";

describe("allowed origins", () => {
  it("are the server's own and the listed CORS origins, never a wildcard", () => {
    expect(allowedOrigins("https://market.example", "*")).toEqual(["https://market.example"]);
    const listed = allowedOrigins("https://market.example", ["https://app.example"]);
    expect(listed).toEqual(["https://market.example", "https://app.example"]);
    expect(isAllowedOrigin(undefined, listed)).toBe(true);
    expect(isAllowedOrigin("https://APP.example:443", listed)).toBe(true);
    expect(isAllowedOrigin("https://evil.example", listed)).toBe(false);
    expect(isAllowedOrigin("null", listed)).toBe(false);
  });
});

describe("read-only per request", () => {
  it("is asked by header or query; it cannot be garbled into a write session", () => {
    expect(readOnlyRequested(undefined, undefined)).toBe(false);
    expect(readOnlyRequested("true", undefined)).toBe(true);
    expect(readOnlyRequested(undefined, "1")).toBe(true);
    expect(readOnlyRequested("false", "TRUE")).toBe(true);
    expect(() => readOnlyRequested("yes please", undefined)).toThrow(/read_only/);
  });
});

describe("rate classes", () => {
  const tools = [
    { name: "search_listings", rate: "read" },
    { name: "create_listing", rate: "write" },
    { name: "draft_listing_from_document", rate: "upload" },
  ] as McpTool[];
  const callOf = (name: string) => ({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name } });

  it("count a message as the REST call it stands for, and each message of a batch", () => {
    expect(rateClassesOf({ jsonrpc: "2.0", id: 1, method: "tools/list" }, tools)).toEqual(["read"]);
    expect(rateClassesOf(callOf("create_listing"), tools)).toEqual(["write"]);
    expect(rateClassesOf(callOf("draft_listing_from_document"), tools)).toEqual(["upload"]);
    expect(rateClassesOf([callOf("create_listing"), callOf("search_listings"), null], tools)).toEqual([
      "write",
      "read",
      "read",
    ]);
  });
});
