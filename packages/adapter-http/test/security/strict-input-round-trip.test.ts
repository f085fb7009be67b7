/**
 * What a write acknowledges is what a later read returns, for any storable text (decisions.md:
 * "Strings", "Field bounds"); nesting, dates and numbers that storage would change or choke on
 * are refused. The app runs in-process over real SQLite and PostgreSQL storage.
 */

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { storableString, storableText } from "../fuzz/support/hostile-strings.js";
import { BACKENDS } from "./support/hostile-server.js";
import { asJson, nested, refusal } from "./support/input-cases.js";
import { useStrictApp } from "./support/strict-app.js";

const SEED = 20_260_301;

/** structured_data values: storable strings (keys too, prototype names among them), finite numbers, nesting. */
const jsonObject = fc.letrec((tie) => ({
  value: fc.oneof(
    { maxDepth: 3 },
    storableString(12),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    tie("object"),
  ),
  object: fc.dictionary(
    fc.oneof(storableString(10), fc.constantFrom("__proto__", "constructor", "prototype", "toString")),
    tie("value"),
    { maxKeys: 5 },
  ),
})).object;

for (const backend of BACKENDS) {
  describe(`strict input, in-process on ${backend} storage`, () => {
    const app = useStrictApp(backend);

    test("what a listing create and edit acknowledge is what is stored, for any storable text", {
      timeout: 120_000,
    }, async () => {
      const { t, cast } = app;
      const fieldsArb = fc.record({
        title: storableText(12),
        description: storableText(40),
        condition: storableString(8),
        image: storableString(10),
        structured_data: jsonObject,
      });
      await fc.assert(
        fc.asyncProperty(fieldsArb, fieldsArb, async (first, second) => {
          const sent = (f: typeof first) => ({
            title: f.title,
            description: f.description,
            category: "data-analytics",
            condition: f.condition,
            images: [`https://img.example.com/${f.image}`],
            structured_data: f.structured_data,
          });
          const created = await t.request("POST", "/api/listings", {
            token: cast.user.token,
            body: sent(first),
          });
          if (created.status === 400) return; // refused clearly (a URL that does not parse, say)
          expect(created.status, await created.clone().text()).toBe(201);
          const ack = ((await created.json()) as { listing: Record<string, unknown> }).listing;
          const id = ack.id as string;
          try {
            expect(ack).toMatchObject(asJson(sent(first)));
            const read = await t.request("GET", `/api/listings/${id}`);
            expect(((await read.json()) as { listing: unknown }).listing).toEqual(ack);
            const edited = await t.request("PATCH", `/api/listings/${id}`, {
              token: cast.user.token,
              body: sent(second),
            });
            if (edited.status === 400) return;
            expect(edited.status).toBe(200);
            const ackEdit = ((await edited.json()) as { listing: Record<string, unknown> }).listing;
            expect(ackEdit).toMatchObject(asJson(sent(second)));
            const reread = await t.request("GET", `/api/listings/${id}`);
            expect(((await reread.json()) as { listing: unknown }).listing).toEqual(ackEdit);
          } finally {
            await t.request("DELETE", `/api/listings/${id}`, { token: cast.user.token });
          }
        }),
        { seed: SEED, numRuns: 40, endOnFailure: true },
      );
    });

    test("names, key names and message content come back as acknowledged", { timeout: 120_000 }, async () => {
      const { t, cast } = app;
      await fc.assert(
        fc.asyncProperty(
          storableText(12),
          storableText(12),
          storableText(60),
          async (name, keyName, content) => {
            const renamed = await t.request("PUT", "/api/users/update", {
              token: cast.other.token,
              body: { display_name: name },
            });
            if (renamed.status !== 400) {
              const ack = ((await renamed.json()) as { user: { display_name: string } }).user.display_name;
              expect(ack).toBe(name.trim());
              const me = await t.json<{ user: { display_name: string } }>(
                await t.request("GET", "/api/auth/me", { token: cast.other.token }),
              );
              expect(me.user.display_name).toBe(ack);
            }
            const key = await t.request("POST", "/api/keys", {
              token: cast.other.token,
              body: { name: keyName },
            });
            if (key.status !== 400) {
              const made = ((await key.json()) as { key: { id: string; name: string } }).key;
              expect(made.name).toBe(keyName.trim());
              const listed = await t.json<{ keys: { id: string; name: string }[] }>(
                await t.request("GET", "/api/keys?limit=100", { token: cast.other.token }),
              );
              expect(listed.keys.find((k) => k.id === made.id)?.name).toBe(made.name);
            }
            const sent = await t.request("POST", "/api/messages", {
              token: cast.other.token,
              body: { listing_id: cast.listingId, receiver_id: cast.user.id, content },
            });
            expect(sent.status).toBe(201);
            const message = ((await sent.json()) as { data: { id: string; content: string } }).data;
            expect(message.content).toBe(content);
            const inbox = await t.json<{ messages: { id: string; content: string }[] }>(
              await t.request("GET", "/api/messages?type=received&limit=5", { token: cast.user.token }),
            );
            expect(inbox.messages.find((m) => m.id === message.id)?.content).toBe(content);
          },
        ),
        { seed: SEED, numRuns: 25, endOnFailure: true },
      );
    });

    test("structured_data: 32 levels are stored, 33 and 5,000 are 400; keys and numbers come back as sent", async () => {
      const { t, cast } = app;
      const create = (structured_data: unknown) =>
        t.request("POST", "/api/listings", {
          token: cast.other.token,
          body: { title: "Deep", description: "d", category: "legal-consulting", structured_data },
        });
      const keys = JSON.parse(
        '{"__proto__":{"polluted":true},"constructor":"c","prototype":[1],"":"empty","a.b":{"[0]":-0,"big":1e308,"tiny":5e-324,"x":0.30000000000000004}}',
      );
      for (const value of [nested(32), keys]) {
        const res = await create(value);
        expect(res.status).toBe(201);
        const ack = ((await res.json()) as { listing: { id: string; structured_data: unknown } }).listing;
        expect(ack.structured_data).toEqual(asJson(value));
        const read = await t.json<{ listing: { structured_data: unknown } }>(
          await t.request("GET", `/api/listings/${ack.id}`),
        );
        expect(read.listing.structured_data).toEqual(ack.structured_data);
        expect(Object.keys(read.listing.structured_data as object).sort()).toEqual(Object.keys(value).sort());
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        await t.request("DELETE", `/api/listings/${ack.id}`, { token: cast.other.token });
      }
      // 5,000 levels (the size that overflowed the stack) sent as text: the test's own JSON.stringify would overflow.
      const levels = 5_000;
      const deep = `{"title":"Deep","description":"d","category":"legal-consulting","structured_data":${'{"k":'.repeat(levels)}1${"}".repeat(levels)}}`;
      const answer = await refusal(
        await t.request("POST", "/api/listings", { token: cast.other.token, raw: deep }),
      );
      expect(answer).toEqual({
        status: 400,
        code: "invalid_input",
        error: "Body must not nest more than 64 levels deep",
      });
      for (const [value, message] of [
        [nested(33), "structured_data: must be at most 32 levels deep"],
        [nested(60), "structured_data: must be at most 32 levels deep"],
        [{ k: [nested(40)] }, "structured_data: must be at most 32 levels deep"],
        [{ s: "é".repeat(9000) }, "structured_data: must be at most 16 KiB"],
      ] as const) {
        expect(await refusal(await create(value))).toEqual({
          status: 400,
          code: "invalid_input",
          error: message,
        });
      }
    });

    test("dates, prices and bodies that storage would change or choke on are refused", async () => {
      const { t, cast } = app;
      const create = (fields: Record<string, unknown>) =>
        t.request("POST", "/api/listings", {
          token: cast.other.token,
          body: { title: "Dated", description: "d", category: "legal-consulting", ...fields },
        });
      for (const expires_at of [
        "2031-02-30T00:00:00Z",
        "2031-04-31T12:00:00Z",
        "2031-03-01T12:00:00 +05:00",
        "2031-03-01T12:00:00+05",
        "10000-01-01T00:00:00Z",
      ]) {
        const answer = await refusal(await create({ expires_at }));
        expect(answer, expires_at).toMatchObject({ status: 400, code: "invalid_input" });
        expect(answer.error, expires_at).toMatch(/^expires_at: /);
      }
      const far = await create({ expires_at: "9999-12-31T23:59:59.999Z", price: 0.1 });
      expect(far.status).toBe(201);
      const listing = ((await far.json()) as { listing: { id: string; expires_at: string } }).listing;
      expect(listing.expires_at).toBe("9999-12-31T23:59:59.999Z");
      const old = await t.request("PATCH", `/api/listings/${listing.id}`, {
        token: cast.other.token,
        body: { expires_at: "1000-01-01T00:00:00.000Z" },
      });
      expect(old.status).toBe(200);
      const read = await t.json<{ listing: { expires_at: string; status: string } }>(
        await t.request("GET", `/api/listings/${listing.id}`),
      );
      expect(read.listing).toMatchObject({ expires_at: "1000-01-01T00:00:00.000Z", status: "expired" });
      // A year that PostgreSQL would print as BC, or that a Date would read as 19xx or 20xx, is refused.
      for (const expires_at of ["0001-01-01T00:00:00Z", "0099-06-01T00:00:00Z", "0999-12-31T23:59:59Z"]) {
        const answer = await refusal(
          await t.request("PATCH", `/api/listings/${listing.id}`, {
            token: cast.other.token,
            body: { expires_at },
          }),
        );
        expect(answer, expires_at).toEqual({
          status: 400,
          code: "invalid_input",
          error: "expires_at: must be between the years 1000 and 9999",
        });
      }
      expect(await refusal(await create({ price: "9".repeat(400) }))).toMatchObject({ status: 400 });
      await t.request("DELETE", `/api/listings/${listing.id}`, { token: cast.other.token });
    });
  });
}
