/**
 * Compile-time checks of the registry, run by `pnpm typecheck`: a name outside OperationName is
 * an error where it is written, not a silent miss in some list.
 */
import * as v from "valibot";
import { defineOperation, type OperationName } from "./operation.js";

const base = {
  method: "GET",
  path: "/api/example",
  auth: "public",
  rate: "read",
  tag: "meta",
  summary: "Example",
  description: "Example.",
  input: {},
  ok: { status: 200, schema: v.object({}) },
  handle: async () => ({}),
} as const;

defineOperation({ ...base, name: "get_listing", cacheable: true, etag: true, tool: 3 });

// @ts-expect-error a misspelt operation name does not compile
defineOperation({ ...base, name: "get_listng" });

// @ts-expect-error nor does a misspelt name anywhere a name is typed
export const misspelt: OperationName = "creat_listing";
