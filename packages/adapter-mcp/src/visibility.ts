import { type Actor, hasScope, isAdmin, signedInWithPassword } from "@psm/core";
import type { McpTool } from "./tool.js";

/**
 * Whether `actor` sees `tool` in tools/list. Without credentials only public
 * tools that write nothing; with them, what the tool's auth allows (an admin
 * tool needs an admin who signed in with a password, as /api/admin does); in a
 * read-only session no tool that writes; a credential limited to scopes sees only the tools they
 * allow. Core authorises every call anyway.
 */
export function isListed(tool: McpTool, actor: Actor, readOnly: boolean): boolean {
  if (readOnly && !tool.readOnly) return false;
  if (actor.kind !== "user") return tool.auth === "public" && tool.readOnly;
  if (tool.scope !== undefined && !hasScope(actor, tool.scope)) return false;
  switch (tool.auth) {
    case "public":
    case "key-or-jwt":
      return true;
    case "jwt":
      return signedInWithPassword(actor);
    case "admin":
      return signedInWithPassword(actor) && isAdmin(actor);
  }
}
