/** A small JSON client for setting up benchmark and soak fixtures over the HTTP API. */
import { type CallOptions, call } from "../../apps/server/test/support/json-call.js";

// The server tests' own request: one encoding of credentials and bodies for both.
export type { CallOptions };

/** One answer: the status and the parsed body (text when not JSON). */
export interface Answer {
  status: number;
  body: unknown;
}

/** Sends one JSON request; network failures reject (the caller decides what they mean). */
export async function api(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const { status, body } = await call(base, method, path, options);
  return { status, body };
}

/** The value at `path` inside a parsed body, or undefined. */
export function pick(body: unknown, ...path: string[]): unknown {
  let value = body;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Like `pick`, but the value must be a string (a fixture step that failed says so). */
export function text(answer: Answer, ...path: string[]): string {
  const value = pick(answer.body, ...path);
  if (typeof value !== "string") {
    throw new Error(
      `expected a string at ${path.join(".")}, got ${answer.status} ${JSON.stringify(answer.body)}`,
    );
  }
  return value;
}

/** A signed-up, logged-in user with an API key. */
export interface BenchUser {
  id: string;
  email: string;
  password: string;
  token: string;
  apiKey: string;
}

/** Signs up `email`, logs in and creates an API key. */
export async function makeUser(
  base: string,
  email: string,
  password = "bench-password-1",
): Promise<BenchUser> {
  const signup = await api(base, "POST", "/api/auth/signup", { body: { email, password } });
  const id = text(signup, "user", "id");
  const login = await api(base, "POST", "/api/auth/login", { body: { email, password } });
  const token = text(login, "token");
  const key = await api(base, "POST", "/api/keys", { token, body: { name: "bench" } });
  return { id, email, password, token, apiKey: text(key, "key", "key") };
}

/** A valid new-listing body. */
export function newListing(n: number): Record<string, unknown> {
  return {
    title: `Bench consulting package ${n}`,
    description: "A fixed-scope engagement created by the benchmark.",
    category: "software-development",
    price: 1200 + (n % 100),
  };
}
