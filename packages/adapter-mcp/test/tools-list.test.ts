import { describe, expect, it } from "vitest";
import { toolNames } from "./support/calls.js";
import { harness } from "./support/harness.js";

// What agents see, committed: any change to a tool's name, schema, annotation
// or description, or to the server's instructions, shows in review as a diff
// of tools-list.snapshot.json. Taken as an admin (every tool) in strict mode.
describe("tools/list", () => {
  it("matches the committed snapshot", async () => {
    const h = await harness("strict");
    const admin = await h.admin();
    const client = await h.linked(await h.actorOf({ bearer: admin.token }));
    const { tools } = await client.listTools();
    const seen = { instructions: client.getInstructions(), tools };
    await expect(`${JSON.stringify(seen, null, 2)}\n`).toMatchFileSnapshot("./tools-list.snapshot.json");
  });

  it("legacy mode opens the same tools to anonymous callers as its REST routes: the message reads", async () => {
    const h = await harness("legacy");
    const client = await h.linked(await h.actorOf({}));
    expect(await toolNames(client)).toEqual([
      "whoami",
      "search_listings",
      "get_listing",
      "list_categories",
      "list_messages",
      "get_listing_limit",
    ]);
  });
});
