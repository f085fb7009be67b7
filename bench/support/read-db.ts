/** Read access to the server's database for the soak's checks: SQLite read-only, or a PostgreSQL pool. */
import { connect } from "@psm/adapter-postgres/internal/connection";
import { openSqlite } from "./modules.js";

/** The rows the checks read, the same shape on both dialects. */
export interface ListingFact {
  id: string;
  user_id: string;
  status: string;
  /** ms since epoch, or null. */
  expires_ms: number | null;
  views: number;
}

/** The state the soak checks, read in one go. */
export interface DbFacts {
  listings: ListingFact[];
  users: { id: string; is_admin: boolean }[];
  keys: { id: string; user_id: string; is_active: boolean }[];
  messageIds: Set<string>;
  /** Rows whose user is gone, per table (foreign keys should make these impossible). */
  orphans: Record<string, number>;
  /** SQLite: PRAGMA integrity_check; PostgreSQL: constraints all validated and holding ("ok"). */
  integrity: string;
}

/** A read-only view of the database. */
export interface ReadDb {
  /** `integrity: false` skips the (slow) integrity check, for samples taken while the server runs. */
  facts(options?: { integrity?: boolean }): Promise<DbFacts>;
  close(): Promise<void>;
}

const ORPHAN_TABLES = ["listings", "api_keys", "reset_tokens", "mail_jobs"];
const orphanSql = (table: string) =>
  `SELECT count(*) AS n FROM ${table} AS t LEFT JOIN users AS u ON u.id = t.user_id WHERE u.id IS NULL`;

/** Opens SQLite read-only (WAL lets it read while the server writes) or a one-connection PostgreSQL pool. */
export function openReadDb(target: { sqliteFile: string } | { postgresUrl: string }): ReadDb {
  if ("sqliteFile" in target) {
    const db = openSqlite(target.sqliteFile, { readonly: true });
    const all = <T>(sql: string) => db.prepare(sql).all() as T[];
    return {
      async facts({ integrity = true } = {}) {
        const orphans: Record<string, number> = {};
        for (const table of ORPHAN_TABLES) orphans[table] = all<{ n: number }>(orphanSql(table))[0]?.n ?? -1;
        return {
          listings: all<ListingFact>(
            "SELECT id, user_id, status, expires_at AS expires_ms, views FROM listings",
          ),
          users: all<{ id: string; is_admin: number }>("SELECT id, is_admin FROM users").map((u) => ({
            id: u.id,
            is_admin: u.is_admin === 1,
          })),
          keys: all<{ id: string; user_id: string; is_active: number }>(
            "SELECT id, user_id, is_active FROM api_keys",
          ).map((k) => ({ ...k, is_active: k.is_active === 1 })),
          messageIds: new Set(all<{ id: string }>("SELECT id FROM messages").map((m) => m.id)),
          orphans,
          integrity: integrity
            ? all<{ integrity_check: string }>("PRAGMA integrity_check")
                .map((r) => r.integrity_check)
                .join("; ")
            : "ok",
        };
      },
      async close() {
        db.close();
      },
    };
  }
  const { sql } = connect(target.postgresUrl, 1);
  return {
    async facts({ integrity = true } = {}) {
      const orphans: Record<string, number> = {};
      for (const table of ORPHAN_TABLES) {
        const [row] = await sql.unsafe<{ n: number }[]>(
          orphanSql(table).replace("count(*)", "count(*)::int"),
        );
        orphans[table] = row?.n ?? -1;
      }
      const listings = await sql.unsafe<ListingFact[]>(
        `SELECT id::text, user_id::text, status, (extract(epoch from expires_at) * 1000)::float8 AS expires_ms,
           views FROM listings`,
      );
      return {
        listings: [...listings],
        users: [...(await sql.unsafe<DbFacts["users"]>("SELECT id::text, is_admin FROM users"))],
        keys: [
          ...(await sql.unsafe<DbFacts["keys"]>("SELECT id::text, user_id::text, is_active FROM api_keys")),
        ],
        messageIds: new Set(
          (await sql.unsafe<{ id: string }[]>("SELECT id::text FROM messages")).map((m) => m.id),
        ),
        orphans,
        integrity: integrity ? await postgresIntegrity(sql) : "ok",
      };
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

type Sql = ReturnType<typeof connect>["sql"];

/** PostgreSQL has no integrity_check: every constraint must be validated, and the rows must satisfy them. */
async function postgresIntegrity(sql: Sql): Promise<string> {
  const [row] = await sql.unsafe<{ unvalidated: number; bad: number }[]>(
    `SELECT (SELECT count(*) FROM pg_constraint WHERE NOT convalidated)::int AS unvalidated,
       (SELECT count(*) FROM listings WHERE views < 0 OR status NOT IN ('active', 'paused'))::int AS bad`,
  );
  return row?.unvalidated === 0 && row.bad === 0 ? "ok" : `constraints: ${JSON.stringify(row)}`;
}
