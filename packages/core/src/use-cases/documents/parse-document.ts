import type { Deps } from "../../deps.js";
import type { Actor } from "../../domain/actor.js";
import type { DocumentInput, ParsedDocument } from "../../ports/document-parser.js";
import { requireUser } from "../access.js";

/** Extracts listing fields from an uploaded document (API key or JWT). */
export async function parseDocument(
  deps: Pick<Deps, "documents">,
  actor: Actor,
  input: DocumentInput,
): Promise<ParsedDocument> {
  const user = requireUser(actor);
  // The caller is named by the core, never by the transport: one account's documents share its bounds.
  return deps.documents.parse({ ...input, caller: user.user.id });
}
