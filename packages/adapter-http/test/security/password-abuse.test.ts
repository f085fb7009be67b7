/**
 * Abuse of the password machinery. Login throttling must not lock an owner
 * out of their account; argon2 work for new passwords must not queue in front
 * of logins; a reset request must cost the same whether or not the address
 * has an account. The first two run against the server process on each
 * backend (rate-limit counters in memory on SQLite, in PostgreSQL on
 * PostgreSQL; argon2id at OWASP's minimum), the third in process on memory,
 * SQLite and PostgreSQL storage.
 */
import type { Repositories, Storage } from "@psm/core";
import { createMemoryStorage } from "@psm/core/testing";
import { describe, expect, test } from "vitest";
import { BACKENDS, type HostileServer, useHostileServer } from "./support/hostile-server.js";
import { openStorage } from "./support/storage.js";
import { target } from "./support/target.js";

const PASSWORD = "owner-password-1";

/** A JSON POST to the server process, from `ip` as the trusted proxy (loopback) reports it. */
async function post(server: HostileServer, path: string, body: object, ip: string) {
  const res = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as { code?: string } };
}

let signUps = 0;
/**
 * New accounts, `<name>-<backend>@example.com` by name; each sign-up from an address of its own,
 * so the per-IP sign-up quota stays out of the way.
 */
async function signUp<const N extends string>(
  server: HostileServer,
  backend: string,
  ...names: N[]
): Promise<Record<N, string>> {
  const emails = {} as Record<N, string>;
  for (const name of names) {
    const email = `${name}-${backend}@example.com`;
    const res = await post(
      server,
      "/api/auth/signup",
      { email, password: PASSWORD },
      `198.18.0.${++signUps}`,
    );
    expect(res.status).toBe(201);
    emails[name] = email;
  }
  return emails;
}

