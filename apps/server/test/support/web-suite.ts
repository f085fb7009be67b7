/** The set-up of a file of browser tests: one browser and one server per backend, side by side. */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, vi } from "vitest";
import { BACKENDS, type Backend } from "./backends.js";
import { launchBrowser } from "./browser.js";
import { startWorld, type World } from "./world.js";

/** What a file of browser tests reaches its browser and servers by. */
export interface WebSuite {
  /** The browser (launched by the file's beforeAll). */
  browser(): Browser;
  /** The server for `backend`, once started: PUBLIC_URL names its port, the admin is configured. */
  site(backend: Backend): Promise<World>;
  /**
   * A describe block per backend, "the web interface on <backend>", whose
   * tests reach that backend's server through `site` once it has started.
   */
  describeSites(body: (backend: Backend, site: () => World) => void): void;
}

/**
 * Starts the browser and a server per backend before the file's tests and
 * stops them after; each backend's describe awaits its own server, so one
 * that fails to start fails only its own tests.
 */
export function useWebSuite(env: Record<string, string> = {}): WebSuite {
  // A journey hashes several passwords (argon2id), loads a dozen pages and runs axe several times:
  // 20-35 s on CI's 2 cores, over 60 s while another test file ran beside it (2026-11-29). The
  // timeout only catches a hang; a slow machine must not fail a journey.
  vi.setConfig({ testTimeout: 240_000 });
  let browser: Browser | undefined;
  const sites = new Map<Backend, Promise<World>>();
  beforeAll(async () => {
    // The servers start while the browser does: both are mostly waiting.
    for (const backend of BACKENDS) {
      const site = startWorld(backend, "strict", env, { ownPort: true });
      site.catch(() => {}); // reported by the describe that awaits it
      sites.set(backend, site);
    }
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.allSettled([...sites.values()].map(async (site) => (await site).stop()));
  });
  const suite: WebSuite = {
    browser() {
      if (!browser) throw new Error("the browser did not start (see beforeAll)");
      return browser;
    },
    site(backend) {
      const site = sites.get(backend);
      if (!site) throw new Error(`no server for ${backend}`);
      return site;
    },
    describeSites(body) {
      describe.each(BACKENDS)("the web interface on %s", (backend) => {
        let started: World | undefined;
        beforeAll(async () => {
          started = await suite.site(backend);
        });
        body(backend, () => {
          if (!started) throw new Error(`the ${backend} server did not start (see beforeAll)`);
          return started;
        });
      });
    },
  };
  return suite;
}
