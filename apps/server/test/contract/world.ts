/** The members the surface contract acts as, and how one operation's case is declared and run. */
import fc from "fast-check";
import { expect } from "vitest";
import { createKey, seedUser } from "../support/accounts.js";
import { call, expectStatus, str } from "../support/http.js";
import { logInOnPages } from "../support/web-session.js";
import type { Answer, Browser } from "./wire.js";

/** The password seedUser gives every member. */
export const PASSWORD = "reliability-pw";
/** A listing category core knows. */
export const CATEGORY = "data-analytics";

/** A member signed in on every surface: a JWT, an API key, a browser session, a listing of theirs. */
export interface Member {
  id: string;
  email: string;
  token: string;
  apiKey: string;
  web: Browser;
  listingId: string;
}

/** Who acts: the author writes; the owner is the other party (and owns what the author may not touch). */
export interface World {
  base: string;
  author: Member;
  /** The author's listings to edit, one per surface, so no surface edits what another one does. */
  edited: { page: string; api: string; mcp: string };
  owner: Member;
  /** A key of the owner's: no other member may deactivate it. */
  ownerKey: { id: string; key: string };
  /** A third member: party to no conversation, and the account of the log-in and password cases. */
  stranger: Member;
}

async function member(base: string, email: string): Promise<Member> {
  const user = await seedUser(base, email, 1);
  const web = await logInOnPages(base, email, PASSWORD);
  return { ...user, email, web: { cookie: web.cookie }, listingId: str(user.listingIds[0]) };
}

/** A listing of `who`'s, made over the API. */
export async function newListing(base: string, who: Member, title = "Contract target"): Promise<string> {
  const reply = await call(base, "POST", "/api/listings", {
    apiKey: who.apiKey,
    body: { title, description: "A listing the contract acts on", category: CATEGORY },
  });
  expectStatus(reply, 201);
  return str(reply.body.listing?.id);
}

/** Signs the members up and gives the owner's inbox a conversation, so its page shows a reply form. */
export async function makeWorld(base: string): Promise<World> {
  const author = await member(base, "author@acme.io");
  const owner = await member(base, "owner@acme.io");
  const stranger = await member(base, "stranger@acme.io");
  const edited = {
    page: await newListing(base, author),
    api: await newListing(base, author),
    mcp: await newListing(base, author),
  };
  const opened = await call(base, "POST", "/api/messages", {
    apiKey: author.apiKey,
    body: { listing_id: owner.listingId, receiver_id: owner.id, content: "Is March free?" },
  });
  expectStatus(opened, 201);
  const ownerKey = await createKey(base, { token: owner.token }, "owner's own");
  return { base, author, edited, owner, ownerKey, stranger };
}

/** One operation of the contract: its generated input, and what one input must do on every surface. */
export interface SurfaceCase {
  name: string;
  check(world: World, runs: { seed: number; numRuns: number }): Promise<void>;
}

/**
 * Declares a case: `run` drives one generated input through every surface that has the operation
 * and answers the API's outcome, if it has one to tell. A run in which every input got the same
 * answer would hold the surfaces alike vacuously (all refusing, say), so it fails.
 */
export function surfaceCase<T>(
  name: string,
  input: fc.Arbitrary<T> | ((world: World) => fc.Arbitrary<T>),
  run: (world: World, value: T) => Promise<string | undefined>,
): SurfaceCase {
  return {
    name,
    async check(world, runs) {
      const outcomes = new Set<string>();
      const values = typeof input === "function" ? input(world) : input;
      // No shrinking: each step would write to the server again, and the first failure says enough.
      await fc.assert(
        fc.asyncProperty(values, async (value) => {
          const outcome = await run(world, value);
          if (outcome !== undefined) outcomes.add(outcome);
        }),
        { ...runs, endOnFailure: true },
      );
      if (outcomes.size > 0) expect([...outcomes], `${name}: one answer to every input`).toContain("ok");
      if (outcomes.size > 0) expect(outcomes.size, `${name}: one answer to every input`).toBeGreaterThan(1);
    },
  };
}

let tags = 0;
/** A fresh tag, the same length every time: each surface's own address in a sign-up. */
export const nextTag = (): string => String(++tags).padStart(6, "0");

/** A form field's text: what a browser would send for a value only JSON can type. */
export const asText = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/** A blank form field means "none" on the pages; the API is sent the same meaning. */
export const isBlank = (value: unknown): boolean => typeof value === "string" && value.trim() === "";

/** Shown in a failed expectation: the input, its long strings cut. */
export function shown(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === "string" && v.length > 60 ? `${v.slice(0, 20)}…(${v.length} chars)` : v,
  );
}

/**
 * The page and the API agree to accept or refuse; MCP, where the tool exists, answers as the API.
 * Answers the API's outcome.
 */
export function expectAlike(
  what: string,
  input: unknown,
  answers: { page?: boolean; api: Answer; mcp?: Answer },
): string {
  const context = `${what} ${shown(input)}`;
  if (answers.page !== undefined) {
    const said = answers.page ? "accepted" : "refused";
    expect(answers.page, `${context}: page ${said}, API ${answers.api.outcome}`).toBe(
      answers.api.outcome === "ok",
    );
  }
  if (answers.mcp !== undefined) {
    expect(answers.mcp.outcome, `${context}: MCP vs API`).toBe(answers.api.outcome);
  }
  return answers.api.outcome;
}
