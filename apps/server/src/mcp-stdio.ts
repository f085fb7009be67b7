#!/usr/bin/env node
// The `psm-mcp` command: the marketplace's MCP server over stdio, for a local
// client (a desktop assistant, an IDE) that starts it as a child process. It
// opens the storage the server is configured with (DATABASE_URL or DATA_DIR,
// the same variables) and acts as the user whose API key is in PSM_API_KEY.
// stdout carries JSON-RPC: logs and errors go to stderr.
import { serveStdio } from "@psm/adapter-mcp";
import { isMarketplaceError } from "@psm/core";
import pino from "pino";
import { ConfigError, readConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { openMarketplace } from "./marketplace.js";
import { toolCatalog } from "./mcp.js";
import { describeCause } from "./start-errors.js";

async function main(): Promise<number> {
  const config = readConfig();
  const apiKey = process.env.PSM_API_KEY?.trim();
  if (!apiKey) throw new ConfigError("Invalid configuration: PSM_API_KEY is required (an API key, psm_...)");
  const logger = createLogger(config.logLevel, pino.destination({ dest: 2, sync: false }));
  const { marketplace, storage, mailer, documents } = await openMarketplace(config);
  try {
    // Checked again before every tool call, as the HTTP server checks each request.
    const caller = () => marketplace.auth.authenticate({ apiKey });
    const actor = await caller().catch((error: unknown) => {
      const refused = ["unauthenticated", "api_key_revoked", "api_key_expired"] as const;
      if (refused.some((code) => isMarketplaceError(error, code))) {
        const why = error instanceof Error ? ` (${error.message})` : "";
        throw new ConfigError(`Invalid configuration: PSM_API_KEY is not an active API key${why}`);
      }
      throw error;
    });
    const { tools, capabilities } = await toolCatalog(marketplace);
    const session = await serveStdio(marketplace, actor, {
      tools,
      readOnly: config.mcpReadOnly,
      info: { name: "psm-marketplace", title: capabilities.name, version: capabilities.version },
      logger,
      currentActor: caller,
    });
    // A client that stops its child by signal gets the same orderly close as one that closes stdin.
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => void session.close());
    await session.closed;
    return 0;
  } finally {
    await documents.close?.();
    await mailer.close?.();
    await storage.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const why = error instanceof Error && error.message !== "" ? error.message : describeCause(error);
    const line = error instanceof ConfigError ? error.message : `psm-mcp failed: ${why}`;
    process.stderr.write(`${line.replace(/\s+/g, " ")}\n`);
    process.exit(1);
  },
);
