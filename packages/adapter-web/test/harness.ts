import {
  type AnswerCacheOutcome,
  createHttpApp,
  type RateLimitHooks,
  watchListingWrites,
} from "@psm/adapter-http";
import {
  type Actor,
  createMarketplace,
  type Listing,
  type Marketplace,
  type NewListingInput,
  type SecurityMode,
  type SlotSettings,
} from "@psm/core";
import { createTestDeps, type TestDeps } from "@psm/core/testing";
import { expect } from "vitest";
import { createWebSurface } from "../src/index.js";

/** The public URL of the app under test, and so the origin of its forms. */
export const ORIGIN = "http://localhost:3000";

/** A page as a test reads it: status, headers, the HTML, and where a redirect points. */
export interface Page {
  status: number;
  headers: Headers;
  html: string;
  location: string | null;
}

/**
 * A browser without JavaScript: it keeps cookies, reads the forms of the last
 * page and posts them back with their token, from this site's origin.
 */
export interface Browser {
  get(path: string, headers?: Record<string, string>): Promise<Page>;
  /** POSTs `fields` with the token of the form on `from` whose action is `action`. */
  submit(
    from: Page,
    action: string,
    fields?: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<Page>;
  /** POSTs a raw body (no token unless given), for refusal tests. */
  post(path: string, body: BodyInit, headers?: Record<string, string>): Promise<Page>;
  /** Follows a redirect answer with a GET. */
  follow(page: Page): Promise<Page>;
  cookies: Map<string, string>;
}

/** A member signed in through the log-in page: their browser, and the same session as core's caller. */
export interface Member {
  browser: Browser;
  id: string;
  email: string;
  actor: Actor;
}

/** The listing `author` makes unless told otherwise. */
const AUDIT = { title: "Audit", description: "d", category: "cybersecurity" } as const;

/** The app under test, mounted as apps/server mounts it, with its marketplace and fakes. */
export interface WebHarness {
  app: ReturnType<typeof createHttpApp>;
  deps: TestDeps;
  m: Marketplace;
  browser(): Browser;
  /** A user made through core, and a browser signed in as them through the log-in page. */
  signedIn(email?: string, password?: string): Promise<Member>;
  /** A signed-in member with one listing of theirs, made through core (`listing` overrides its fields). */
  author(email?: string, listing?: Partial<NewListingInput>): Promise<Member & { listing: Listing }>;
  /** A browser signed in as the site's admin (ADMIN_EMAIL's bootstrap) through the log-in page. */
  admin(): Promise<Browser>;
  /** The web surface's settle(): the views written after their pages, done. */
  settle(): Promise<void>;
}

let counter = 0;

/** What the app logs (access lines, failures), for tests that check what never is. */
export type LogLine = { level: string; obj: object; msg?: string | undefined };

/** Builds the server's app (API + web surface) on in-memory storage. */
export function webHarness(
  options: {
    mode?: SecurityMode;
    slots?: SlotSettings;
    rateLimit?: RateLimitHooks;
    publicUrl?: string;
    /** CURRENCY: the marketplace's currency (core's default when absent). */
    currency?: string;
    /** Where the app's log lines go; nowhere by default. */
    logs?: LogLine[];
    /**
     * Composed as apps/server composes it, with the answer cache on both surfaces (ANSWER_CACHE_MS):
     * a write straight to `deps.repos` then stands for another process's. Off by default.
     */
    answerCache?: { maxAgeMs: number; onLookup?: (outcome: AnswerCacheOutcome) => void };
    /** Listing pages answered before their views are stored (as apps/server on PostgreSQL). */
    viewsAfterAnswer?: boolean;
  } = {},
): WebHarness {
  const deps = createTestDeps({
    settings: {
      securityMode: options.mode ?? "strict",
      ...(options.slots ? { slots: options.slots } : {}),
      ...(options.currency ? { currency: options.currency } : {}),
    },
  });
  const watched = options.answerCache ? watchListingWrites(deps.repos) : undefined;
  const m = createMarketplace(watched ? { ...deps, repos: watched.repos } : deps);
  const publicUrl = options.publicUrl ?? ORIGIN;
  const logs = options.logs;
  const log = (level: string) => (obj: object, msg?: string) => logs?.push({ level, obj, msg });
  const logger = { info: log("info"), warn: log("warn"), error: log("error") };
  const cache = watched && {
    listingRevision: watched.revision,
    answerCacheMs: options.answerCache?.maxAgeMs,
    onAnswerCache: options.answerCache?.onLookup,
  };
  const web = createWebSurface({
    marketplace: m,
    publicUrl,
    rateLimit: options.rateLimit,
    logger,
    viewsAfterAnswer: options.viewsAfterAnswer,
    ...cache,
  });
  const app = createHttpApp({
    marketplace: m,
    config: { corsOrigins: "*", publicUrl, rateLimit: options.rateLimit, logger, ...cache },
    surfaces: [web],
  });

  const browser = (): Browser => {
    const cookies = new Map<string, string>();
    const send = async (
      path: string,
      init: { method: string; body?: BodyInit; headers?: Record<string, string> },
    ) => {
      const headers: Record<string, string> = { accept: "text/html", ...init.headers };
      if (cookies.size > 0) headers.cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
      const res = await app.request(new URL(path, publicUrl).toString(), { ...init, headers });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        const name = pair.slice(0, at);
        const value = pair.slice(at + 1);
        if (/max-age=0/i.test(line) || value === "") cookies.delete(name);
        else cookies.set(name, value);
      }
      return {
        status: res.status,
        headers: res.headers,
        html: await res.text(),
        location: res.headers.get("location"),
      };
    };
    const self: Browser = {
      cookies,
      get: (path, headers = {}) => send(path, { method: "GET", headers }),
      submit: (from, action, fields = {}, headers = {}) => {
        const token = formToken(from.html, action);
        const body = new URLSearchParams({ _csrf: token, ...fields }).toString();
        return send(action, {
          method: "POST",
          body,
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            origin: new URL(publicUrl).origin,
            ...headers,
          },
        });
      },
      post: (path, body, headers = {}) => send(path, { method: "POST", body, headers }),
      follow: (page) => {
        expect(page.status, page.html.slice(0, 500)).toBe(303);
        return send(page.location ?? "/", { method: "GET" });
      },
    };
    return self;
  };

  const signedIn: WebHarness["signedIn"] = async (
    email = `user${++counter}@example.com`,
    password = "secret-password",
  ) => {
    await m.auth.signUp({ email, password });
    const b = browser();
    const login = await b.get("/login");
    const done = await b.submit(login, "/login", { email, password });
    expect(done.status, done.html).toBe(303);
    const user = await m.auth.logIn({ email, password });
    const actor = await m.sessions.resume(b.cookies.get("psm_session") ?? "");
    return { browser: b, id: user.user.id, email, actor };
  };

  const author: WebHarness["author"] = async (email, listing = {}) => {
    const member = await signedIn(email);
    return { ...member, listing: await m.listings.create(member.actor, { ...AUDIT, ...listing }) };
  };

  const admin = async () => {
    await m.admin.ensureAdmin({ email: "root@example.com", password: "admin-password" });
    const b = browser();
    const done = await b.submit(await b.get("/login"), "/login", {
      email: "root@example.com",
      password: "admin-password",
    });
    expect(done.status, done.html).toBe(303);
    return b;
  };

  const settle = async () => web.settle?.();
  return { app, deps, m, browser, signedIn, author, admin, settle };
}

