/** @psm/host: what every surface of the marketplace (JSON API, pages, MCP) shares at the edge. */
export {};
