import type { Actor, Marketplace } from "@psm/core";
import { inWireWords, type Operation } from "@psm/operations";

/**
 * Runs the operation's precheck, if it has one, outside any unit of work: an idempotent write
 * holds the storage while its unit runs, so what may take time (a URL's DNS lookup) goes first.
 */
export async function runPrecheck(
  op: Operation,
  m: Marketplace,
  actor: Actor,
  command: Record<string, unknown>,
  names: ReadonlyMap<string, string>,
): Promise<void> {
  if (!op.precheck) return;
  try {
    await op.precheck({ m, actor, command });
  } catch (error) {
    throw inWireWords(error, names);
  }
}
