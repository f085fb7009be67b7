// Child process of durability.test.ts: stores a user and a listing, then dies
// by SIGKILL without closing, as a crash right after acknowledging would.
import { openSqliteStorage } from "../index.js";

const [file, userId, listingId] = process.argv.slice(2);
if (!file || !userId || !listingId) throw new Error("usage: child-crash.ts FILE USER_ID LISTING_ID");
const storage = openSqliteStorage({ file });
await storage.migrate();
const createdAt = new Date("2026-03-01T12:00:00.123Z");
await storage.repositories.users.insert({
  id: userId,
  email: "crash@example.com",
  displayName: "Crash",
  isAdmin: false,
  accountType: "personal",
  passwordHash: null,
  tokenVersion: 0,
  emailVerifiedAt: null,
  createdAt,
});
const stored = await storage.repositories.listings.insertWithinSlots(
  {
    id: listingId,
    title: "Survives a crash",
    description: "Acknowledged, then the process died.",
    price: 12.5,
    priceUnit: "fixed",
    category: "cybersecurity",
    condition: "new",
    images: [],
    userId,
    structuredData: { nested: { ok: true } },
    status: "active",
    contactEmail: null,
    expiresAt: null,
    views: 0,
    createdAt,
  },
  { maxSlots: 10, now: createdAt },
);
if (!stored) throw new Error("insert refused");
process.kill(process.pid, "SIGKILL");
