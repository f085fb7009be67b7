/** Users made over the API: signed up, logged in, holding keys, with listings of their own. */
import { call, client, expectStatus, type Reply, str } from "./http.js";

/** A signed-in user: id, address and JWT. */
export interface Session {
  id: string;
  email: string;
  token: string;
}

/** Signs up a user (201 expected); answers its id. */
export async function signUp(base: string, email: string, password: string): Promise<string> {
  const reply = await client(base).post("/api/auth/signup", { body: { email, password } });
  expectStatus(reply, 201);
  return str(reply.body.user?.id);
}

/** Logs in (200 expected). */
export async function logIn(base: string, email: string, password: string): Promise<Session> {
  const reply = await client(base).post("/api/auth/login", { body: { email, password } });
  expectStatus(reply, 200);
  return { id: str(reply.body.user?.id), email, token: str(reply.body.token) };
}

/** Signs up and logs in. */
export async function signUpAndLogIn(base: string, email: string, password: string): Promise<Session> {
  await signUp(base, email, password);
  return logIn(base, email, password);
}

/** The status a login answers (200 or 401). */
export async function logInStatus(base: string, email: string, password: string): Promise<number> {
  return (await call(base, "POST", "/api/auth/login", { body: { email, password } })).status;
}

/** Creates an API key (200 expected) with a JWT or with another key. */
export async function createKey(
  base: string,
  credential: { token?: string; apiKey?: string },
  name = "e2e",
): Promise<{ id: string; key: string }> {
  const reply = await client(base).post("/api/keys", { ...credential, body: { name } });
  expectStatus(reply, 200);
  return { id: str(reply.body.key?.id), key: str(reply.body.key?.key) };
}

/** Sets a new password with a reset token; the answer is the test's to check. */
export function updatePassword(base: string, token: string, newPassword: string): Promise<Reply> {
  return call(base, "POST", "/api/auth/update-password", { body: { token, new_password: newPassword } });
}

/** A user with an API key and a JWT, and `listings` listings of theirs (the view targets). */
export async function seedUser(
  base: string,
  email: string,
  listings: number,
): Promise<{ id: string; token: string; apiKey: string; listingIds: string[] }> {
  const { id, token } = await signUpAndLogIn(base, email, "reliability-pw");
  const { key: apiKey } = await createKey(base, { token });
  const listingIds: string[] = [];
  for (let i = 0; i < listings; i++) {
    const created = await client(base).post("/api/listings", {
      apiKey,
      body: { title: `Target ${i}`, description: "View target", category: "data-analytics" },
    });
    expectStatus(created, 201);
    listingIds.push(str(created.body.listing?.id));
  }
  return { id, token, apiKey, listingIds };
}
