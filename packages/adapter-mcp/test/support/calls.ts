import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { expect } from "vitest";

/** A parsed JSON value that tests walk by property and hand to `expect`. */
export interface Json {
  readonly [key: string]: Json;
}

/** What a tool call answered: its structured content, whether it failed, and its _meta. */
export interface Called {
  isError: boolean;
  body: Json;
  text: string;
  meta: Record<string, unknown> | undefined;
}

/** Calls a tool with the SDK client (which checks the answer against the tool's output schema). */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Called> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  const text = content.find((part) => part.type === "text")?.text ?? "";
  // The text fallback says what the structured content says.
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return {
    isError: result.isError === true,
    body: result.structuredContent as Json,
    text,
    meta: result._meta,
  };
}

/** A call that must succeed: its body. */
export async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Json> {
  const result = await call(client, name, args);
  expect(result.isError, `${name}: ${result.text}`).toBe(false);
  return result.body;
}

/** A call that must fail with `code`: its `{error, code}`. */
export async function fails(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  code: string,
): Promise<Json> {
  const result = await call(client, name, args);
  expect([result.isError, result.body.code], result.text).toEqual([true, code]);
  expect(Object.keys(result.body).sort()).toEqual(["code", "error"]);
  return result.body;
}

/** The names of the tools a client is offered. */
export async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

/** The tools that write, among those a client is offered. */
export async function writeTools(client: Client): Promise<string[]> {
  const { tools } = await client.listTools();
  return tools.filter((tool) => tool.annotations?.readOnlyHint !== true).map((tool) => tool.name);
}

/** A JSON array as a list (an empty one when absent), to walk in a test. */
export function list(value: Json | undefined): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

/** A JSON value that must be a string (ids, messages). */
export function str(value: Json | undefined): string {
  if (typeof value !== "string") throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
}
