import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { createHttpApp } from "@psm/adapter-http";
import { startMailDispatcher } from "@psm/adapter-mail";
import { createOAuthSurface } from "@psm/adapter-oauth";
import { createWebSurface, OAUTH_AUTHORIZE_PATH } from "@psm/adapter-web";
import { startWebhookRelay } from "@psm/adapter-webhooks";
import { startSavedSearchMatcher } from "@psm/core";
import { createUploadGate } from "@psm/host";
import { ConfigError, readConfig } from "./config.js";
import { collectStartupGarbage, collectWhenIdle, type IdleCollector, returnFreeMemory } from "./heap.js";
import { accessLogger, createLogger } from "./logger.js";
import { trimWhenLoaded } from "./malloc-trim.js";
import { openMarketplace } from "./marketplace.js";
import { MAX_UPLOAD_BYTES, mcpSurface, toolCatalog } from "./mcp.js";
import { createMetrics } from "./metrics.js";
import { packageVersion } from "./package-version.js";
import { openRateLimiting, trustedProxies } from "./rate-limit.js";
import { keepSearchIndexesMerged } from "./search-index-upkeep.js";
import { createDrainer, onSignals, settlesWithin } from "./shutdown.js";
import { describeCause, listenError } from "./start-errors.js";
import { createStorageCalls } from "./storage-calls.js";
import { startSweeper } from "./sweeper.js";
import { startTracing } from "./tracing.js";

