/** @psm/adapter-http/testing: helpers for tests of the HTTP surface. */
import type { SecurityMode } from "@psm/core";
import { apiOperations, type Capability, capabilityList } from "@psm/operations";
import { resolveConfig } from "../config.js";

/** Every operation of the registry as GET /api/capabilities lists it in `mode`. */
export function capabilityTable(mode: SecurityMode): Capability[] {
  return capabilityList(
    apiOperations(resolveConfig({ publicUrl: "http://localhost", corsOrigins: "*" })),
    mode,
  );
}

export type { Capability };
