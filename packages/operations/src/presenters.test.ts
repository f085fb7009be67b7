import type { Listing, UserView } from "@psm/core";
import { describe, expect, test } from "vitest";
import {
  presentApiKey,
  presentCreatedApiKey,
  presentListing,
  presentProfile,
  presentUser,
} from "./presenters.js";

const listing: Listing = {
  id: "01900000-0000-7000-8000-000000000001",
  title: "T",
  description: "D",
  price: null,
  priceUnit: "fixed",
  category: "cybersecurity",
  condition: "good",
  images: [],
  userId: "01900000-0000-7000-8000-000000000002",
  structuredData: null,
  status: "active",
  contactEmail: null,
  expiresAt: new Date("2026-01-02T00:00:00Z"),
  views: 3,
  createdAt: new Date("2026-01-01T00:00:00Z"),
};

describe("presenters", () => {
  test("a listing is snake_case with ISO dates and its effective status", () => {
    const before = presentListing(listing, new Date("2026-01-01T12:00:00Z"));
    expect(before).toMatchObject({
      user_id: listing.userId,
      status: "active",
      expires_at: "2026-01-02T00:00:00.000Z",
      created_at: "2026-01-01T00:00:00.000Z",
    });
    expect(presentListing(listing, new Date("2026-01-03T00:00:00Z")).status).toBe("expired");
    expect(presentListing({ ...listing, status: "paused" }, new Date("2026-01-03T00:00:00Z")).status).toBe(
      "paused",
    );
  });

  test("a user carries no secret even if handed a stored record", () => {
    const stored = {
      id: "u",
      email: "a@b.co",
      displayName: "A",
      isAdmin: false,
      accountType: "personal",
      activeListingsCount: 0,
      emailVerified: true,
      createdAt: new Date(0),
      passwordHash: "fake$secret",
      tokenVersion: 2,
      emailVerifiedAt: new Date(0),
    } as UserView;
    expect(Object.keys(presentUser(stored)).sort()).toEqual([
      "account_type",
      "active_listings_count",
      "created_at",
      "display_name",
      "email",
      "email_verified",
      "id",
      "is_admin",
    ]);
    expect(presentUser(stored).email_verified).toBe(true);
  });

  test("a profile omits an email it may not show", () => {
    const profile = { id: "p", displayName: "P", isAdmin: false, accountType: "business" as const };
    expect(presentProfile(profile)).not.toHaveProperty("email");
    expect(presentProfile({ ...profile, email: "p@x.co" }).email).toBe("p@x.co");
  });

  test("a key shows its value only at creation, never its hash", () => {
    const apiKey = {
      id: "k",
      userId: "u",
      name: "n",
      keyHash: "abc",
      prefix: "psm_12345678",
      scopes: null,
      expiresAt: null,
      isActive: true,
      lastUsed: null,
      createdAt: new Date(0),
    };
    expect(presentApiKey(apiKey)).not.toHaveProperty("key");
    expect(JSON.stringify(presentApiKey(apiKey))).not.toContain("abc");
    expect(presentCreatedApiKey({ apiKey, secret: "psm_x" }).key).toBe("psm_x");
  });
});
