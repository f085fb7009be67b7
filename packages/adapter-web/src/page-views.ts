import { isMarketplaceError } from "@psm/core";

/** The views listing pages count, stored before or after the page is answered. */
export interface PageViews {
  /** Counts one view (`record` stores it); resolves when the page may be answered. */
  count(record: () => Promise<unknown>): Promise<void>;
  /** Resolves once every view counted so far is stored or has failed. */
  settled(): Promise<void>;
}

/** The arguments of createPageViews. */
export interface PageViewOptions {
  /**
   * Whether a page is answered before its view is stored. Off: each page waits for its view, so
   * a stored count never lags a page shown. On: a reader does not wait for the write of a count
   * (a round trip to PostgreSQL), and a count may lag the pages shown until the write lands, as
   * a kept page's count already may (page-cache.ts). A view still being written when the process
   * dies is lost; a page view acknowledges nothing to its visitor.
   */
  background: boolean;
  /** Views written after their pages at once (1,024 by default): past it, a page waits for its own. */
  maxPending?: number;
  /** Where a view that failed after its page was answered is reported. */
  logger: { error(obj: object, msg?: string): void };
}

/**
 * Views written after their page is answered, bounded: a flood of page views cannot queue more
 * than `maxPending` writes, because every page beyond them waits for its own as an awaited page
 * does. `settled()` is what a server awaits after its last request and before it closes storage.
 */
export function createPageViews(options: PageViewOptions): PageViews {
  const maxPending = options.maxPending ?? 1_024;
  let pending = 0;
  let idle: Array<() => void> = [];
  const done = () => {
    pending -= 1;
    if (pending > 0) return;
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  };
  const failed = (error: unknown) => {
    // The listing was deleted between its page and its view: nothing to count.
    if (isMarketplaceError(error, "listing_not_found")) return;
    options.logger.error({ err: error }, "a page view was not counted");
  };
  return {
    async count(record) {
      if (!options.background || pending >= maxPending) {
        await record();
        return;
      }
      pending += 1;
      // Async, so that a record that throws before its first await is caught too.
      (async () => record())().catch(failed).finally(done);
    },
    settled: () => (pending === 0 ? Promise.resolve() : new Promise((resolve) => idle.push(resolve))),
  };
}
