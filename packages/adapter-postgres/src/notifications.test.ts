import { buildMessage, buildUser, testId } from "@psm/core/testing";
import { PgDialect } from "drizzle-orm/pg-core";
import { expect, it } from "vitest";
import { describePostgres } from "../test/hooks.js";
import { coalescedStatement } from "./repositories/mail-queue-repository.js";

const NOW = new Date("2026-03-01T12:00:00.000Z");

/** The node types and index names of a plan, depth first. */
function planNodes(node: { "Node Type": string; "Index Name"?: string; Plans?: unknown[] }): string[] {
  const own = `${node["Node Type"]}${node["Index Name"] ? ` ${node["Index Name"]}` : ""}`;
  return [own, ...((node.Plans ?? []) as (typeof node)[]).flatMap(planNodes)];
}

describePostgres("postgres notifications", (ctx) => {
  it("takeCursor answers null at once while another transaction holds the cursor", async () => {
    await ctx.database().truncate();
    const repos = ctx.storage().repositories;
    const holder = await ctx.connection().sql.reserve();
    try {
      await holder`begin`;
      await holder`select last_seq from notification_cursor for update`;
      expect(await repos.unitOfWork.run((unit) => unit.notifications.takeCursor())).toBeNull();
      await holder`rollback`;
    } finally {
      holder.release();
    }
    expect(await repos.unitOfWork.run((unit) => unit.notifications.takeCursor())).toBe(0);
  });

  it("takeCursor fails loudly when the cursor's row is gone, rather than report it taken", async () => {
    await ctx.database().truncate();
    const repos = ctx.storage().repositories;
    await ctx.connection().sql`delete from notification_cursor`;
    await expect(repos.unitOfWork.run((unit) => unit.notifications.takeCursor())).rejects.toMatchObject({
      code: "internal_error",
    });
    await ctx.database().truncate();
  });

  it("answers the defaults for a malformed user id, and refuses to store settings for one", async () => {
    const repos = ctx.storage().repositories;
    expect(await repos.notifications.get("not-a-uuid")).toEqual({
      messageMail: "instant",
      savedSearchMail: "daily",
    });
    await expect(
      repos.notifications.set("not-a-uuid", { messageMail: "off", savedSearchMail: "off" }),
    ).rejects.toMatchObject({ code: "user_not_found" });
    expect(await repos.messages.latestBetween("x", "y", "z")).toBeNull();
  });

  it("latestBetween and enqueueCoalesced's lookup each read one index, with no sort", async () => {
    await ctx.database().truncate();
    const repos = ctx.storage().repositories;
    const { sql } = ctx.connection();
    const receiver = testId(NOW);
    // A busy inbox: many conversations, so a scan of the receiver's messages would cost.
    const rows = Array.from({ length: 2_000 }, (_, i) => {
      const message = buildMessage({ receiverId: receiver, createdAt: new Date(NOW.getTime() + i) });
      return {
        id: message.id,
        listing_id: message.listingId,
        sender_id: message.senderId,
        receiver_id: message.receiverId,
        content: message.content,
        is_agent: false,
        created_at: message.createdAt.toISOString(),
      };
    });
    await sql`insert into messages ${sql(rows)}`;
    const user = buildUser();
    await repos.users.insert(user);
    // Mail already sent about many conversations of one user.
    await sql`insert into mail_jobs (id, user_id, kind, ref, status, attempts, next_attempt_at, created_at, sent_at)
      select gen_random_uuid(), ${user.id}, 'message_received', 'listing-' || n || '/sender', 'sent', 1,
        ${NOW.toISOString()}::timestamptz, ${NOW.toISOString()}::timestamptz, ${NOW.toISOString()}::timestamptz
      from generate_series(1, 2000) as n`;
    await sql`analyze messages`;
    await sql`analyze mail_jobs`;
    const [first] = rows;
    const [latest] = await sql<{ "QUERY PLAN": unknown[] }[]>`explain (format json)
      select * from messages where receiver_id = ${receiver} and sender_id = ${first!.sender_id}
        and listing_id = ${first!.listing_id} order by id desc limit 1`;
    const latestPlan = planNodes((latest!["QUERY PLAN"][0] as { Plan: never }).Plan);
    expect(latestPlan).toContain("Index Scan messages_receiver_id_sender_id_listing_id_idx");
    expect(latestPlan.join("\n")).not.toContain("Sort");

    const statement = coalescedStatement(
      { id: testId(NOW), userId: user.id, kind: "message_received", ref: "l/s", createdAt: NOW },
      60_000,
    );
    const { sql: text, params } = new PgDialect().sqlToQuery(statement);
    const reserved = await sql.reserve();
    try {
      await reserved.unsafe("begin");
      const [plan] = await reserved.unsafe(`explain (format json) ${text}`, params as never[]);
      await reserved.unsafe("rollback");
      const nodes = planNodes((plan!["QUERY PLAN"] as { Plan: never }[])[0]!.Plan);
      expect(nodes.join("\n")).toContain("mail_jobs_user_id_kind_ref_created_at_idx");
      expect(nodes.join("\n")).not.toContain("Seq Scan");
    } finally {
      reserved.release();
    }
  });
});