/** The token of the form on the page that posts to `action`. */
export function formToken(html: string, action: string): string {
  const escaped = action.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const form = new RegExp(`<form[^>]*action="${escaped}"[^>]*>([\\s\\S]*?)</form>`).exec(html);
  if (!form?.[1]) throw new Error(`no form posting to ${action} on the page:\n${html.slice(0, 2000)}`);
  const token = /name="_csrf" value="([^"]+)"/.exec(form[1]);
  if (!token?.[1]) throw new Error(`the form posting to ${action} has no token`);
  return token[1];
}

/**
 * The action of the upload form on the page that posts to `path`: an upload carries its token
 * in the action's query (checked before the body is read), as `path?_csrf=…`.
 */
export function uploadAction(html: string, path: string): string {
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const action = new RegExp(
    `<form[^>]*action="(${escaped}\\?_csrf=[^"]+)"[^>]*enctype="multipart/form-data"`,
  ).exec(html);
  if (!action?.[1]) throw new Error(`no upload form posting to ${path} on the page`);
  return action[1].replaceAll("&amp;", "&");
}

/** The text of the page's only h1, tags removed. */
export function h1(html: string): string {
  const all = [...html.matchAll(/<h1[^>]*>([\s\S]*?)<\/h1>/g)];
  expect(all, "exactly one h1").toHaveLength(1);
  return (all[0]?.[1] ?? "").replace(/<[^>]+>/g, "").trim();
}

/** The page's <title>. */
export function title(html: string): string {
  return /<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? "";
}

/**
 * POSTs a url-encoded form to a mailed link's page as its own form does: the link's token is the
 * whole proof, so it carries no per-visitor token and no session.
 */
export function submitLinkForm(
  h: WebHarness,
  path: string,
  fields: Record<string, string>,
): Promise<Response> {
  return Promise.resolve(
    h.app.request(path, {
      method: "POST",
      body: new URLSearchParams(fields).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    }),
  );
}

/**
 * The HTML of a mailed link's form page, once it is known to be served as one: a 200 page that is
 * never stored, sends no Referer (its URL holds the token), and works without JavaScript: the
 * site's own script only, nothing inline, nothing from elsewhere.
 */
export async function linkFormHtml(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/html");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
  const html = await res.text();
  expect(html).not.toMatch(/<script(?![^>]*\ssrc="\/)/i);
  expect(html).not.toMatch(/https?:\/\//i);
  return html;
}
