// The `psm-mcp` command, run from mcp-bin.ts once the Node.js version is known
// to be enough: the marketplace's MCP server over stdio, for a local client
// (a desktop assistant, an IDE) that starts it as a child process. It opens
// the storage the server is configured with (DATABASE_URL or DATA_DIR, the
// same variables) and acts as the user whose API key is in PSM_API_KEY.
// stdout carries JSON-RPC: logs and errors go to stderr. --help and --version
// answer without loading the MCP SDK or a database driver.
import type { Config } from "./config.js";
import { packageVersion } from "./package-version.js";

const USAGE = `Usage: psm-mcp

Serves the marketplace's MCP tools over stdin and stdout to the MCP client that
starts this command, acting as the user whose API key is in PSM_API_KEY. It opens
the database of an existing psm-server installation and never creates one.

Options:
  -h, --help      show this help
  -v, --version   print the version

Environment:
  PSM_API_KEY     the API key (psm_...) of the user the tools act as (required)
  DATA_DIR        the server's data folder, holding marketplace.db (default ./data,
                  relative to the folder psm-mcp starts in: give an absolute path)
  DATABASE_URL    postgres://... or sqlite:PATH, when the server uses one
  MCP_READ_ONLY   true: list no tool that writes

Exit codes: 0 the client closed the session, 1 failed, 2 bad command line or configuration.
`;

/** Runs `psm-mcp ...args`, setting process.exitCode (and exiting once a session has ended). */
export async function run(args: readonly string[]): Promise<void> {
  if (args.includes("--help") || args.includes("-h")) {
    process.stdout.write(USAGE);
    return;
  }
  if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
    process.stdout.write(`${packageVersion()}\n`);
    return;
  }
  if (args.length > 0) {
    process.stderr.write(`psm-mcp: unexpected argument "${args[0]}"\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }
  // stdin may stay open in the SDK's transport after the session: exit explicitly.
  process.exit(await serve());
}

async function serve(): Promise<number> {
  const { ConfigError, readConfig } = await import("./config.js");
  try {
    const config = readConfig();
    const apiKey = process.env.PSM_API_KEY?.trim();
    if (!apiKey)
      throw new ConfigError("Invalid configuration: PSM_API_KEY is required (an API key, psm_...)");
    await refuseMissingSqlite(config, ConfigError);
    return await serveSession(config, apiKey);
  } catch (error) {
    const { describeCause } = await import("./start-errors.js");
    const why = error instanceof Error && error.message !== "" ? error.message : describeCause(error);
    const line = error instanceof ConfigError ? error.message : `psm-mcp failed: ${why}`;
    process.stderr.write(`${line.replace(/\s+/g, " ")}\n`);
    return error instanceof ConfigError ? 2 : 1;
  }
}

/**
 * psm-mcp serves a server's existing data: a SQLite file that is not there
 * means DATA_DIR or DATABASE_URL points elsewhere (often ./data of another
 * folder), and opening it would create an empty database that then refuses
 * every key. Say so instead, and create nothing.
 */
async function refuseMissingSqlite(config: Config, ConfigError: new (message: string) => Error) {
  if (config.database.kind !== "sqlite") return;
  const { existsSync } = await import("node:fs");
  if (existsSync(config.database.file)) return;
  const { resolve } = await import("node:path");
  const fromDataDir = config.database.file === resolve(config.dataDir, "marketplace.db");
  const source = !fromDataDir
    ? "from DATABASE_URL"
    : process.env.DATA_DIR
      ? "from DATA_DIR"
      : "DATA_DIR is unset, so ./data in the folder psm-mcp started in";
  throw new ConfigError(
    `Invalid configuration: no database at ${config.database.file} (${source}); set DATA_DIR to ` +
      "the server's data folder or DATABASE_URL to its database (psm-mcp never creates one)",
  );
}

async function serveSession(config: Config, apiKey: string): Promise<number> {
  const [{ serveStdio }, { isMarketplaceError }, { default: pino }] = await Promise.all([
    import("@psm/adapter-mcp"),
    import("@psm/core"),
    import("pino"),
  ]);
  const { ConfigError } = await import("./config.js");
  const { createLogger } = await import("./logger.js");
  const { openMarketplace } = await import("./marketplace.js");
  const { readJwtSecret } = await import("./secrets.js");
  const { toolCatalog } = await import("./mcp.js");
  const logger = createLogger(config.logLevel, pino.destination({ dest: 2, sync: false }));
  // psm-mcp authenticates by API key only and never issues a JWT, so with no
  // stored secret a throwaway one does, and no file is written beside the database.
  const jwtSecret =
    config.jwtSecret ?? (await readJwtSecret(config.dataDir)) ?? crypto.randomUUID().repeat(2);
  const { marketplace, storage, mailer, documents } = await openMarketplace(config, { jwtSecret });
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
