/**
 * Strict input against the composed server process, where the socket matters: NUL and lone
 * surrogates in bodies, queries and paths are 400 over HTTP while the rest is stored exactly;
 * malformed and oversized bodies are answered 400 and 413, never 500 and never a reset.
 */

import { describe, expect, test } from "vitest";
import { sendBig } from "./support/big-sender.js";
import type { Cast } from "./support/cast.js";
import { BACKENDS, useAccount, useHostileServer } from "./support/hostile-server.js";
import { BODY_CASES, nested, refusal } from "./support/input-cases.js";

const MiB = 1024 * 1024;

for (const backend of BACKENDS) {
  describe(`strict input against the server process on ${backend}`, () => {
    const server = useHostileServer(backend);
    const account = useAccount(server);

    const call = (
      method: string,
      path: string,
      body?: string | Uint8Array<ArrayBuffer>,
      type = "application/json",
    ) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${account.token}`, "content-type": type },
        ...(body === undefined ? {} : { body }),
      });

    test("over HTTP: NUL and lone surrogates in bodies, queries and paths are 400; the rest is stored exactly", async () => {
      for (const title of ["bad\u0000title", "bad\ud800title", "bad\udc00title"]) {
        const res = await call(
          "POST",
          "/api/listings",
          JSON.stringify({
            title: "ok",
            description: "d",
            category: "legal-consulting",
            structured_data: { note: title },
          }),
        );
        expect(await refusal(res)).toMatchObject({ status: 400, code: "invalid_input" });
      }
      for (const path of [
        "/api/listings?search=%00",
        "/api/listings?search=%ED%A0%80",
        "/api/listings/%00",
        "/api/listings/%ED%A0%80",
      ]) {
        expect(await refusal(await call("GET", path)), path).toMatchObject({
          status: 400,
          code: "invalid_input",
        });
      }
      const tricky = "\u0001\u001f \u2028\ufeff\uffff \ud83d\ude00 e\u0301 \u202e";
      const sent = {
        title: `T ${tricky} T`,
        description: tricky,
        category: "legal-consulting",
        condition: tricky.slice(0, 20),
        structured_data: { [tricky]: [tricky, { "\u0085": 1.5, constructor: -1 }], nested: nested(31) },
      };
      const created = await call("POST", "/api/listings", JSON.stringify(sent));
      expect(created.status).toBe(201);
      const ack = ((await created.json()) as { listing: Record<string, unknown> & { id: string } }).listing;
      expect(ack).toMatchObject(sent);
      const read = (await (await call("GET", `/api/listings/${ack.id}`)).json()) as { listing: unknown };
      expect(read.listing).toEqual(ack);
      const search = await call("GET", `/api/listings?search=${encodeURIComponent(tricky.slice(3, 6))}`);
      expect(((await search.json()) as { items: { id: string }[] }).items.map((i) => i.id)).toContain(ack.id);
    });

    test("deeply nested and malformed bodies are 400 on every body route, never 500", {
      timeout: 180_000,
    }, async () => {
      const made = await call(
        "POST",
        "/api/listings",
        JSON.stringify({ title: "t", description: "d", category: "legal-consulting" }),
      );
      const listingId = ((await made.json()) as { listing: { id: string } }).listing.id;
      const cast = { listingId } as Cast;
      const open = "[".repeat(MiB);
      const balanced = `${"[".repeat(MiB / 2 - 8)}${"]".repeat(MiB / 2 - 8)}`;
      const inField = `{"structured_data":${"[".repeat(200_000)}${"]".repeat(200_000)}}`;
      const deepObject = `{"title":"t","a":${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}}`;
      const bodies = [open, balanced, inField, deepObject, '{"title":"x"', "{}}", "[]", "null"];
      const bytes = [new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])]; // {"\xff\xfe":1}, not UTF-8
      for (const body of [...bodies, ...bytes]) {
        for (const kase of Object.values(BODY_CASES)) {
          const res = await call(kase.method, kase.path(cast), body);
          const where = `${kase.method} ${kase.path(cast)} ${String(body.slice(0, 12))}`;
          // A route of a later version may not exist in this build: 404, never 500.
          expect([400, 404], where).toContain(res.status);
          await res.body?.cancel();
        }
        const form = await call("POST", "/reset-password", body, "application/x-www-form-urlencoded");
        expect(form.status, String(body.slice(0, 12))).toBe(400);
        await form.body?.cancel();
      }
      for (const [body, type] of [
        ["--x\r\nbroken", "multipart/form-data; boundary=x"],
        ["token=a", "multipart/form-data"],
        ["token=%FF&new_password=x", "application/x-www-form-urlencoded"],
        ["{}", "application/json"],
      ] as const) {
        const res = await call("POST", "/reset-password", body, type);
        expect(res.status, `${type} ${body}`).toBe(400);
        await res.body?.cancel();
      }
      expect(server.output()).not.toMatch(/"statusCode":5\d\d|unhandled error/);
    });

    test("a client that keeps sending 12 MiB reads its 413 every time: upload, JSON and form", {
      timeout: 180_000,
    }, async () => {
      const port = Number(new URL(server.url).port);
      const boundary = "strictBoundary";
      const part = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`;
      const auth = { Authorization: `Bearer ${account.token}` };
      const senders = [
        { path: "/api/parse-pdf", type: `multipart/form-data; boundary=${boundary}`, prefix: part },
        { path: "/api/listings", type: "application/json", prefix: '{"title":"' },
        { path: "/reset-password", type: "application/x-www-form-urlencoded", prefix: "token=" },
      ];
      const outcomes: string[] = [];
      for (let round = 0; round < 6; round++) {
        for (const sender of senders) {
          const outcome = await sendBig({
            port,
            method: "POST",
            path: sender.path,
            headers: { ...auth, "Content-Type": sender.type },
            prefix: sender.prefix,
            totalBytes: 12 * MiB,
            chunked: round % 2 === 1,
          });
          outcomes.push(`${sender.path} ${outcome.status} ${outcome.status ? "" : outcome.error}`.trim());
          if (outcome.status === 413)
            expect(JSON.parse(outcome.body)).toMatchObject({ code: "payload_too_large" });
        }
      }
      expect(outcomes).toEqual(outcomes.map((o) => `${o.split(" ")[0]} 413`));
    });
  });
}
