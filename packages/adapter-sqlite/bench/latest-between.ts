/**
 * messages.latestBetween with and without its conversation index (DESIGN.md "Notifications"):
 * a receiver and a sender who each have `count` / 2 messages newer than their conversation's newest.
 *
 *   node --conditions=psm-source packages/adapter-sqlite/bench/latest-between.ts [count]
 */
import "../../../bench/support/ts-resolve.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Imported after the hook is in place: static imports would resolve before it.
const { openConnection } = await import("../src/connection.ts");
const { openSqliteStorage } = await import("../src/index.ts");

const count = Number(process.argv[2] ?? 100_000);
const dir = mkdtempSync(join(tmpdir(), "psm-bench-latest-"));
const file = join(dir, "bench.db");
const storage = openSqliteStorage({ file });
await storage.migrate();
await storage.close();
const sqlite = openConnection(file);
try {
  const insert = sqlite.prepare(
    "INSERT INTO messages (id, listing_id, sender_id, receiver_id, content, is_agent, created_at) VALUES (?, ?, ?, ?, 'hello', 0, ?)",
  );
  sqlite.transaction(() => {
    insert.run("00000000", "l0", "s0", "r", 0);
    for (let i = 1; i < count; i++) {
      const id = String(i).padStart(8, "0");
      // Every other message the busy sender wrote to someone else, or the busy receiver got from someone else.
      insert.run(id, `l${i % 500}`, i % 2 ? "s0" : `s${i}`, i % 2 ? `r${i}` : "r", i);
    }
  })();
  sqlite.exec("ANALYZE");
  const sql =
    "SELECT * FROM messages WHERE receiver_id = 'r' AND sender_id = 's0' AND listing_id = 'l0' ORDER BY id DESC LIMIT 1";
  const measure = (label: string) => {
    const statement = sqlite.prepare(sql);
    const plan = sqlite.prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`).all();
    statement.get();
    const rounds = 200;
    const start = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) statement.get();
    const each = Number(process.hrtime.bigint() - start) / 1e6 / rounds;
    console.log(`${label}: ${each.toFixed(4)} ms a call (${plan.map((row) => row.detail).join("; ")})`);
  };
  measure("with the conversation index");
  sqlite.exec("DROP INDEX messages_receiver_id_sender_id_listing_id_id_idx");
  measure("without it");
} finally {
  sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}
