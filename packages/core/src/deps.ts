import type { SlotSettings } from "./domain/limits.js";
import type { AccessTokenService } from "./ports/access-token-service.js";
import type { ClientMetadataSource } from "./ports/client-metadata-source.js";
import type { Clock, IdGenerator, RandomSource } from "./ports/clock.js";
import type { DocumentParser } from "./ports/document-parser.js";
import type { Mailer } from "./ports/mailer.js";
import type { PasswordHasher } from "./ports/password-hasher.js";
import type { Repositories } from "./ports/repositories.js";
import type { TokenService } from "./ports/token-service.js";
import type { UrlSigner } from "./ports/url-signer.js";
import type { WebhookTransport } from "./ports/webhook-transport.js";

/** `strict` closes the interface's documented gaps; `legacy` re-opens gaps 3 and 4. */
export type SecurityMode = "strict" | "legacy";

/** Settings the use cases read. */
export interface Settings {
  securityMode: SecurityMode;
  slots: SlotSettings;
  /** Base of links in mail, without a trailing slash. */
  publicUrl: string;
  /**
   * REQUIRE_VERIFIED_EMAIL: creating API keys, creating listings and sending
   * messages need a proven address (`email_unverified` otherwise). Off when
   * absent, so an embedder of 1.1 keeps compiling and behaving as before.
   */
  requireVerifiedEmail?: boolean;
  /**
   * CURRENCY: the ISO 4217 code every price is in (decisions.md 1.3.0 "Prices and
   * units"); DEFAULT_CURRENCY when absent. Prices are stored as numbers: the
   * currency is the marketplace's, never a listing's.
   */
  currency?: string;
  /** WEBHOOK_RETRY_SCHEDULE: seconds before each retry of a failed delivery (default: decisions.md's). */
  webhookRetrySchedule?: readonly number[];
  /**
   * OAuth 2.1 with the marketplace as its own authorization server (issuer: `publicUrl`): the
   * resources (RFC 8707) its tokens may be bound to, absolute URLs. Absent: no OAuth (OAUTH=off).
   */
  oauth?: { resources: readonly string[] };
}

/** Everything the use cases need. Each use case narrows it with Pick. */
export interface Deps {
  repos: Repositories;
  mailer: Mailer;
  documents: DocumentParser;
  hasher: PasswordHasher;
  tokens: TokenService;
  clock: Clock;
  ids: IdGenerator;
  random: RandomSource;
  settings: Settings;
  /**
   * Where webhook deliveries go out (adapter-webhooks). Without it webhooks cannot be created and
   * the relay sends nothing: an embedder that never wanted them keeps compiling.
   */
  webhookTransport?: WebhookTransport;
  /**
   * Signs the one-click unsubscribe links of notification mails. Without it no notification mail
   * is sent (every one must carry a working unsubscribe).
   */
  urlSigner?: UrlSigner;
  /** Signs and checks OAuth access tokens. Without it no token is issued or accepted. */
  accessTokens?: AccessTokenService;
  /** Fetches Client ID Metadata Documents. Without it only dynamically registered clients exist. */
  clientMetadata?: ClientMetadataSource;
}
