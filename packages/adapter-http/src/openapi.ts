import { API_VERSION, apiOperations } from "@psm/operations";
import type { Hono } from "hono";
import { type GenerateSpecOptions, generateSpecs } from "hono-openapi";
import type { AppEnv } from "./env.js";
import { openApiWebhooks } from "./openapi-webhooks.js";
import type { RouteKit } from "./route-kit.js";

/** The OpenAPI 3.1 document of a generated app. */
export type OpenApiDocument = Awaited<ReturnType<typeof generateSpecs>>;

/** Options of the document: everything not derived from the routes themselves. */
export function openApiOptions(kit: RouteKit): Partial<GenerateSpecOptions> {
  const mode = kit.marketplace.settings.securityMode;
  return {
    documentation: {
      info: {
        title: "Professional-Services Marketplace API",
        version: API_VERSION,
        description:
          `A B2B marketplace for professional services (security mode: ${mode}). ` +
          "Every error is {error, code}; lists are cursor-paged (cursor, next_cursor). " +
          "See GET /api/capabilities for the running mode's rules and known gaps.",
      },
      servers: [{ url: kit.config.publicUrl }],
      // What the server POSTs to webhook receivers (OpenAPI 3.1 `webhooks`).
      webhooks: openApiWebhooks() as NonNullable<
        NonNullable<GenerateSpecOptions["documentation"]>["webhooks"]
      >,
      // In the registry's order, then the routes outside it.
      tags: [...new Set([...apiOperations(kit.config).map((op) => op.tag), "health", "pages"])].map(
        (name) => ({
          name,
        }),
      ),
      components: {
        securitySchemes: {
          ApiKeyAuth: {
            type: "apiKey",
            in: "header",
            name: "X-API-Key",
            description: "psm_ followed by 64 lowercase hex characters; from POST /api/keys, shown once.",
          },
          BearerAuth: {
            type: "http",
            scheme: "bearer",
            bearerFormat: "JWT",
            description:
              "A JWT from POST /api/auth/login (HS256, valid 7 days), or an API key (psm_…) sent as a bearer token, as MCP clients send it.",
          },
        },
      },
    },
    // /openapi.json and /docs/scalar.js look like static files but are served routes: keep them.
    excludeStaticFile: false,
    excludeMethods: ["OPTIONS"],
    // Every route declares its own 400 with the {error, code} schema.
    defaultValidationErrorResponse: false,
  };
}

/** Generates the document from `app`'s routes once, on first use. */
export function openApiDocument(app: () => Hono<AppEnv>, kit: RouteKit): () => Promise<OpenApiDocument> {
  let document: Promise<OpenApiDocument> | undefined;
  return () => {
    document ??= generateSpecs(app(), openApiOptions(kit));
    return document;
  };
}
