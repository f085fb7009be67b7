import { createApiKeySchema, isAdmin, pageQuerySchema, rotateApiKeySchema } from "@psm/core";
import { defineOperation } from "../operation.js";
import { presentApiKey, presentCreatedApiKey } from "../presenters.js";
import { ApiKeySchema, CreatedApiKeyAnswer, pageOf, SuccessSchema } from "../wire-schemas.js";
import { KEY_FIELDS, PAGE_QUERY } from "./descriptions.js";

const tag = "keys";

/**
 * Said to an admin who creates a key: 1.0.2 has a key grant its user's
 * permissions, so an admin's key is an admin everywhere but /api/admin.
 */
export const ADMIN_KEY_WARNING =
  "This key carries your admin rights outside /api/admin: whoever holds it can delete any listing " +
  "and read any user's messages. Keep it as you keep your password, and deactivate it when unused.";

/** /api/keys: list, create (value shown once), deactivate. */
export const keyOperations = [
  defineOperation({
    name: "list_api_keys",
    tool: 12,
    useWhen: "to see which keys exist before rotating or deactivating one",
    method: "GET",
    path: "/api/keys",
    auth: "key-or-jwt",
    scope: "account:write",
    rate: "read",
    private: "always",
    tag,
    summary: "List API keys",
    description: "The caller's keys (all keys for an admin).",
    input: { schema: pageQuerySchema, from: "query", describe: PAGE_QUERY },
    ok: { status: 200, schema: pageOf("keys", ApiKeySchema) },
    handle: async ({ m, actor, command }) => {
      const page = await m.apiKeys.list(actor, command);
      return { keys: page.items.map(presentApiKey), count: page.items.length, next_cursor: page.nextCursor };
    },
  }),
  defineOperation({
    name: "create_api_key",
    tool: 17,
    useWhen:
      "when the user asks for a new key for another integration; limit it with scopes and expires_at where you can",
    method: "POST",
    path: "/api/keys",
    auth: "key-or-jwt",
    scope: "account:write",
    rate: "write",
    private: "always",
    tag,
    summary: "Create an API key",
    description:
      "Create a key; its value is shown once. Without `scopes` a key carries its owner's rights (an admin's " +
      "key acts as admin outside /api/admin, which needs a JWT, and the answer warns an admin of it); with " +
      "them, only what they name. A key never grants more than the credential that makes it, nor outlives it.",
    // The body is optional: an empty one takes the default name.
    input: {
      schema: createApiKeySchema,
      from: "body",
      ref: "CreateApiKey",
      required: false,
      describe: KEY_FIELDS,
      example: { name: "Inbox assistant", scopes: ["messages:read"], expires_at: "2027-06-30T00:00:00Z" },
    },
    ok: { status: 200, schema: CreatedApiKeyAnswer },
    secrets: ["key.key"],
    handle: async ({ m, actor, command }) => {
      const key = presentCreatedApiKey(await m.apiKeys.create(actor, command));
      return isAdmin(actor) ? { key, warning: ADMIN_KEY_WARNING } : { key };
    },
  }),
  defineOperation({
    name: "rotate_api_key",
    tool: 18,
    useWhen: "to replace a key that may have leaked or is about to expire, without a gap",
    method: "POST",
    path: "/api/keys/{id}/rotate",
    auth: "key-or-jwt",
    scope: "account:write",
    rate: "write",
    private: "always",
    tag,
    summary: "Rotate an API key",
    description:
      "Make a new key with the same name, scopes and expiry; its value is shown once. The old key keeps " +
      "working for `grace_seconds` (default 86400, at most 604800), then expires, so an integration can " +
      "switch without a break. Only the key's owner may rotate it.",
    input: {
      schema: rotateApiKeySchema,
      from: "body",
      path: { id: "id" },
      ref: "RotateApiKey",
      required: false,
      describe: KEY_FIELDS,
      example: { grace_seconds: 3600 },
    },
    ok: { status: 201, schema: CreatedApiKeyAnswer },
    secrets: ["key.key"],
    errors: [403, 404],
    handle: async ({ m, actor, command }) => ({
      key: presentCreatedApiKey(await m.apiKeys.rotate(actor, command)),
    }),
  }),
  defineOperation({
    name: "deactivate_api_key",
    tool: 19,
    useWhen: "to end a key at once (a leaked key, an integration retired)",
    method: "DELETE",
    path: "/api/keys/{id}",
    auth: "key-or-jwt",
    scope: "account:write",
    rate: "write",
    private: "always",
    tag,
    summary: "Deactivate an API key",
    description: "Deactivate a key.",
    input: { path: { id: "id" } },
    ok: { status: 200, schema: SuccessSchema },
    errors: [404],
    handle: async ({ m, actor, command }) => {
      await m.apiKeys.deactivate(actor, command);
      return { success: true };
    },
  }),
];
