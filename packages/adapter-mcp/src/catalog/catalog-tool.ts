import type { McpTool } from "../tool.js";
import type { ObjectJsonSchema } from "./json-schema.js";

/** A tool of the catalog: an McpTool whose input schema is known to list its properties. */
export type CatalogTool = McpTool & { inputSchema: ObjectJsonSchema };
