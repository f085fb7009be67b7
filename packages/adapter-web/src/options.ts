import type { Marketplace } from "@psm/core";
import {
  type AnswerCache,
  type AnswerCacheOutcome,
  createAnswerCache,
  createUploadGate,
  type ListingRevision,
  type RateLimitHooks,
  type UploadGate,
} from "@psm/host";
import { createPageViews, type PageViews } from "./page-views.js";

export type { RateLimitHooks };

/** Where the web app reports a failure it answered 500. */
export interface WebLogger {
  error(obj: object, msg?: string): void;
}

/** The arguments of createWebApp. */
export interface WebAppOptions {
  marketplace: Marketplace;
  /** The base URL people reach the site at (PUBLIC_URL); https makes every cookie Secure. */
  publicUrl: string;
  /** The host's rate limiters (see RateLimitHooks); none by default. */
  rateLimit?: RateLimitHooks | undefined;
  /** Called after each accepted "forgot password" form, so the mail goes out at once. Must not throw. */
  onPasswordResetRequested?: () => void;
  /** Largest uploaded document in bytes; 10 MiB by default. */
  maxUploadBytes?: number;
  /** The host's upload gate, shared with the other surfaces; one of the pages' own by default. */
  uploads?: UploadGate;
  /** Largest url-encoded form body in bytes; 1 MiB by default. */
  maxFormBytes?: number;
  /** Failures answered 500 go here; silent by default. */
  logger?: WebLogger;
  /**
   * The revision of the repositories the marketplace writes through (the host's
   * `watchListingWrites`): with it, the pages a visitor who is not signed in sees (browse, search,
   * a listing) are kept as rendered, under the answer cache's rules (page-cache.ts).
   */
  listingRevision?: ListingRevision | undefined;
  /** Longest reuse of a kept page in ms (ANSWER_CACHE_MS): 1000 by default, 0 keeps none, at most 5000. */
  answerCacheMs?: number;
  /** Told of each lookup of the kept pages, for metrics. */
  onAnswerCache?: ((outcome: AnswerCacheOutcome) => void) | undefined;
  /**
   * Whether a listing page is answered before the view it counts is stored (page-views.ts): off by
   * default; apps/server turns it on for PostgreSQL, where the write is a round trip the visitor
   * would otherwise wait for. A surface's `settle()` waits for the views still being written.
   */
  viewsAfterAnswer?: boolean;
}

/** The longest a page is kept: the JSON API's public max-age, so no page is older than an answer may be. */
const MAX_PAGE_AGE_MS = 5000;

/** WebAppOptions with the defaults filled in. */
export interface WebConfig {
  marketplace: Marketplace;
  publicOrigin: string;
  /** Whether cookies carry Secure (and the `__Host-` prefix). */
  secure: boolean;
  rateLimit: RateLimitHooks;
  onPasswordResetRequested: () => void;
  maxUploadBytes: number;
  uploads: UploadGate;
  maxFormBytes: number;
  logger: WebLogger;
  /** The pages kept for visitors who are not signed in; none without a listing revision. */
  pages: AnswerCache | undefined;
  /** The views listing pages count. */
  views: PageViews;
}

/** Fills in the defaults; throws when publicUrl is not an http(s) URL. */
export function resolveWebConfig(options: WebAppOptions): WebConfig {
  const url = new URL(options.publicUrl);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`publicUrl must be an http(s) URL, got ${options.publicUrl}`);
  }
  const maxUploadBytes = options.maxUploadBytes ?? 10 * 1024 * 1024;
  const logger = options.logger ?? { error() {} };
  return {
    marketplace: options.marketplace,
    publicOrigin: url.origin,
    secure: url.protocol === "https:",
    rateLimit: options.rateLimit ?? {},
    onPasswordResetRequested: options.onPasswordResetRequested ?? (() => {}),
    maxUploadBytes,
    uploads: options.uploads ?? createUploadGate({ maxFileBytes: maxUploadBytes }),
    maxFormBytes: options.maxFormBytes ?? 1024 * 1024,
    logger,
    pages: createAnswerCache(options.marketplace, {
      maxAgeMs: Math.min(Math.max(options.answerCacheMs ?? 1000, 0), MAX_PAGE_AGE_MS),
      revision: options.listingRevision,
      onLookup: options.onAnswerCache,
    }),
    views: createPageViews({ background: options.viewsAfterAnswer === true, logger }),
  };
}
