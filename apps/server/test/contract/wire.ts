/**
 * The three surfaces as a hostile client reaches them over sockets: a page form (its token read
 * from the page that shows it), the JSON API and MCP's tools/call, each answer reduced to what
 * the contract compares. Every driver fails the test on a 5xx, whatever the property asks next.
 */
import { expect } from "vitest";
import { call } from "../support/http.js";
import { formToken } from "../support/web-session.js";

/** What a surface answered: its status, the API's or MCP's code, where a page redirects. */
export interface Answer {
  status: number;
  /** "ok", or the error code (`jsonrpc <n>` for a JSON-RPC error): what the API and MCP compare on. */
  outcome: string;
  /** The API's JSON body, MCP's structured content (null for a page). */
  body: unknown;
  location?: string;
}

// A lone surrogate has no UTF-8; what a hostile client sends for one is its WTF-8 bytes, which
// a strict reader must refuse as not UTF-8 (encodeURIComponent throws on it instead).
const LONE_SURROGATE = /([\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff])/;
/** Whether `text` holds a lone surrogate (String#isWellFormed is past the ES2023 lib). */
export const hasLoneSurrogate = (text: string): boolean => LONE_SURROGATE.test(text);

const pct = (byte: number) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;

/** `text` percent-encoded for a URL or a form body, lone surrogates as their WTF-8 bytes. */
export function encode(text: string): string {
  return text
    .split(LONE_SURROGATE)
    .map((part, i) => {
      if (i % 2 === 0) return encodeURIComponent(part);
      const unit = part.charCodeAt(0);
      return pct(0xed) + pct(0x80 | ((unit >> 6) & 0x3f)) + pct(0x80 | (unit & 0x3f));
    })
    .join("");
}

/** A query string or url-encoded body of `fields`, in order. */
export const encodeFields = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
    .join("&");

const cookiesOf = (res: Response): string[] =>
  res.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="));

const short = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

function noServerError(surface: string, status: number, body: unknown): void {
  const shown = typeof body === "string" ? body : JSON.stringify(body);
  expect(status, `${surface} answered ${status}: ${short(shown ?? "")}`).toBeLessThan(500);
}

/** The outcome of a JSON answer: "ok" for 2xx, else its code (or the bare status when it has none). */
function outcomeOf(status: number, body: unknown): string {
  if (status < 300) return "ok";
  const code = typeof body === "object" && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === "string" ? code : `http ${status}`;
}

/** One JSON API call with a JWT or an API key. */
export async function api(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; apiKey?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const reply = await call(base, method, path, options);
  noServerError(`${method} ${path.slice(0, 80)}`, reply.status, reply.body);
  return { status: reply.status, outcome: outcomeOf(reply.status, reply.body), body: reply.body };
}

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** One tools/call over POST /mcp (stateless: no session to open first). */
export async function mcp(
  base: string,
  apiKey: string,
  name: string,
  args: Record<string, unknown>,
): Promise<Answer> {
  const res = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, "x-api-key": apiKey },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } }),
  });
  const text = await res.text();
  noServerError(`MCP ${name}`, res.status, text);
  const body = JSON.parse(text) as {
    result?: { isError?: boolean; structuredContent?: { code?: string } };
    error?: { code: number } | string;
    code?: string;
  };
  // Refused before the protocol (the host's {error, code}), or by it (a JSON-RPC error).
  if (typeof body.error === "string") {
    return { status: res.status, outcome: body.code ?? `http ${res.status}`, body };
  }
  if (body.error) return { status: res.status, outcome: `jsonrpc ${body.error.code}`, body };
  const content = body.result?.structuredContent;
  expect(content?.code, `MCP ${name}: an internal error`).not.toBe("internal_error");
  return { status: res.status, outcome: body.result?.isError ? (content?.code ?? "") : "ok", body: content };
}

/** A browser on the pages: its cookies ("" for a visitor who has none yet). */
export interface Browser {
  cookie: string;
}

/** The form posting to `from.action` as `from.page` shows it: its token, and the cookies it came with. */
export async function openForm(
  base: string,
  browser: Browser,
  from: { page: string; action: string },
): Promise<{ cookie: string; token: string }> {
  const shown = await fetch(`${base}${from.page}`, {
    headers: { accept: "text/html", cookie: browser.cookie },
    redirect: "manual",
  });
  expect(shown.status, `GET ${from.page}`).toBe(200);
  const cookie = [browser.cookie, ...cookiesOf(shown)].filter((c) => c !== "").join("; ");
  return { cookie, token: formToken(await shown.text(), from.action) };
}

/** POSTs `fields` url-encoded with a form's token to `to`, as a browser does; the answer unfollowed. */
export async function postForm(
  base: string,
  form: { cookie: string; token: string },
  to: string,
  fields: Record<string, string>,
): Promise<Answer> {
  const res = await fetch(`${base}${to}`, {
    method: "POST",
    redirect: "manual",
    headers: {
      accept: "text/html",
      cookie: form.cookie,
      origin: base,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: encodeFields({ _csrf: form.token, ...fields }),
  });
  noServerError(`page POST ${to.slice(0, 80)}`, res.status, await res.text());
  const location = res.headers.get("location") ?? undefined;
  return {
    status: res.status,
    outcome: res.status < 400 ? "ok" : `page ${res.status}`,
    body: null,
    location,
  };
}

/**
 * Submits a page form as a browser does: opens `from` (the page that shows the form posting to
 * `action`) for its token, and POSTs `fields` to `to` (the action itself unless given).
 */
export async function submit(
  base: string,
  browser: Browser,
  from: { page: string; action: string },
  fields: Record<string, string>,
  to = from.action,
): Promise<Answer> {
  return postForm(base, await openForm(base, browser, from), to, fields);
}

/** GETs a page (a search), answering as `submit` does. */
export async function page(base: string, browser: Browser, path: string): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    headers: { accept: "text/html", cookie: browser.cookie },
    redirect: "manual",
  });
  noServerError(`page GET ${path.slice(0, 80)}`, res.status, await res.text());
  return { status: res.status, outcome: res.status < 400 ? "ok" : `page ${res.status}`, body: null };
}

/**
 * Whether a signed-in form's write went through. A redirect to the log-in page means the session
 * ended, which no hostile value should cause: that fails the test rather than counting as done.
 */
export function accepted(answer: Answer): boolean {
  expect(answer.location ?? "", "the session ended: redirected to log in").not.toMatch(/^\/login/);
  return answer.status < 400;
}
