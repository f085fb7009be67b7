/**
 * The JSON-RPC `initialize` request a client sends first to /mcp, for tests that speak to the
 * endpoint without the SDK's client (which would load the SDK into the test process).
 */
export function mcpInitialize(clientName: string) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: clientName, version: "1" },
    },
  };
}
