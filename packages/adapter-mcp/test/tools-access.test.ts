import { describe, expect, it } from "vitest";
import { fails, list, ok, str, toolNames, writeTools } from "./support/calls.js";
import { harness } from "./support/harness.js";

// Which tools a caller is offered and may call, through the SDK's real Client
// linked in memory: the admin tools for an admin's JWT only, and no tool that
// writes in a read-only session.

const LISTING = { title: "API audit", description: "Two weeks of review.", category: "cybersecurity" };

describe("admin tools", () => {
  it("are listed for an admin's JWT only, and refused to others with the REST answers", async () => {
    const h = await harness();
    const admin = await h.admin();
    const member = await h.member();
    const asAdmin = await h.linked(await h.actorOf({ bearer: admin.token }));
    const adminByKey = await h.linked(await h.actorOf({ apiKey: admin.key }));
    const asMember = await h.linked(await h.actorOf({ bearer: member.token }));
    expect((await toolNames(asAdmin)).filter((name) => name.startsWith("admin_"))).toEqual([
      "admin_list_posts",
      "admin_list_users",
      "admin_delete_post",
      "admin_delete_user",
    ]);
    expect((await toolNames(adminByKey)).some((name) => name.startsWith("admin_"))).toBe(false);
    expect((await toolNames(asMember)).some((name) => name.startsWith("admin_"))).toBe(false);

    const asMemberByKey = await h.linked(await h.actorOf({ apiKey: member.key }));
    const listing = { id: str((await ok(asMemberByKey, "create_listing", LISTING)).listing?.id) };
    const posts = list((await ok(asAdmin, "admin_list_posts", { limit: 10 })).posts);
    expect(posts.map((post) => post.id)).toContain(listing.id);
    expect(posts[0]).toHaveProperty("untrusted_description");
    const users = list((await ok(asAdmin, "admin_list_users", {})).users);
    expect(users.map((user) => user.id)).toEqual(expect.arrayContaining([admin.id, member.id]));

    await fails(adminByKey, "admin_list_users", {}, "unauthenticated");
    await fails(asMember, "admin_delete_post", { post_id: listing.id }, "admin_required");
    await fails(asAdmin, "admin_delete_user", { user_id: admin.id }, "cannot_delete_admin");
    expect(await ok(asAdmin, "admin_delete_post", { post_id: listing.id })).toEqual({ success: true });
    await fails(asAdmin, "admin_delete_post", { post_id: listing.id }, "listing_not_found");
    expect(await ok(asAdmin, "admin_delete_user", { user_id: member.id })).toEqual({ success: true });
    await fails(asAdmin, "admin_delete_user", { user_id: member.id }, "user_not_found");
  });
});

describe("read-only sessions", () => {
  it("list no tool that writes, and refuse a write called anyway", async () => {
    const h = await harness();
    const alice = await h.member();
    const client = await h.linked(await h.actorOf({ apiKey: alice.key }), { readOnly: true });
    expect(await writeTools(client)).toEqual([]);
    expect(await toolNames(client)).toContain("draft_listing_from_document");
    await fails(client, "create_listing", LISTING, "forbidden");
    expect((await ok(client, "search_listings", { user_id: alice.id })).count).toBe(0);
  });
});
