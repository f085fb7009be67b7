import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect } from "vitest";
import type { Json } from "./http.js";
import { APP_DIR } from "./paths.js";
import { childEnv } from "./server-process.js";

/** `psm-mcp` as package.json's "bin" names it. */
export const PSM_MCP = join(APP_DIR, "bin/psm-mcp.js");

/** The SDK's client over Streamable HTTP to a running server's /mcp, with these request headers. */
export async function connectHttp(
  base: string,
  headers: Record<string, string> = {},
  query = "",
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp${query}`), {
    requestInit: { headers },
  });
  const client = new Client({ name: "psm-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** The SDK's client over stdio to the `psm-mcp` command, started with `env` only, in `cwd` (default: the runner's). */
export async function connectStdio(
  env: Record<string, string>,
  cwd?: string,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [PSM_MCP],
    env: childEnv({ LOG_LEVEL: "warn", ...env }),
    ...(cwd === undefined ? {} : { cwd }),
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "psm-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** A tool's answer: structured content and whether it failed (the text fallback must say the same). */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; body: Json; meta: Record<string, unknown> | undefined }> {
  const result = await client.callTool({ name, arguments: args });
  const [first] = result.content as { type: string; text?: string }[];
  expect(JSON.parse(first?.text ?? "null")).toEqual(result.structuredContent);
  return { isError: result.isError === true, body: result.structuredContent as Json, meta: result._meta };
}

/** A call that must succeed: its body. */
export async function okTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Json> {
  const result = await callTool(client, name, args);
  expect(result.isError, `${name}: ${JSON.stringify(result.body)}`).toBe(false);
  return result.body;
}

/** A call that must fail with `code`: its `{error, code}`. */
export async function failedTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<Json> {
  const result = await callTool(client, name, args);
  expect([result.isError, result.body.code], JSON.stringify(result.body)).toEqual([true, code]);
  return result.body;
}

/** The tools that write, among those offered. */
export async function writeTools(client: Client): Promise<string[]> {
  const { tools } = await client.listTools();
  return tools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name);
}
