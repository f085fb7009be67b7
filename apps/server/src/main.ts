import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { createArgon2Hasher } from "@psm/adapter-argon2";
import { createDocumentParser } from "@psm/adapter-documents";
import { createHttpApp } from "@psm/adapter-http";
import { startMailDispatcher } from "@psm/adapter-mail";
import {
  createJwtTokenService,
  createMarketplace,
  createUuidV7Generator,
  systemClock,
  webCryptoRandom,
} from "@psm/core";
import { ConfigError, readConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { openMailer } from "./mail.js";
import { openRateLimiting, trustedProxies } from "./rate-limit.js";
import { loadJwtSecret } from "./secrets.js";
import { createDrainer, onSignals } from "./shutdown.js";
import { dataDirError, describeCause, listenError } from "./start-errors.js";
import { openStorage } from "./storage.js";
import { startSweeper } from "./sweeper.js";

// Read top to bottom: config -> secrets -> storage and migrations -> mailer ->
// document parser -> marketplace -> HTTP -> serve -> drain on SIGTERM. Every
// failure on the way that the operator fixes in the environment (a variable, an
// unreachable database, a busy port) ends the start with one line naming it.
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const jwtSecret = await loadJwtSecret(config.dataDir, config.jwtSecret).catch((error: unknown) => {
    throw dataDirError(config, error);
  });
  const storage = await openStorage(config);
  const mailer = await openMailer(config);
  const documents = createDocumentParser({ ai: config.documentAi });
  const marketplace = createMarketplace({
    repos: storage.repositories,
    mailer,
    documents,
    hasher: createArgon2Hasher(),
    tokens: createJwtTokenService(jwtSecret, systemClock),
    clock: systemClock,
    ids: createUuidV7Generator(webCryptoRandom),
    random: webCryptoRandom,
    settings: {
      securityMode: config.legacyPublicEndpoints ? "legacy" : "strict",
      slots: config.slots,
      publicUrl: config.publicUrl,
      requireVerifiedEmail: config.requireVerifiedEmail,
    },
  });
  if (config.admin) {
    const { user, outcome } = await marketplace.admin.ensureAdmin(config.admin);
    if (outcome === "promoted") {
      // Someone may have registered the operator's address first: say what was taken from them.
      logger.warn(
        { userId: user.id },
        "ADMIN_EMAIL belonged to an existing non-admin account: it is now the admin, with ADMIN_PASSWORD; its earlier sessions and API keys were ended",
      );
    }
  }
  const dispatcher = startMailDispatcher(marketplace, {
    onReport: (report) => logger.info({ mail: report }, "mail dispatch"),
    onError: (error) => logger.error({ err: error }, "mail dispatch failed"),
  });

  const sweeper = startSweeper(marketplace, {
    onReport: (report) => logger.info({ swept: report }, "expired keys and sessions removed"),
    onError: (error) => logger.error({ err: error }, "sweep failed"),
  });

  const rateLimiting = await openRateLimiting(config, logger);

  const app = createHttpApp({
    marketplace,
    config: {
      corsOrigins: config.corsOrigins,
      logger,
      publicUrl: config.publicUrl,
      ready: () => storage.ping(),
      onPasswordResetRequested: () => dispatcher.poke(),
      rateLimit: rateLimiting.hooks,
      trustProxy: trustedProxies(config),
    },
  });
  // Node checks the header and request timeouts only every connectionsCheckingInterval
  // (30 s by default), which would let a slow client hold a socket up to 45 s.
  const serverOptions = { connectionsCheckingInterval: 1_000 };
  const server = serve({
    fetch: app.fetch,
    port: config.port,
    hostname: config.host,
    serverOptions,
  }) as Server;
  // Slow clients cannot hold sockets open forever.
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = 5_000;
  const drainer = createDrainer(server);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", (error) => reject(listenError(config, error)));
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info(
    {
      url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`,
      database: config.database.kind,
      mode: config.legacyPublicEndpoints ? "legacy" : "strict",
    },
    "listening",
  );

  onSignals(async (signal) => {
    logger.info({ signal }, "shutting down");
    await drainer.drain(10_000);
    await dispatcher.stop();
    await sweeper.stop();
    await documents.close?.();
    await mailer.close?.();
    await rateLimiting.close();
    await storage.close();
    logger.info("stopped");
    return 0;
  });
}

main().catch((error: unknown) => {
  // One line, whatever failed: a ConfigError's message names the variable.
  const why = error instanceof Error && error.message !== "" ? error.message : describeCause(error);
  const line = error instanceof ConfigError ? error.message : `Failed to start: ${why}`;
  process.stderr.write(`${line.replace(/\s+/g, " ")}\n`);
  process.exit(1);
});
