import { describe, expect, test } from "vitest";
import { methodIndex } from "./method-not-allowed.js";

const noop = () => undefined;
const routes = [
  { basePath: "/", path: "/*", method: "ALL", handler: noop },
  { basePath: "/", path: "/api/listings", method: "GET", handler: noop },
  { basePath: "/", path: "/api/listings", method: "POST", handler: noop },
  { basePath: "/", path: "/api/listings/:id", method: "PATCH", handler: noop },
  { basePath: "/", path: "/api/listings/:id/view", method: "POST", handler: noop },
  { basePath: "/", path: "/openapi.json", method: "GET", handler: noop },
];

describe("methodIndex", () => {
  const allowed = methodIndex(() => routes);

  test("lists the methods of a path, with HEAD for GET and OPTIONS", () => {
    expect(allowed("/api/listings")).toEqual(["GET", "HEAD", "OPTIONS", "POST"]);
    expect(allowed("/api/listings/abc")).toEqual(["OPTIONS", "PATCH"]);
    expect(allowed("/api/listings/abc/view")).toEqual(["OPTIONS", "POST"]);
  });

  test("unknown paths have none; middleware entries do not count; dots are literal", () => {
    expect(allowed("/nowhere")).toEqual([]);
    expect(allowed("/api/listings/a/b")).toEqual([]);
    expect(allowed("/openapiXjson")).toEqual([]);
  });
});
