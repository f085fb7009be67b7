import { buildCapabilities } from "../capabilities.js";
import type { OperationsConfig } from "../config.js";
import { defineOperation, type Operation } from "../operation.js";
import { CapabilitiesSchema } from "../wire-schemas.js";
import { adminOperations } from "./admin.js";
import { authOperations } from "./auth.js";
import { documentOperations } from "./documents.js";
import { eventOperations } from "./events.js";
import { keyOperations } from "./keys.js";
import { listingOperations } from "./listings.js";
import { messageOperations } from "./messages.js";
import { notificationOperations } from "./notifications.js";
import { profileOperations } from "./profiles.js";
import { savedSearchOperations } from "./saved-searches.js";
import { webhookOperations } from "./webhooks.js";

/**
 * The route registry of the JSON API: every operation, in the order the
 * capabilities document lists them. Hono routes, /openapi.json, rate limits
 * and /api/capabilities are derived from it, and other adapters (MCP) can list
 * their tools from it.
 */
export function apiOperations(config: OperationsConfig): Operation[] {
  const auth = authOperations(config);
  const operations: Operation[] = [
    defineOperation({
      name: "capabilities",
      method: "GET",
      path: "/api/capabilities",
      auth: "public",
      rate: "read",
      tag: "meta",
      summary: "Capabilities document",
      description: "This document.",
      input: {},
      ok: { status: 200, schema: CapabilitiesSchema },
      handle: async ({ m }) => buildCapabilities(operations, m.settings, config),
    }),
    ...listingOperations,
    ...auth.filter((op) => op.tag === "auth"),
    ...keyOperations,
    ...messageOperations,
    ...eventOperations,
    ...webhookOperations,
    ...savedSearchOperations,
    ...notificationOperations,
    ...profileOperations,
    ...auth.filter((op) => op.tag === "users"),
    ...documentOperations(config),
    ...adminOperations,
  ];
  return operations;
}
