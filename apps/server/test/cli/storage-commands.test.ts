import { mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openConnection } from "@psm/adapter-postgres/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKENDS, openDatabase, reportSkippedPostgres } from "../support/backends.js";
import { startServer, stopServer } from "../support/server-process.js";
import { lines, runCli, tempDirs } from "./run-cli.js";

// migrate and backup against real databases, through the built command. The
// copy is read with node:sqlite, another SQLite than the driver that wrote it:
// a backup is only worth something if any SQLite opens it.
const dirs = tempDirs();
afterAll(() => dirs.cleanup());

/** Tables the first migrations create, on both storages. */
const SOME_TABLES = ["users", "listings", "messages", "api_keys", "sessions"];

/** Table names and applied migrations of a SQLite file, opened read-only. */
function inspectSqlite(file: string): { tables: string[]; migrations: number; integrity: string } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' order by name")
      .all()
      .map((row) => String(row.name));
    const migrations = Number(db.prepare("select count(*) as n from __drizzle_migrations").get()?.n);
    const integrity = String(db.prepare("pragma integrity_check").get()?.integrity_check);
    return { tables, migrations, integrity };
  } finally {
    db.close();
  }
}

describe("psm-server migrate and backup on SQLite", () => {
  let cwd = "";
  let dataDir = "";
  let database = "";
  beforeAll(async () => {
    cwd = await dirs.make();
    // Not there yet: migrate creates DATA_DIR as the server does.
    dataDir = join(cwd, "fresh", "data");
    database = join(dataDir, "marketplace.db");
  });

  it("migrate creates DATA_DIR and the database with its tables, exit 0", async () => {
    const run = await runCli(["migrate"], { DATA_DIR: dataDir }, cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual([`Migrations applied: storage sqlite (${database})`]);
    const { tables, migrations } = inspectSqlite(database);
    expect(tables).toEqual(expect.arrayContaining(SOME_TABLES));
    expect(migrations).toBeGreaterThan(0);
    expect((await stat(database)).mode & 0o777).toBe(0o600);
  });

  it("migrate again finds nothing to do and still exits 0", async () => {
    const before = inspectSqlite(database).migrations;
    const run = await runCli(["migrate"], { DATA_DIR: dataDir }, cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(inspectSqlite(database).migrations).toBe(before);
  });

  it("backup copies the database to a new private file that opens with the same tables", async () => {
    const copy = join(cwd, "backups", "copy.db");
    await mkdir(join(cwd, "backups"));
    const run = await runCli(["backup", copy], { DATA_DIR: dataDir }, cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)).toEqual([`Backed up ${database} to ${copy}`]);
    expect((await stat(copy)).mode & 0o777).toBe(0o600);
    const original = inspectSqlite(database);
    const backup = inspectSqlite(copy);
    expect(backup.tables).toEqual(original.tables);
    expect(backup.migrations).toBe(original.migrations);
    expect(backup.integrity).toBe("ok");
  });

  it("a second backup to the same path refuses and leaves the first copy as it was, exit 2", async () => {
    const copy = join(cwd, "backups", "copy.db");
    const before = await stat(copy);
    const run = await runCli(["backup", copy], { DATA_DIR: dataDir }, cwd);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(lines(run.stderr)).toEqual([expect.stringContaining(`${copy} already exists`)]);
    const after = await stat(copy);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
  });

  it("never overwrites the live database itself", async () => {
    const run = await runCli(["backup", database], { DATA_DIR: dataDir }, cwd);
    expect(run.code).toBe(2);
    expect(inspectSqlite(database).integrity).toBe("ok");
  });

  it("a relative PATH is taken from the working folder", async () => {
    const run = await runCli(["backup", "relative.db"], { DATA_DIR: dataDir }, cwd);
    expect(run.code, run.stderr).toBe(0);
    expect(inspectSqlite(join(cwd, "relative.db")).integrity).toBe("ok");
  });

  it("without a database to copy, says so, leaves no empty copy, exit 1", async () => {
    const empty = await dirs.make();
    const copy = join(empty, "copy.db");
    const run = await runCli(["backup", copy], { DATA_DIR: join(empty, "data") }, empty);
    expect(run.code).toBe(1);
    expect(lines(run.stderr)).toEqual([expect.stringContaining("there is no database at")]);
    expect(await readdir(empty)).toEqual([]);
  });
});

describe("psm-server backup of a running server", () => {
  it("includes what the server committed a moment before (still in the WAL, not yet in the file)", async () => {
    const dataDir = await dirs.make();
    const server = await startServer({ dataDir });
    try {
      const signup = await fetch(`${server.url}/api/auth/signup`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "ada@example.com", password: "correct horse" }),
      });
      expect(signup.status).toBe(201);
      expect((await stat(join(dataDir, "marketplace.db-wal"))).size).toBeGreaterThan(0);
      const copy = join(dataDir, "live-copy.db");
      const run = await runCli(["backup", copy], { DATA_DIR: dataDir }, dataDir);
      expect(run.code, run.stderr).toBe(0);
      const db = new DatabaseSync(copy, { readOnly: true });
      try {
        expect(db.prepare("select email from users").all()).toEqual([{ email: "ada@example.com" }]);
      } finally {
        db.close();
      }
    } finally {
      await stopServer(server);
    }
  });
});

describe("psm-server with PostgreSQL configured", () => {
  it("backup says how to use pg_dump instead, without printing the URL, exit 2", async () => {
    const cwd = await dirs.make();
    const password = "pg-password-not-for-eyes";
    const run = await runCli(
      ["backup", join(cwd, "copy.db")],
      { DATA_DIR: cwd, DATABASE_URL: `postgres://psm:${password}@db.example.invalid/market` },
      cwd,
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("pg_dump");
    expect(run.stderr).not.toContain(password);
    expect(await readdir(cwd)).toEqual([]);
  });

  // Registered only with a server to run on; otherwise one skipped line says why.
  reportSkippedPostgres("psm-server migrate");
  if (BACKENDS.includes("postgres")) {
    it("migrate creates the tables in a fresh database, exit 0", async () => {
      const cwd = await dirs.make();
      const database = await openDatabase("postgres", "psm_cli");
      try {
        const run = await runCli(["migrate"], { DATA_DIR: cwd, ...database.env }, cwd);
        expect(run.code, run.stderr).toBe(0);
        expect(lines(run.stdout)).toEqual([expect.stringContaining("Migrations applied: storage postgres")]);
        expect(run.stdout).not.toContain(database.url);
        const sql = openConnection(database.url as string, 1);
        try {
          const rows = await sql<{ name: string }[]>`
            select tablename as name from pg_tables where schemaname = 'public'`;
          expect(rows.map((row) => row.name)).toEqual(expect.arrayContaining(SOME_TABLES));
        } finally {
          await sql.end({ timeout: 5 });
        }
      } finally {
        await database.dispose();
      }
    });
  }
});
