import { describe, expect, it } from "vitest";
import { MailDeliveryError } from "../ports/mailer.js";
import { uuidV7Time } from "../support/uuid-v7.js";
import { buildListing, buildUser, testId } from "./builders.js";
import { createTestClock } from "./fakes/clock.js";
import { createTestDeps } from "./fakes/deps.js";
import { createStubDocumentParser } from "./fakes/document-parser.js";
import { createFakeHasher, TEST_PASSWORD } from "./fakes/hasher.js";
import { createRecordingMailer } from "./fakes/mailer.js";
import { createSequentialRandom } from "./fakes/random.js";

const mail = {
  kind: "password_reset",
  to: "a@example.com",
  displayName: "A",
  resetUrl: "u",
  expiresInMinutes: 60,
} as const;

describe("test fakes", () => {
  it("the clock starts at 2026-01-01 and moves only when told", () => {
    const clock = createTestClock();
    expect(clock.now().toISOString()).toBe("2026-01-01T00:00:00.000Z");
    clock.advance(1500);
    expect(clock.now().toISOString()).toBe("2026-01-01T00:00:01.500Z");
    clock.set(new Date("2027-05-05T05:05:05.005Z"));
    expect(clock.now().toISOString()).toBe("2027-05-05T05:05:05.005Z");
  });

  it("the hasher verifies its own hashes, counts calls, records purposes and flags old$ for rehash", async () => {
    const hasher = createFakeHasher();
    const hash = await hasher.hash("secret");
    expect(await hasher.verify(hash, "secret")).toBe(true);
    expect(await hasher.verify(hash, "Secret")).toBe(false);
    expect(await hasher.verify("garbage", "secret")).toBe(false);
    expect(hasher.calls).toEqual({ hash: 1, verify: 3 });
    expect(await hasher.verify(hash, "secret", "confirm")).toBe(true);
    expect(hasher.purposes).toEqual(["login", "login", "login", "confirm"]);
    const old = hash.replace(/^fake\$/, "old$");
    expect(await hasher.verify(old, "secret")).toBe(true);
    expect([hasher.needsRehash(hash), hasher.needsRehash(old)]).toEqual([false, true]);
    expect(await hasher.verify(buildUser().passwordHash ?? "", TEST_PASSWORD)).toBe(true);
  });

  it("the mailer records sends and fails the next ones on request", async () => {
    const mailer = createRecordingMailer();
    mailer.failNext(2, { permanent: true });
    await expect(mailer.send(mail)).rejects.toMatchObject({ name: "MailDeliveryError", permanent: true });
    await expect(mailer.send(mail)).rejects.toBeInstanceOf(MailDeliveryError);
    await mailer.send(mail);
    mailer.failNext(1);
    await expect(mailer.send(mail)).rejects.toMatchObject({ permanent: false });
    expect(mailer.sent).toEqual([mail]);
  });

  it("the stub parser answers its fixed result with fields and records inputs", async () => {
    const parser = createStubDocumentParser({ title: "Custom", price: null });
    const input = { bytes: new Uint8Array([1, 2]), filename: "a.txt" };
    const parsed = await parser.parse(input);
    expect(parsed).toMatchObject({ title: "Custom", price: null, category: "data-analytics", kind: "text" });
    expect(parsed.fields.title.value).toBe("Custom");
    expect(parsed.fields.price.value).toBeNull();
    expect(parser.inputs).toEqual([input]);
  });

  it("the sequential random source repeats per seed", () => {
    expect(createSequentialRandom().bytes(16)).toEqual(createSequentialRandom().bytes(16));
    expect(createSequentialRandom(1).bytes(16)).not.toEqual(createSequentialRandom(2).bytes(16));
  });

  it("createTestDeps wires fakes, real tokens and merged settings", async () => {
    const deps = createTestDeps({ settings: { securityMode: "legacy" } });
    expect(deps.settings).toEqual({
      securityMode: "legacy",
      slots: { personal: 5, business: 50, admin: 1000 },
      publicUrl: "http://localhost:3000",
      requireVerifiedEmail: false,
    });
    const token = await deps.tokens.issue({ sub: "u", email: "e@example.com", isAdmin: false, version: 0 });
    expect(await deps.tokens.verify(token)).toMatchObject({ sub: "u", version: 0 });
    deps.clock.advance(8 * 24 * 3600 * 1000);
    expect(await deps.tokens.verify(token)).toBeNull();
    expect(uuidV7Time(deps.ids.newId(deps.clock.now()))).toBe(deps.clock.now().getTime());
    expect(await deps.repos.users.list({ limit: 1 })).toEqual([]);
  });

  it("builders make ids for the given time that still increase in build order", () => {
    const at = new Date("2026-01-01T00:00:00.000Z");
    const [a, b] = [buildListing({ createdAt: at }), buildListing({ createdAt: at })];
    expect(uuidV7Time(a.id)).toBe(at.getTime());
    expect(a.id < b.id).toBe(true);
    const earlier = testId(new Date(at.getTime() - 1000));
    expect(uuidV7Time(earlier)).toBe(at.getTime() - 1000);
    expect(earlier < a.id).toBe(true);
  });
});