for (const backend of BACKENDS) {
  describe(`login throttling against the server process on ${backend}`, () => {
    const server = useHostileServer(backend, {
      RATE_LIMIT: "on",
      TRUST_PROXY: "127.0.0.1",
      ...(backend === "postgres" ? { RATE_LIMIT_STORE: "postgres" } : {}),
    });

    const OWNER_IP = "192.0.2.77";
    const logIn = (email: string, password: string, ip: string) =>
      post(server, "/api/auth/login", { email, password }, ip);
    const expectRefused = (res: Awaited<ReturnType<typeof logIn>>, policy: string) => {
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ code: "rate_limited" });
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.headers.get("ratelimit")).toContain(`"${policy}";r=0`);
    };

    test("one client IP gets 5 guesses at an account, then not even the right password; the owner elsewhere logs in", {
      timeout: 180_000,
    }, async () => {
      const { victim, other } = await signUp(server, backend, "victim", "other");
      const guesser = "203.0.113.10";
      for (let i = 0; i < 5; i++) expect((await logIn(victim, `guess-${i}`, guesser)).status).toBe(401);
      expectRefused(await logIn(victim, PASSWORD, guesser), "login-failures");

      expect((await logIn(victim, PASSWORD, OWNER_IP)).status).toBe(200);
      expect((await logIn(other, PASSWORD, guesser)).status).toBe(200);
    });

    test("guesses from many IPs never lock the owner out; past the account's ceiling of 100 failures each new IP gets one guess", {
      timeout: 120_000,
    }, async () => {
      const { target: victim, bystander } = await signUp(server, backend, "target", "bystander");
      const guessFrom = async (ip: string) => {
        const statuses = [];
        for (let i = 0; i < 5; i++) statuses.push((await logIn(victim, `guess-${i}`, ip)).status);
        expect(statuses, ip).toEqual([401, 401, 401, 401, 401]);
      };

      // 19 addresses, 5 guesses each: 95 failures, and the owner is not locked out.
      for (let n = 1; n <= 19; n++) await guessFrom(`198.51.100.${n}`);
      expect((await logIn(victim, PASSWORD, OWNER_IP)).status).toBe(200);

      // The 20th address brings the account to 100 failures in the hour: the owner still gets in,
      await guessFrom("198.51.100.20");
      expect((await logIn(victim, PASSWORD, OWNER_IP)).status).toBe(200);
      // a new address's wrong guess is refused and closes it, the right password too,
      expectRefused(await logIn(victim, "guess-new", "198.51.100.21"), "login-failures");
      expectRefused(await logIn(victim, PASSWORD, "198.51.100.21"), "login-failures");
      // and the addresses that spent their own failures stay refused.
      expectRefused(await logIn(victim, PASSWORD, "198.51.100.3"), "login-failures");
      // Other accounts are not touched.
      expect((await logIn(bystander, PASSWORD, OWNER_IP)).status).toBe(200);
    });
  });

  describe(`a flood of new passwords against the server process on ${backend}`, () => {
    const server = useHostileServer(backend);

    test("beyond the hash queue sign-ups answer 503 with Retry-After at once, and logins are served meanwhile", {
      timeout: 120_000,
    }, async () => {
      const { owner } = await signUp(server, backend, "owner");

      // Settled answers in the order they came back, the login's among them.
      const order: string[] = [];
      let firstRefusal: () => void = () => {};
      const refused = new Promise<void>((resolve) => {
        firstRefusal = resolve;
      });
      const flood = Array.from({ length: 150 }, async (_, i) => {
        const res = await post(
          server,
          "/api/auth/signup",
          { email: `flood${i}-${backend}@example.com`, password: PASSWORD },
          "127.0.0.1",
        );
        order.push(`signup ${res.status}`);
        if (res.status === 503) firstRefusal();
        return res;
      });
      // Once one sign-up was refused the hash queue is full: a login now must not wait behind it.
      await Promise.race([refused, Promise.all(flood)]);
      const login = await post(server, "/api/auth/login", { email: owner, password: PASSWORD }, "127.0.0.1");
      order.push("login");
      const answers = await Promise.all(flood);

      expect(login.status).toBe(200);
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
      const refusals = answers.filter((a) => a.status === 503);
      expect(refusals.length).toBeGreaterThan(0);
      for (const refusal of refusals) {
        expect(refusal.body).toMatchObject({ code: "service_unavailable" });
        expect(Number(refusal.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      // Sign-ups the queue took were still being hashed when the login was answered.
      const acceptedAfterLogin = order.slice(order.indexOf("login")).filter((o) => o === "signup 201");
      expect(acceptedAfterLogin.length, order.join(", ")).toBeGreaterThan(0);
    });
  });
}

/** Repositories that note each call as "repository.method". */
function spied(repositories: Repositories): { repositories: Repositories; calls: string[] } {
  const calls: string[] = [];
  const wrap = (name: string, repository: object) =>
    new Proxy(repository, {
      get(object, member, receiver) {
        const value: unknown = Reflect.get(object, member, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(`${name}.${String(member)}`);
          return value.apply(object, args);
        };
      },
    });
  const entries = Object.entries(repositories).map(([name, repository]) => [name, wrap(name, repository)]);
  return { repositories: Object.fromEntries(entries) as Repositories, calls };
}

/** The storages of this run, opened and migrated; each gives a way to close and remove it. */
const STORAGES: Record<string, () => Promise<{ storage: Storage; close(): Promise<void> }>> = {
  memory: async () => ({ storage: createMemoryStorage(), close: async () => {} }),
  ...Object.fromEntries(BACKENDS.map((backend) => [backend, () => openStorage(backend)])),
};

describe.each(Object.entries(STORAGES))("reset-password on %s storage", (_, open) => {
  test("a known and an unknown address cost the same storage calls; the mail round does the rest", async () => {
    const { storage, close } = await open();
    try {
      const { repositories, calls } = spied(storage.repositories);
      const t = target({ repos: repositories });
      await t.signUp("known@example.com");

      const callsOf = async (email: string) => {
        calls.length = 0;
        const res = await t.request("POST", "/api/auth/reset-password", { body: { email } });
        expect({ status: res.status, body: await res.json() }).toEqual({
          status: 200,
          body: { success: true },
        });
        return [...calls];
      };
      const known = await callsOf("known@example.com");
      const unknown = await callsOf("nobody@example.com");
      expect(known).toEqual(unknown);

      // After the answer, the mail round looks the addresses up and mails the known one only.
      await t.marketplace.mail.dispatchDue();
      const resets = t.mailer.sent.filter((mail) => mail.kind === "password_reset");
      expect(resets.map((mail) => mail.to)).toEqual(["known@example.com"]);
    } finally {
      await close();
    }
  });
});
