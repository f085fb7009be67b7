/** What one soak client can do, each recording in the ledger what the server acknowledged. */
import { type BenchUser, makeUser, newListing, pick } from "./api.js";
import { type Ledger, send } from "./soak-ledger.js";

/** A user of the pool, with what its clients have made (shared by the clients acting as it). */
export interface Soaker extends BenchUser {
  listings: string[];
  keys: string[];
}

/** What every client needs: the server, the admin (owner of the view targets) and the pool. */
export interface World {
  base: string;
  admin: BenchUser;
  /** The admin's listings: views and messages go to them, and they are never deleted. */
  targets: string[];
  users: Soaker[];
  ledger: Ledger;
}

/** One client step, acting as `me`. */
export type Action = (world: World, me: Soaker) => Promise<void>;

const any = <T>(items: readonly T[]): T | undefined => items[Math.floor(Math.random() * items.length)];
const idOf = (body: unknown, ...path: string[]) => {
  const value = pick(body, ...path);
  return typeof value === "string" ? value : undefined;
};
let serial = 0;

/** A GET whose answer only counts towards the status tally. */
export const read =
  (action: string, path: (w: World) => string, withToken = false): Action =>
  async (w, me) => {
    await send(w.ledger, w.base, action, "GET", path(w), withToken ? { token: me.token } : {});
  };

/** POST view on a target; acknowledged ones are counted per listing. */
export const view: Action = async (w) => {
  const id = any(w.targets) ?? "";
  const answer = await send(w.ledger, w.base, "view", "POST", `/api/listings/${id}/view`);
  if (answer?.status === 200) w.ledger.views.set(id, (w.ledger.views.get(id) ?? 0) + 1);
};

async function createAs(w: World, user: BenchUser, action: string): Promise<string | undefined> {
  const body = newListing(serial++);
  const answer = await send(w.ledger, w.base, action, "POST", "/api/listings", { apiKey: user.apiKey, body });
  const id = idOf(answer?.body, "listing", "id");
  if (answer?.status !== 201 || !id) return undefined;
  w.ledger.listings.set(id, { userId: user.id, gone: false });
  return id;
}

/** A create with the API key: 201 (recorded) or 403 when the slots are full. */
export const create: Action = async (w, me) => {
  const id = await createAs(w, me, "create");
  if (id) me.listings.push(id);
};

/** Pauses or reactivates one of my listings (reactivation is bounded by the slots too). */
export const pauseOrResume: Action = async (w, me) => {
  const id = any(me.listings);
  if (!id) return;
  const status = Math.random() < 0.5 ? "paused" : "active";
  const options = { token: me.token, body: { status } };
  await send(w.ledger, w.base, `patch-${status}`, "PATCH", `/api/listings/${id}`, options);
};

/** Deletes my oldest listing; an acknowledged delete means it must be gone. */
export const remove: Action = async (w, me) => {
  const id = me.listings.shift();
  if (!id) return;
  const answer = await send(w.ledger, w.base, "delete", "DELETE", `/api/listings/${id}`, {
    apiKey: me.apiKey,
  });
  const entry = w.ledger.listings.get(id);
  if (answer?.status === 200 && entry) entry.gone = true;
};

/** A message to the admin about one of the targets. */
export const message: Action = async (w, me) => {
  const body = { listing_id: any(w.targets), receiver_id: w.admin.id, content: `soak message ${serial++}` };
  const answer = await send(w.ledger, w.base, "message", "POST", "/api/messages", { token: me.token, body });
  const id = idOf(answer?.body, "data", "id");
  if (answer?.status === 201 && id) w.ledger.messages.add(id);
};

/** A new API key for me. */
export const createKey: Action = async (w, me) => {
  const options = { token: me.token, body: { name: "soak" } };
  const answer = await send(w.ledger, w.base, "key", "POST", "/api/keys", options);
  const id = idOf(answer?.body, "key", "id");
  if (answer?.status !== 200 || !id) return;
  w.ledger.keys.set(id, { userId: me.id, inactive: false });
  me.keys.push(id);
};

/** Deactivates my oldest extra key. */
export const deactivateKey: Action = async (w, me) => {
  const id = me.keys.shift();
  if (!id) return;
  const answer = await send(w.ledger, w.base, "key-off", "DELETE", `/api/keys/${id}`, { token: me.token });
  const entry = w.ledger.keys.get(id);
  if (answer?.status === 200 && entry) entry.inactive = true;
};

/** A login (argon2id verification). */
export const logIn: Action = async (w, me) => {
  await send(w.ledger, w.base, "login", "POST", "/api/auth/login", {
    body: { email: me.email, password: me.password },
  });
};

/**
 * A short-lived account: signs up, posts, then the admin deletes it while it
 * may still be posting, so the cascade races a fresh insert (no orphans allowed).
 */
export const churn: Action = async (w) => {
  let user: BenchUser;
  try {
    user = await makeUser(w.base, `churn-${process.pid}-${serial++}@soak.example`);
  } catch (error) {
    w.ledger.noAnswer.push(`churn sign-up: ${String(error)}`);
    return;
  }
  const created = [await createAs(w, user, "churn-create")];
  const deleteUser = send(w.ledger, w.base, "churn-delete", "DELETE", `/api/admin/users/${user.id}`, {
    token: w.admin.token,
  });
  const [racing, removed] = await Promise.all([createAs(w, user, "churn-create"), deleteUser]);
  if (removed?.status !== 200) return;
  w.ledger.deletedUsers.add(user.id);
  for (const id of [...created, racing]) {
    const entry = id ? w.ledger.listings.get(id) : undefined;
    if (entry) entry.gone = true;
  }
};
