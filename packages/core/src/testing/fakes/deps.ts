import type { Deps, Settings } from "../../deps.js";
import { DEFAULT_SLOTS } from "../../domain/limits.js";
import { createHmacUrlSigner } from "../../support/hmac-url-signer.js";
import { createJwtTokenService } from "../../support/jwt-token-service.js";
import { webCryptoRandom } from "../../support/runtime.js";
import { createUuidV7Generator } from "../../support/uuid-v7.js";
import { createMemoryStorage } from "../memory/storage.js";
import { createTestClock, type TestClock } from "./clock.js";
import { createStubDocumentParser, type StubDocumentParser } from "./document-parser.js";
import { createFakeHasher, type FakeHasher } from "./hasher.js";
import { createRecordingMailer, type RecordingMailer } from "./mailer.js";
import { createSequentialRandom } from "./random.js";
import { createFakeWebhookTransport, type FakeWebhookTransport } from "./webhook-transport.js";

/** The fakes createTestDeps puts in place of the real adapters. */
export interface TestFakes {
  clock: TestClock;
  hasher: FakeHasher;
  mailer: RecordingMailer;
  documents: StubDocumentParser;
  webhookTransport: FakeWebhookTransport;
}

/** Replacements for createTestDeps; `settings` is merged over the defaults. */
export type TestDepsOverrides = Partial<Omit<Deps, "settings">> & { settings?: Partial<Settings> };

/** Deps whose fakes keep their test types, except those the caller replaced. */
export type TestDeps<O extends TestDepsOverrides = Record<never, never>> = Deps & Omit<TestFakes, keyof O>;

/** The HS256 secret of test tokens. */
export const TEST_JWT_SECRET = "test-secret-at-least-32-bytes-long!!";

/**
 * Deps for a use-case test: fresh in-memory repositories, a manual clock,
 * fake hasher, recording mailer, stub parser, real JWTs and UUIDv7 ids.
 */
export function createTestDeps<O extends TestDepsOverrides = Record<never, never>>(
  overrides?: O,
): TestDeps<O> {
  const { settings, ...given }: TestDepsOverrides = overrides ?? {};
  // An override spelled `key: undefined` keeps the default rather than erasing it.
  const ports: Partial<Deps> = Object.fromEntries(
    Object.entries(given).filter(([, port]) => port !== undefined),
  );
  const clock = ports.clock ?? createTestClock();
  return {
    repos: createMemoryStorage().repositories,
    hasher: createFakeHasher(),
    mailer: createRecordingMailer(),
    documents: createStubDocumentParser(),
    webhookTransport: createFakeWebhookTransport(),
    urlSigner: createHmacUrlSigner(new TextEncoder().encode(TEST_JWT_SECRET)),
    tokens: createJwtTokenService(TEST_JWT_SECRET, clock),
    ids: createUuidV7Generator(webCryptoRandom),
    random: createSequentialRandom(),
    ...ports,
    clock,
    settings: {
      securityMode: "strict",
      slots: { ...DEFAULT_SLOTS },
      publicUrl: "http://localhost:3000",
      requireVerifiedEmail: false,
      ...settings,
    },
  } as TestDeps<O>;
}
