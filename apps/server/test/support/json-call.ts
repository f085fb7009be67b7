/**
 * One JSON request over fetch and its answer. Free of vitest, so that the
 * benchmarks (bench/support/api.ts) send their requests through it too.
 */

/**
 * A parsed JSON body that tests can walk by property (`body.user.id`) and
 * hand to `expect`; values needed as strings are converted with String().
 */
export interface Json {
  readonly [key: string]: Json;
}

/** What `call` sends besides method and path. */
export interface CallOptions {
  /** Sent as JSON (with Content-Type application/json). */
  body?: unknown;
  token?: string;
  apiKey?: string;
  headers?: Record<string, string>;
  /** Sent as is, for bodies JSON.stringify cannot make (malformed or oversized JSON); Content-Type from `headers`. */
  rawBody?: string | Uint8Array<ArrayBuffer>;
  /** Sent as multipart/form-data; fetch writes the boundary into Content-Type. */
  form?: FormData;
}

/** One HTTP answer. */
export interface Reply {
  status: number;
  body: Json;
  headers: Headers;
}

/** JSON over fetch with optional credentials; returns status, headers and the parsed body. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: options.body === undefined ? (options.form ?? options.rawBody) : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (HTML pages): keep the text
  }
  return { status: response.status, body: body as Json, headers: response.headers };
}
