/** The storage backends the reliability tests run on: SQLite always, PostgreSQL with TEST_DATABASE_URL. */
import { join } from "node:path";
import { createTestDatabase, testDatabaseUrl } from "@psm/adapter-postgres/testing";
import { call, makeDataDir, removeDataDir } from "../../support/server-process.js";
import { postgresProblems, sqliteProblems } from "./consistency.js";
import { stringAt } from "./outcome.js";

/** One test's storage: the server environment that selects it and its consistency check. */
export interface OpenedBackend {
  dataDir: string;
  env: Record<string, string>;
  /** Consistency problems of the stored data; empty when consistent. */
  problems(): Promise<string[]>;
  close(): Promise<void>;
}

/** A backend by name. */
export interface Backend {
  name: string;
  open(): Promise<OpenedBackend>;
}

/** Same secret on every start, so tokens survive a restart and match across processes. */
export const JWT_SECRET = "reliability-secret-0123456789abcdef0123456789";

const sqlite: Backend = {
  name: "SQLite",
  async open() {
    const dataDir = await makeDataDir();
    return {
      dataDir,
      env: { JWT_SECRET },
      problems: async () => sqliteProblems(join(dataDir, "marketplace.db")),
      close: () => removeDataDir(dataDir),
    };
  },
};

function postgres(adminUrl: string): Backend {
  return {
    name: "PostgreSQL",
    async open() {
      const dataDir = await makeDataDir();
      const database = await createTestDatabase(adminUrl, "psm_reliability");
      return {
        dataDir,
        env: { JWT_SECRET, DATABASE_URL: database.url },
        problems: () => postgresProblems(database.url),
        async close() {
          await database.drop();
          await removeDataDir(dataDir);
        },
      };
    },
  };
}

/** SQLite, plus PostgreSQL when TEST_DATABASE_URL is set. */
export function backends(): Backend[] {
  const adminUrl = testDatabaseUrl();
  return adminUrl === undefined ? [sqlite] : [sqlite, postgres(adminUrl)];
}

/** A user with an API key and a JWT, and `listings` listings of theirs (the view targets). */
export async function seedUser(
  base: string,
  email: string,
  listings: number,
): Promise<{ id: string; token: string; apiKey: string; listingIds: string[] }> {
  const password = "reliability-pw";
  const signup = await call(base, "POST", "/api/auth/signup", { body: { email, password } });
  const login = await call(base, "POST", "/api/auth/login", { body: { email, password } });
  const token = stringAt(login.body, "token");
  const id = stringAt(signup.body, "user", "id");
  if (!token || !id) throw new Error(`sign-up/login failed: ${signup.status} ${login.status}`);
  const key = await call(base, "POST", "/api/keys", { token });
  const apiKey = stringAt(key.body, "key", "key");
  if (!apiKey) throw new Error(`key creation failed: ${key.status}`);
  const listingIds: string[] = [];
  for (let i = 0; i < listings; i++) {
    const created = await call(base, "POST", "/api/listings", {
      apiKey,
      body: { title: `Target ${i}`, description: "View target", category: "data-analytics" },
    });
    const listingId = stringAt(created.body, "listing", "id");
    if (!listingId) throw new Error(`listing creation failed: ${created.status}`);
    listingIds.push(listingId);
  }
  return { id, token, apiKey, listingIds };
}
