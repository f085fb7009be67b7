import { createHash } from "node:crypto";
import { createArgon2Hasher } from "@psm/adapter-argon2";
import { type ClosableDocumentParser, createDocumentParser } from "@psm/adapter-documents";
import { type ListingRevision, watchListingWrites } from "@psm/adapter-http";
import { createClientMetadataSource, createWebhookTransport } from "@psm/adapter-webhooks";
import {
  createHmacUrlSigner,
  createJwtAccessTokenService,
  createJwtTokenService,
  createMarketplace,
  createUuidV7Generator,
  type Mailer,
  type Marketplace,
  systemClock,
  webCryptoRandom,
} from "@psm/core";
import type { Config } from "./config.js";
import { trimAfterHashes } from "./hash-bursts.js";
import { openMailer } from "./mail.js";
import { loadJwtSecret } from "./secrets.js";
import { dataDirError } from "./start-errors.js";
import { openStorage, type ServerStorage } from "./storage.js";
import type { StorageCalls } from "./storage-calls.js";

/** The marketplace of a configuration, with the resources it holds (each closed by whoever opened it). */
export interface OpenedMarketplace {
  marketplace: Marketplace;
  /** Moves after every listing write through `marketplace`: the HTTP answer cache's (createHttpApp). */
  listingRevision: ListingRevision;
  storage: ServerStorage;
  mailer: Mailer;
  documents: ClosableDocumentParser;
}

/**
 * The composition both entry points share, the HTTP server (main.ts) and the
 * MCP stdio server (mcp-cli.ts): secrets (`options.jwtSecret` instead of DATA_DIR's) -> storage and
 * migrations (its calls told to `options.storageCalls`, for metrics and traces) -> mailer -> document parser -> webhook transport -> marketplace, its repositories watched for
 * listing writes (the answer cache's revision). Failures the operator fixes in the
 * environment throw errors whose message is one line naming the variable. `afterHashes`: called
 * once password hashing has been quiet a while after a burst (hash-bursts.ts).
 */
export async function openMarketplace(
  config: Config,
  options: { jwtSecret?: string; storageCalls?: StorageCalls; afterHashes?: () => void } = {},
): Promise<OpenedMarketplace> {
  const jwtSecret =
    options.jwtSecret ??
    (await loadJwtSecret(config.dataDir, config.jwtSecret).catch((error: unknown) => {
      throw dataDirError(config, error);
    }));
  const storage = await openStorage(config);
  const mailer = await openMailer(config);
  const documents = createDocumentParser({ ai: config.documentAi });
  const repos = options.storageCalls?.wrap(storage.repositories) ?? storage.repositories;
  const watched = watchListingWrites(repos);
  const marketplace = createMarketplace({
    repos: watched.repos,
    mailer,
    documents,
    hasher: options.afterHashes
      ? trimAfterHashes(createArgon2Hasher(), options.afterHashes)
      : createArgon2Hasher(),
    tokens: createJwtTokenService(jwtSecret, systemClock),
    clock: systemClock,
    ids: createUuidV7Generator(webCryptoRandom),
    random: webCryptoRandom,
    // Signed deliveries, SSRF-checked at creation and again at each connection (adapter-webhooks).
    webhookTransport: createWebhookTransport({ allowPrivate: config.webhooks.allowPrivate }),
    // Unsubscribe links are signed with a key of their own, derived from the JWT secret: the
    // same on every process of one deployment, and never usable as a JWT key.
    urlSigner: createHmacUrlSigner(
      createHash("sha256").update(`psm unsubscribe links\0${jwtSecret}`).digest(),
    ),
    // OAuth access tokens are signed with a key of their own, derived like the links' key.
    ...(config.oauth.enabled
      ? {
          accessTokens: createJwtAccessTokenService(
            createHash("sha256").update(`psm oauth access tokens\0${jwtSecret}`).digest(),
            config.publicUrl,
            systemClock,
          ),
          // Client ID Metadata Documents, fetched under the webhook SSRF rules.
          clientMetadata: createClientMetadataSource({ allowPrivate: config.oauth.allowPrivateClients }),
        }
      : {}),
    settings: {
      securityMode: config.legacyPublicEndpoints ? "legacy" : "strict",
      slots: config.slots,
      publicUrl: config.publicUrl,
      requireVerifiedEmail: config.requireVerifiedEmail,
      webhookRetrySchedule: config.webhooks.retrySchedule,
      currency: config.currency,
      ...(config.oauth.enabled ? { oauth: { resources: oauthResources(config.publicUrl) } } : {}),
    },
  });
  return { marketplace, listingRevision: watched.revision, storage, mailer, documents };
}

/** The resources (RFC 8707) OAuth tokens are bound to: the MCP endpoint and the JSON API. */
export function oauthResources(publicUrl: string): string[] {
  return [`${publicUrl}/mcp`, `${publicUrl}/api`];
}
