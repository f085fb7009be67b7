import type { Session, Target } from "./target.js";

/** The accounts and objects the strict-input cases and the fuzzers act on. */
export interface Cast {
  user: Session;
  other: Session;
  admin: Session;
  /** The user's API key, and its id. */
  userKey: string;
  keyId: string;
  listingId: string;
  otherListingId: string;
  /** A webhook of the user's. */
  webhookId: string;
}

/** Signs up two users and an admin, with a key for the user and a listing each for the users. */
export async function castOf(t: Target): Promise<Cast> {
  const user = await t.signUp();
  const other = await t.signUp();
  const admin = await t.admin();
  const { id: keyId, key: userKey } = await t.apiKey(user);
  const listingId = (await t.listing(user)).id;
  const otherListingId = (await t.listing(other)).id;
  const hook = await t.request("POST", "/api/webhooks", {
    token: user.token,
    body: { url: "https://hooks.example.com/cast", types: ["listing.created"] },
  });
  const { webhook } = (await hook.json()) as { webhook: { id: string } };
  return { user, other, admin, userKey, keyId, listingId, otherListingId, webhookId: webhook.id };
}
