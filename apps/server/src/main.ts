import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { createDocumentParser } from "@psm/adapter-documents";
import { createHttpApp } from "@psm/adapter-http";
import {
  createJwtTokenService,
  createMarketplace,
  createUuidV7Generator,
  systemClock,
  webCryptoRandom,
} from "@psm/core";
import { ConfigError, readConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { openMailer, startMailDispatcher } from "./mail.js";
import { createArgon2Hasher } from "./password-hasher.js";
import { openRateLimiting, trustedProxies } from "./rate-limit.js";
import { loadJwtSecret } from "./secrets.js";
import { createDrainer, onSignals } from "./shutdown.js";
import { openStorage } from "./storage.js";

// Read top to bottom: config -> secrets -> storage -> migrate -> mailer ->
// document parser -> marketplace -> HTTP -> serve -> drain on SIGTERM.
async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const jwtSecret = await loadJwtSecret(config.dataDir, config.jwtSecret);
  const storage = await openStorage(config);
  await storage.migrate();
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
  const dispatcher = startMailDispatcher(marketplace, logger);

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
    server.once("error", reject);
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info(
    {
      url: `http://${config.host}:${port}`,
      database: config.database.kind,
      mode: config.legacyPublicEndpoints ? "legacy" : "strict",
    },
    "listening",
  );

  onSignals(async (signal) => {
    logger.info({ signal }, "shutting down");
    await drainer.drain(10_000);
    await dispatcher.stop();
    await documents.close?.();
    await mailer.close?.();
    await rateLimiting.close();
    await storage.close();
    logger.info("stopped");
    return 0;
  });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
