import type { McpTool } from "./tool.js";

/** The host's rate classes that an MCP request can fall in (a tool's). */
export type RateClass = McpTool["rate"];

/**
 * The rate-limit class of each JSON-RPC message of a request body, so a
 * request counts as the REST calls it stands for: a tool call in its route's
 * class (a write, an upload for a document), anything else (initialize,
 * tools/list, an unknown tool) a read. A batch counts each of its messages.
 */
export function rateClassesOf(body: unknown, tools: readonly McpTool[]): RateClass[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.map((message): RateClass => {
    const call = toolCalled(message);
    const tool = call === undefined ? undefined : tools.find((candidate) => candidate.name === call);
    return tool?.rate ?? "read";
  });
}

function toolCalled(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  if (Reflect.get(message, "method") !== "tools/call") return undefined;
  const params: unknown = Reflect.get(message, "params");
  if (typeof params !== "object" || params === null) return undefined;
  const name: unknown = Reflect.get(params, "name");
  return typeof name === "string" ? name : undefined;
}
