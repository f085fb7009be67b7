/** The soak's verdict: the ledger of acknowledged answers against the database. */
import type { DbFacts } from "./read-db.js";
import type { Ledger } from "./soak-ledger.js";

/** Active, unexpired listings per user at `now`. */
export function activeCounts(facts: DbFacts, now: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const l of facts.listings) {
    if (l.status === "active" && (l.expires_ms === null || l.expires_ms > now)) {
      counts.set(l.user_id, (counts.get(l.user_id) ?? 0) + 1);
    }
  }
  return counts;
}

/** Users over their slots at `now` ("user: count > max"); admins are allowed `adminSlots`. */
export function overSlots(facts: DbFacts, now: number, slots: number, adminSlots: number): string[] {
  const admins = new Set(facts.users.filter((u) => u.is_admin).map((u) => u.id));
  const over: string[] = [];
  for (const [user, count] of activeCounts(facts, now)) {
    const max = admins.has(user) ? adminSlots : slots;
    if (count > max) over.push(`${user}: ${count} active > ${max}`);
  }
  return over;
}

const sample = (items: string[]) =>
  `${items.slice(0, 5).join("; ")}${items.length > 5 ? ` (+${items.length - 5} more)` : ""}`;

/** Every violation found, as one line each; empty when the run was correct. */
export function violations(ledger: Ledger, facts: DbFacts, slotBreaches: string[]): string[] {
  const out: string[] = [];
  const fail = (what: string, items: string[]) => {
    if (items.length > 0) out.push(`${what}: ${items.length} — ${sample(items)}`);
  };
  fail("5xx answers", ledger.serverErrors);
  fail("requests without an answer", ledger.noAnswer);

  const stored = new Map(facts.listings.map((l) => [l.id, l]));
  const missing: string[] = [];
  const lingering: string[] = [];
  for (const [id, entry] of ledger.listings) {
    if (entry.gone && stored.has(id)) lingering.push(id);
    if (!entry.gone && !stored.has(id)) missing.push(id);
  }
  fail("listings answered 201 but missing", missing);
  fail("listings whose deletion was acknowledged but still stored", lingering);

  const miscounted: string[] = [];
  for (const [id, acknowledged] of ledger.views) {
    const views = stored.get(id)?.views;
    if (views !== acknowledged)
      miscounted.push(`${id}: ${acknowledged} acknowledged, ${views ?? "no row"} stored`);
  }
  fail("view counts differing from acknowledged views", miscounted);

  fail(
    "messages answered 201 but missing",
    [...ledger.messages].filter((id) => !facts.messageIds.has(id)),
  );

  const keys = new Map(facts.keys.map((k) => [k.id, k]));
  const keyProblems: string[] = [];
  for (const [id, entry] of ledger.keys) {
    const row = keys.get(id);
    if (!row) keyProblems.push(`${id}: missing`);
    else if (entry.inactive && row.is_active)
      keyProblems.push(`${id}: deactivation acknowledged but still active`);
  }
  fail("API keys", keyProblems);

  const users = new Set(facts.users.map((u) => u.id));
  fail(
    "deleted users still stored",
    [...ledger.deletedUsers].filter((id) => users.has(id)),
  );
  fail("slot limit exceeded", slotBreaches);
  fail(
    "orphaned rows",
    Object.entries(facts.orphans)
      .filter(([, n]) => n !== 0)
      .map(([table, n]) => `${table}: ${n}`),
  );
  if (facts.integrity !== "ok") out.push(`integrity check: ${facts.integrity}`);
  return out;
}
