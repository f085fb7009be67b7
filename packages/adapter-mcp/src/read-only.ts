import { MarketplaceError } from "@psm/core";

/** The request header that asks for a read-only session (browsers may use the query parameter instead). */
export const READ_ONLY_HEADER = "X-MCP-Read-Only";

/** The query parameter that asks for a read-only session: `/mcp?read_only=true`. */
export const READ_ONLY_PARAM = "read_only";

/**
 * Whether one request asks for a read-only session, by header or query
 * (`true`/`1`, `false`/`0`). A request can only narrow the server's setting
 * (MCP_READ_ONLY), never widen it; any other value is 400, not a silent write.
 */
export function readOnlyRequested(header: string | undefined, param: string | undefined): boolean {
  return [header, param].some((value) => {
    if (value === undefined) return false;
    const word = value.trim().toLowerCase();
    if (word === "true" || word === "1") return true;
    if (word === "false" || word === "0" || word === "") return false;
    throw new MarketplaceError("invalid_input", `${READ_ONLY_PARAM}: must be true or false`);
  });
}