// Read top to bottom: config -> secrets -> storage and migrations -> mailer ->
// document parser -> marketplace -> HTTP -> serve -> drain on SIGTERM. Every
// failure on the way that the operator fixes in the environment (a variable, an
// unreachable database, a busy port) ends the start with one line naming it.
/** A quiet spell this long after traffic returns the memory the traffic left (heap.ts). */
const IDLE_COLLECTION_MS = 30_000;
/** The garbage of the start is returned at the first second without a request after it listens. */
const STARTUP_COLLECTION_MS = 1_000;

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const storageCalls = createStorageCalls();
  // OpenTelemetry only when a collector is named: the SDK is imported by startTracing alone.
  const tracing =
    config.otelEndpoint === undefined ? undefined : await startTracing(config.otelEndpoint, packageVersion());
  if (tracing) storageCalls.observe(tracing.storage);
  // What a burst of traffic left goes back to the system once the server has been quiet a while;
  // the password hashes' blocks once hashing has (malloc-trim.ts, hash-bursts.ts).
  const trimMalloc = trimWhenLoaded();
  const { marketplace, listingRevision, storage, mailer, documents } = await openMarketplace(config, {
    storageCalls,
    afterHashes: trimMalloc,
  });
  if (config.admin) {
    const { user, outcome, pausedListingIds } = await marketplace.admin.ensureAdmin(config.admin);
    if (outcome === "promoted") {
      // Someone may have registered the operator's address first: say what was taken from them.
      logger.warn(
        { userId: user.id, pausedListingIds },
        "ADMIN_EMAIL belonged to an existing non-admin account: it is now the admin, with ADMIN_PASSWORD and the display name Admin; its earlier sessions and API keys were ended and its listings paused for review",
      );
    }
  }
  const dispatcher = startMailDispatcher(marketplace, {
    onReport: (report) => logger.info({ mail: report }, "mail dispatch"),
    onError: (error) => logger.error({ err: error }, "mail dispatch failed"),
  });

  // Events become signed webhook deliveries; several processes on one PostgreSQL share the work.
  const relay = startWebhookRelay(marketplace, {
    onReport: (report) => logger.info({ webhooks: report }, "webhook relay"),
    onError: (error) => logger.error({ err: error }, "webhook relay failed"),
  });

  // New and reactivated listings meet the saved searches off the request path.
  const matcher = startSavedSearchMatcher(marketplace, {
    onReport: (report) => logger.debug({ savedSearches: report }, "saved search matching"),
    onError: (error) => logger.error({ err: error }, "saved search matching failed"),
  });

  const sweeper = startSweeper(marketplace, {
    onReport: (report) =>
      logger.info(
        { swept: report },
        "expired idempotency keys, sessions, events, deliveries and OAuth grants removed",
      ),
    onError: (error) => logger.error({ err: error }, "sweep failed"),
  });

  const rateLimiting = await openRateLimiting(config, logger);
  // One upload gate for the process: a document costs the same share and budget on every surface.
  const uploads = createUploadGate({ maxFileBytes: MAX_UPLOAD_BYTES });
  // Prometheus metrics (GET /metrics): request timings come from the host's hook, refusals from the limiters.
  const metrics = createMetrics({
    token: config.metricsToken,
    uploads,
    webhookBacklog: () => storage.repositories.webhookDeliveries.backlog(new Date()),
    mailBacklog: () => storage.repositories.mailQueue.backlog(new Date()),
    documentWorkers: () => documents.stats(),
    poolSize: config.database.kind === "postgres" ? config.pgPoolMax : 1,
    searchPool: storage.searchPool,
  });
  storageCalls.observe(metrics.storage);
  const rateLimit = metrics.countRefusals(rateLimiting.hooks);

  // Set once the server listens.
  let startupCollector: IdleCollector | undefined;
  const idleCollector = collectWhenIdle(IDLE_COLLECTION_MS, () => {
    storage.releaseMemory?.();
    returnFreeMemory();
    trimMalloc();
  });

  // SQLite: each search index merged into one segment while listing writes are quiet.
  const merge = storage.mergeSearchIndexes?.bind(storage);
  const upkeep =
    merge &&
    keepSearchIndexesMerged(
      merge,
      () => listingRevision.current(),
      (error) => logger.error({ err: error }, "search index merge failed"),
    );

  // The pages for people, mounted last: their catch-all answers unknown pages.
  const web = createWebSurface({
    marketplace,
    publicUrl: config.publicUrl,
    rateLimit,
    onPasswordResetRequested: () => dispatcher.poke(),
    maxUploadBytes: MAX_UPLOAD_BYTES,
    uploads,
    logger,
    // The pages visitors who are not signed in see alike are kept under the API's answer rules.
    listingRevision,
    answerCacheMs: config.answerCacheMs,
    onAnswerCache: metrics.onAnswerCache,
    // A view on PostgreSQL is a round trip a reader need not wait for; on SQLite the commit runs on
    // this thread either way, and pages that wait for it share it (docs/performance.md).
    viewsAfterAnswer: config.database.kind === "postgres",
  });
  const app = createHttpApp({
    marketplace,
    // The agent surface (/mcp, /llms.txt) before the pages, whose catch-all would take its paths.
    surfaces: [
      metrics.surface(rateLimit),
      await mcpSurface(config, marketplace, rateLimit, uploads, logger),
      // The authorization server's metadata, token, registration and revocation endpoints (OAUTH).
      ...(config.oauth.enabled
        ? [
            createOAuthSurface({
              marketplace,
              publicUrl: config.publicUrl,
              authorizePath: OAUTH_AUTHORIZE_PATH,
              name: (await toolCatalog(marketplace)).capabilities.name,
              metadataDocuments: true,
              rateLimit,
            }),
          ]
        : []),
      web,
    ],
    uploads,
    config: {
      corsOrigins: config.corsOrigins,
      logger,
      accessLogger: accessLogger(logger),
      publicUrl: config.publicUrl,
      ready: () => storage.ping(),
      onPasswordResetRequested: () => dispatcher.poke(),
      rateLimit,
      onRequestEnd: (request, seconds) => {
        startupCollector?.touch();
        idleCollector.touch();
        metrics.onRequestEnd(request, seconds);
      },
      onAnswerCache: metrics.onAnswerCache,
      traceRequest: tracing?.request,
      trustProxy: trustedProxies(config),
      answerCacheMs: config.answerCacheMs,
      listingRevision,
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
  // What the start left behind goes back to the system at the first quiet second.
  startupCollector = collectStartupGarbage(STARTUP_COLLECTION_MS);
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
    // The views pages answered before storing them, before storage closes; a database that stopped
    // answering holds the stop 5 s at most.
    if (web.settle && !(await settlesWithin(web.settle(), 5_000))) {
      logger.warn("page views still being written at the stop were not stored");
    }
    await dispatcher.stop();
    await relay.stop();
    await matcher.stop();
    startupCollector?.stop();
    idleCollector.stop();
    upkeep?.stop();
    await sweeper.stop();
    await documents.close?.();
    await mailer.close?.();
    await rateLimiting.close();
    await storage.close();
    // Last: the spans of everything above are sent before the process ends.
    await tracing?.shutdown().catch((error: unknown) => logger.warn({ err: error }, "traces not sent"));
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
