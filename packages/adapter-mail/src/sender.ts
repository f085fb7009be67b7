import addressparser from "nodemailer/lib/addressparser";

/**
 * Checks that `from` is one mailbox, e.g. `Marketplace <no-reply@example.com>`, and
 * returns it unchanged. The factories call it so a bad sender stops the server at
 * start rather than failing every mail later.
 */
export function checkSender(from: string): string {
  const parsed = addressparser(from);
  const address = parsed.length === 1 ? parsed[0]?.address : undefined;
  // A group ("Team: a@x;") has no address of its own, so it fails here too.
  if (address === undefined || !/^[^\s@]+@[^\s@]+$/.test(address)) {
    throw new Error(
      `The mail sender must be one address like "Marketplace <no-reply@example.com>", got "${from}"`,
    );
  }
  return from;
}
