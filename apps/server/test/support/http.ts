/** HTTP against a running server: one JSON call, a client that checks X-Request-Id, and the checks on answers. */
import { expect } from "vitest";
import { type CallOptions, call, type Json, type Reply } from "./json-call.js";

// Re-exported: most tests take the call and the checks on its answers from here.
export { type CallOptions, call, type Json, type Reply };

/** Requests against one server; every answer is checked for X-Request-Id on the way. */
export interface Client {
  get(path: string, options?: CallOptions): Promise<Reply>;
  post(path: string, options?: CallOptions): Promise<Reply>;
  put(path: string, options?: CallOptions): Promise<Reply>;
  patch(path: string, options?: CallOptions): Promise<Reply>;
  delete(path: string, options?: CallOptions): Promise<Reply>;
  send(method: string, path: string, options?: CallOptions): Promise<Reply>;
}

/**
 * A client for `base`. decisions.md puts X-Request-Id on every response, so
 * rather than sampling a few routes, every request made through it asserts it.
 */
export function client(base: string): Client {
  const send = async (method: string, path: string, options?: CallOptions): Promise<Reply> => {
    const reply = await call(base, method, path, options);
    expect(reply.headers.get("x-request-id"), `X-Request-Id on ${method} ${path}`).toMatch(/\S/);
    return reply;
  };
  return {
    get: (path, options) => send("GET", path, options),
    post: (path, options) => send("POST", path, options),
    put: (path, options) => send("PUT", path, options),
    patch: (path, options) => send("PATCH", path, options),
    delete: (path, options) => send("DELETE", path, options),
    send,
  };
}

/** Asserts a status; the message carries the body, so a failure says what the server said. */
export function expectStatus(reply: Reply, status: number): void {
  expect(reply.status, `${reply.status} ${JSON.stringify(reply.body)}`).toBe(status);
}

/**
 * Asserts an error answer: the status, and a body of exactly `{error, code}`
 * with two non-empty strings (decisions.md), `code` when given.
 */
export function expectError(reply: Reply, status: number, code?: string): void {
  expectStatus(reply, status);
  const body: unknown = reply.body;
  expect(typeof body === "object" && body !== null ? Object.keys(body).sort() : body).toEqual([
    "code",
    "error",
  ]);
  expect(reply.body.error).toEqual(expect.stringMatching(/\S/));
  expect(reply.body.code).toEqual(expect.stringMatching(/^[a-z_]+$/));
  if (code !== undefined) expect(reply.body.code).toBe(code);
}

/** A JSON value that must be a string (ids, tokens, keys). */
export function str(value: unknown): string {
  if (typeof value !== "string") throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
}

/** A JSON value that must be a number. */
export function num(value: unknown): number {
  if (typeof value !== "number") throw new Error(`expected a number, got ${JSON.stringify(value)}`);
  return value;
}

/** A JSON value that must be an array. */
export function arr(value: unknown): Json[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)}`);
  return value as Json[];
}

/** The `id`s of an array of objects, in order. */
export function ids(value: unknown): string[] {
  return arr(value).map((item) => str(item.id));
}

/** The object of `list` whose `id` is `id`. */
export function findById(list: Json[], id: string): Json | undefined {
  return list.find((item) => (item.id as unknown) === id);
}

/** A string at `path` inside a parsed body, or undefined. */
export function stringAt(body: unknown, ...path: string[]): string | undefined {
  let value = body;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === "string" ? value : undefined;
}

/** A multipart body with one `file` field, as POST /api/parse-pdf takes it. */
export function uploadForm(content: string, name: string, type: string): FormData {
  const form = new FormData();
  form.set("file", new File([content], name, { type }));
  return form;
}
