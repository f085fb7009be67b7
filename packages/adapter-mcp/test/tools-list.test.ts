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

  // Agents read the whole list on every connection (issue 32: it was 117 KB, 68 % output
  // schemas): each named shape's fields are described once, failures share one terse shape. 34
  // tools since saved searches and OAuth landed: about 2.8 KB a tool, the whole list under 100 KB.
  it("stays within its size: the list under 100 KB, output schemas under 55 % of it", async () => {
    const h = await harness("strict");
    const admin = await h.admin();
    const client = await h.linked(await h.actorOf({ bearer: admin.token }));
    const { tools } = await client.listTools();
    const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
    const total = bytes({ tools });
    const outputs = tools.reduce((sum, tool) => sum + bytes(tool.outputSchema), 0);
    expect(total).toBeLessThan(100_000);
    expect(outputs / total).toBeLessThan(0.55);
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(/ Answers .+; a failure is \{error, code\}\.$/);
      if (tool.name !== "list_categories") expect(tool.description, tool.name).toContain(" Use it ");
    }
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
