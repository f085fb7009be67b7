/** @psm/core/testing: in-memory storage, fakes, builders and the storage contract suite. */

export {
  adversarialTerms,
  adversarialWords,
  REPORTED_TERMS,
  seededRandom,
  trigramWalk,
} from "./adversarial-terms.js";
export { buildApiKey, buildListing, buildMessage, buildSavedSearch, buildUser, testId } from "./builders.js";
export { adversarialListings, expectAdversarialSearchAgrees } from "./contract/adversarial-search.js";
export { type BoundedFind, expectBoundedFindAgrees, seedSparse } from "./contract/bounded-find.js";
export { type ContractOptions, runRepositoryContract } from "./contract/index.js";
export { expectUpgradedKeyWorks } from "./contract/upgraded-api-key.js";
export { createTestClock, TEST_EPOCH, type TestClock } from "./fakes/clock.js";
export {
  createTestDeps,
  TEST_JWT_SECRET,
  type TestDeps,
  type TestDepsOverrides,
  type TestFakes,
} from "./fakes/deps.js";
export { createStubDocumentParser, type StubDocumentParser } from "./fakes/document-parser.js";
export { createFakeHasher, type FakeHasher, fakeHash, TEST_PASSWORD } from "./fakes/hasher.js";
export { createRecordingMailer, type RecordingMailer } from "./fakes/mailer.js";
export { createSequentialRandom } from "./fakes/random.js";
export { createFakeWebhookTransport, type FakeWebhookTransport } from "./fakes/webhook-transport.js";
export { createMemoryStorage } from "./memory/storage.js";
