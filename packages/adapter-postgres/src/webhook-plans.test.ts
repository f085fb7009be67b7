import type { WebhookDelivery } from "@psm/core";
import { buildUser, testId } from "@psm/core/testing";
import { beforeAll, expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { claimStatement } from "./repositories/webhook-delivery-repository.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");
const SETTLED = 3_000;
const PENDING = 20;

describePostgres("postgres webhook plans", (ctx) => {
  beforeAll(async () => {
    const repos = ctx.storage().repositories;
    const user = buildUser();
    await repos.users.insert(user);
    const webhookId = testId(NOW);
    await repos.webhooks.insertWithinLimit(
      {
        id: webhookId,
        userId: user.id,
        url: "https://hooks.example.com/plan",
        types: ["listing.created"],
        description: "",
        enabled: true,
        disabledReason: null,
        secrets: [],
        createdAt: NOW,
      },
      10,
    );
    // Mostly settled deliveries, as a running relay leaves them: the claim must not read those.
    const rows = Array.from({ length: SETTLED + PENDING }, (_, i): WebhookDelivery => {
      const pending = i >= SETTLED;
      return {
        id: testId(new Date(NOW.getTime() + i)),
        webhookId,
        eventId: `evt_${i}`,
        type: "listing.created",
        payload: "{}",
        attempts: 1,
        state: pending ? "pending" : "succeeded",
        lastStatus: pending ? null : 204,
        lastError: null,
        nextAttemptAt: pending ? NOW : null,
        createdAt: NOW,
      };
    });
    await repos.webhookDeliveries.insertMany(rows);
    await ctx.connection().sql`analyze webhook_deliveries`;
  });

  /** The generic plan of a prepared statement (what a named statement runs after its first five). */
  async function genericPlan(statement: { toSQL(): { sql: string; params: unknown[] } }): Promise<string> {
    const { sql: text, params } = statement.toSQL();
    const reserved = await ctx.connection().sql.reserve();
    try {
      await reserved`set plan_cache_mode = force_generic_plan`;
      await reserved.unsafe(`prepare planned as ${text}`);
      const literals = params.map(
        (value) => `'${String(value instanceof Date ? value.toISOString() : value)}'`,
      );
      const rows = await reserved.unsafe<{ "QUERY PLAN": string }[]>(
        `explain (format text) execute planned(${literals.join(", ")})`,
      );
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    } finally {
      await reserved`deallocate all`;
      await reserved`reset plan_cache_mode`;
      reserved.release();
    }
  }

  it("claimDue reads the partial index of pending deliveries in due order, also in a generic plan", async () => {
    const plan = await genericPlan(claimStatement(ctx.connection().db, NOW, 10, 60_000));
    expect(plan).toContain("webhook_deliveries_pending_due_idx");
    expect(plan).not.toMatch(/Seq Scan on webhook_deliveries|Sort/);
  });
});
