import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ANONYMOUS, createMarketplace, MarketplaceError } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { createMcpServer } from "./server.js";
import type { McpTool } from "./tool.js";

const object = { type: "object" as const, properties: {} };

function tool(name: string, call: McpTool["call"], readOnly = true): McpTool {
  return {
    name,
    title: name,
    description: `${name} for a test`,
    auth: "public",
    readOnly,
    destructive: false,
    idempotent: true,
    openWorld: false,
    rate: readOnly ? "read" : "write",
    http: null,
    inputSchema: object,
    outputSchema: object,
    call,
  };
}

async function connect(tools: McpTool[], logged: object[] = []) {
  const marketplace = createMarketplace(createTestDeps());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const logger = { error: (obj: object) => void logged.push(obj) };
  await createMcpServer(marketplace, ANONYMOUS, { tools, logger }).connect(serverSide);
  const client = new Client({ name: "test", version: "1" });
  await client.connect(clientSide);
  return client;
}

describe("createMcpServer", () => {
  it("answers an unexpected failure as internal_error, logged, never with its message", async () => {
    const logged: object[] = [];
    const client = await connect(
      [
        tool("boom", async () => {
          throw new Error("secret connection string");
        }),
      ],
      logged,
    );
    const result = await client.callTool({ name: "boom", arguments: {} });
    expect(result).toMatchObject({ isError: true, structuredContent: { code: "internal_error" } });
    expect(JSON.stringify(result)).not.toContain("secret");
    expect(logged).toEqual([expect.objectContaining({ tool: "boom" })]);
  });

  it("carries Retry-After of a busy failure in _meta, and the annotations in tools/list", async () => {
    const client = await connect([
      tool("busy", async () => {
        throw new MarketplaceError("document_parser_busy", undefined, { retryAfter: 2.5 });
      }),
    ]);
    const result = await client.callTool({ name: "busy", arguments: {} });
    expect(result).toMatchObject({ isError: true, _meta: { retry_after_seconds: 3 } });
    const [listed] = (await client.listTools()).tools;
    expect(listed?.annotations).toEqual({
      title: "busy",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});
