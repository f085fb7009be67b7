/**
 * Compile-time checks of the typed command API that createMarketplace returns:
 * what an embedder may write and what it may not. `pnpm typecheck` compiles
 * this file (tsconfig.tests.json); nothing in it runs: every call sits in a
 * function that is never called, and vitest does not collect it.
 *
 * Each `@ts-expect-error` marks a call that must NOT compile. Were a command
 * type to loosen (back to `unknown`, or to accept a wire key), the directive
 * would have no error to expect and the typecheck would fail. Keep each such
 * call on the one line after its directive: the directive covers that line only.
 */
import type {
  Actor,
  ApiKey,
  CreatedApiKey,
  Credentials,
  DispatchReport,
  EnsuredAdmin,
  Listing,
  ListingLimit,
  ListingSearchPage,
  LogInResult,
  Marketplace,
  Message,
  MessagePage,
  NewListingInput,
  Page,
  Profile,
  SendMessageInput,
  UpdateListingInput,
  UserView,
} from "./index.js";

/** True when A and B are the same type (`any` equals nothing but `any`). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Compiles only when T is `true`. */
type Assert<T extends true> = T;
/** What a member of the marketplace resolves to. */
type Result<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;

/** The results are exactly the exported types: neither `any` nor a wider shape. */
export type ResultTypes = [
  Assert<Equal<Result<Marketplace["auth"]["signUp"]>, UserView>>,
  Assert<Equal<Result<Marketplace["auth"]["logIn"]>, LogInResult>>,
  Assert<Equal<Result<Marketplace["auth"]["authenticate"]>, Actor>>,
  Assert<Equal<Result<Marketplace["auth"]["me"]>, UserView | null>>,
  Assert<Equal<Result<Marketplace["auth"]["checkResetToken"]>, boolean>>,
  Assert<Equal<Result<Marketplace["auth"]["checkVerificationToken"]>, boolean>>,
  Assert<Equal<Result<Marketplace["listings"]["create"]>, Listing>>,
  Assert<Equal<Result<Marketplace["listings"]["search"]>, ListingSearchPage>>,
  Assert<Equal<Result<Marketplace["listings"]["get"]>, Listing>>,
  Assert<Equal<Result<Marketplace["listings"]["update"]>, Listing>>,
  Assert<Equal<Result<Marketplace["listings"]["delete"]>, void>>,
  Assert<Equal<Result<Marketplace["apiKeys"]["create"]>, CreatedApiKey>>,
  Assert<Equal<Result<Marketplace["apiKeys"]["list"]>, Page<ApiKey>>>,
  Assert<Equal<Result<Marketplace["messages"]["send"]>, Message>>,
  Assert<Equal<Result<Marketplace["messages"]["list"]>, MessagePage>>,
  Assert<Equal<Result<Marketplace["profiles"]["list"]>, Page<Profile>>>,
  Assert<Equal<Result<Marketplace["profiles"]["sync"]>, Profile>>,
  Assert<Equal<Result<Marketplace["profiles"]["isAdmin"]>, boolean>>,
  Assert<Equal<Result<Marketplace["profiles"]["getLimit"]>, ListingLimit>>,
  Assert<Equal<Result<Marketplace["profiles"]["postLimit"]>, ListingLimit>>,
  Assert<Equal<Result<Marketplace["admin"]["ensureAdmin"]>, EnsuredAdmin>>,
  Assert<Equal<Result<Marketplace["mail"]["dispatchDue"]>, DispatchReport>>,
  Assert<Equal<Parameters<Marketplace["auth"]["authenticate"]>, [credentials: Credentials]>>,
  Assert<Equal<Parameters<Marketplace["listings"]["update"]>[1], UpdateListingInput>>,
];

/** Calls an embedder may write: they compile, with the results typed. Never called. */
export async function commandsThatCompile(market: Marketplace, actor: Actor, id: string): Promise<void> {
  const user: UserView = await market.auth.signUp({ email: "a@example.com", password: "pw-123456" });
  const named: UserView = await market.auth.signUp({
    email: "b@example.com",
    password: "pw",
    displayName: "B",
  });
  const login: LogInResult = await market.auth.logIn({ email: user.email, password: "pw-123456" });
  const credentials: Credentials = { bearer: login.token };
  const caller: Actor = await market.auth.authenticate(credentials);
  const me: UserView | null = await market.auth.me(caller);
  await market.auth.requestPasswordReset({ email: named.email });
  await market.auth.updatePassword({ token: "t", newPassword: "new-password" });
  const usable: boolean = await market.auth.checkResetToken({ token: "t" });
  const verified: UserView = await market.auth.verifyEmail({ token: "t" });
  const pending: boolean = await market.auth.checkVerificationToken({ token: "t" });
  const renamed: UserView = await market.users.updateDisplayName(actor, { displayName: "New name" });

  const minimal: Listing = await market.listings.create(actor, {
    title: "Audit",
    description: "Two weeks.",
    category: "cybersecurity",
  });
  const full: NewListingInput = {
    title: "Audit",
    description: "Two weeks.",
    category: "data-analytics",
    price: "1250.50",
    condition: "new",
    images: ["https://img.example.com/a.png"],
    structuredData: { skills: ["sql"] },
    contactEmail: "sales@example.com",
    expiresAt: "2030-01-01T00:00:00Z",
  };
  const created: Listing = await market.listings.create(actor, full);
  const cleared: Listing = await market.listings.create(actor, { ...full, price: null, expiresAt: null });
  const page: Page<Listing> = await market.listings.search(actor, { userId: id, status: "all", limit: 5 });
  const next: Page<Listing> = await market.listings.search(actor, { cursor: page.nextCursor ?? undefined });
  const got: Listing = await market.listings.get({ id: created.id });
  await market.listings.recordView({ id });
  const updated: Listing = await market.listings.update(actor, { id, title: "Renamed", status: "paused" });
  const unset: Listing = await market.listings.update(actor, {
    id,
    contactEmail: null,
    structuredData: null,
  });
  await market.listings.delete(actor, { id });

  const key: CreatedApiKey = await market.apiKeys.create(actor, { name: "CI" });
  const unnamed: CreatedApiKey = await market.apiKeys.create(actor, {});
  const keys: Page<ApiKey> = await market.apiKeys.list(actor, { limit: "10" });
  await market.apiKeys.deactivate(actor, { id: key.apiKey.id });

  const message: Message = await market.messages.send(actor, {
    listingId: id,
    receiverId: id,
    content: "Hello",
    isAgent: true,
  });
  const asSender: Message = await market.messages.send(actor, {
    listingId: id,
    senderId: id,
    receiverId: id,
    content: "Hi",
  });
  const inbox: MessagePage = await market.messages.list(actor, { type: "sent", userId: id });

  const profiles: Page<Profile> = await market.profiles.list(actor, {});
  const synced: Profile = await market.profiles.sync(actor, {
    id,
    email: "c@example.com",
    accountType: "business",
  });
  const admin: boolean = await market.profiles.isAdmin({ userId: id });
  const limit: ListingLimit = await market.profiles.getLimit({ userId: id });
  const posted: ListingLimit = await market.profiles.postLimit(actor, { userId: id });

  const posts: Page<Listing> = await market.admin.listPosts(actor, { limit: 50 });
  const users: Page<UserView> = await market.admin.listUsers(actor, {});
  await market.admin.deletePost(actor, { postId: id });
  await market.admin.deleteUser(actor, { userId: id });
  const ensured: EnsuredAdmin = await market.admin.ensureAdmin({ email: "root@example.com", password: "pw" });

  const report: DispatchReport = await market.mail.dispatchDue();
  const batch: DispatchReport = await market.mail.dispatchDue({ batchSize: 5 });
  const now: Date = market.now();

  void [me, usable, verified, pending, renamed, minimal, cleared, next, got, updated, unset, unnamed, keys];
  void [message, asSender, inbox, profiles, synced, admin, limit, posted, posts, users, ensured, report];
  void [batch, now];
}

/** Calls that must not compile. Never called. */
export async function commandsThatDoNotCompile(market: Marketplace, actor: Actor, id: string): Promise<void> {
  const base = { title: "Audit", description: "Two weeks.", category: "cybersecurity" } as const;

  // A misspelt field.
  // @ts-expect-error `titel` is not a field of the command.
  await market.listings.create(actor, { titel: "x", description: "d", category: "cybersecurity" });
  // A wrong type.
  // @ts-expect-error price is a number or a numeric string, not an object.
  await market.listings.create(actor, { ...base, price: {} });
  // @ts-expect-error category is one of the ten categories.
  await market.listings.create(actor, { ...base, category: "plumbing" });
  // @ts-expect-error images is an array of URLs.
  await market.listings.create(actor, { ...base, images: "https://img.example.com/a.png" });
  // A missing required field.
  // @ts-expect-error title is required.
  await market.listings.create(actor, { description: "d", category: "cybersecurity" });
  // A snake_case wire key: the HTTP adapter translates those, the core never sees them.
  // @ts-expect-error structured_data is the wire's word; the command says structuredData.
  await market.listings.create(actor, { ...base, structured_data: { a: 1 } });
  // @ts-expect-error expires_at: the command says expiresAt.
  await market.listings.create(actor, { ...base, expires_at: "2030-01-01T00:00:00Z" });
  // An update without the id of the listing it changes.
  // @ts-expect-error id is required.
  await market.listings.update(actor, { title: "x" });
  // @ts-expect-error the id goes inside the command, not before it.
  await market.listings.update(actor, id, { title: "x" });
  // @ts-expect-error status is active or paused: expired is derived, never set.
  await market.listings.update(actor, { id, status: "expired" });

  // Ids are passed in objects.
  // @ts-expect-error listings.get takes { id }.
  await market.listings.get(id);
  // @ts-expect-error listings.recordView takes { id }.
  await market.listings.recordView(id);
  // @ts-expect-error listings.delete takes { id }.
  await market.listings.delete(actor, id);
  // @ts-expect-error apiKeys.deactivate takes { id }.
  await market.apiKeys.deactivate(actor, id);
  // @ts-expect-error admin.deletePost takes { postId }.
  await market.admin.deletePost(actor, id);
  // @ts-expect-error post_id: the command says postId.
  await market.admin.deletePost(actor, { post_id: id });
  // @ts-expect-error admin.deleteUser takes { userId }.
  await market.admin.deleteUser(actor, { user_id: id });
  // @ts-expect-error auth.checkResetToken takes { token }.
  await market.auth.checkResetToken("token");
  // @ts-expect-error auth.checkVerificationToken takes { token }.
  await market.auth.checkVerificationToken("token");

  // The other commands' wire keys and types.
  // @ts-expect-error display_name: the command says displayName.
  await market.auth.signUp({ email: "a@example.com", password: "pw-123456", display_name: "A" });
  // @ts-expect-error password is required.
  await market.auth.logIn({ email: "a@example.com" });
  // @ts-expect-error new_password: the command says newPassword.
  await market.auth.updatePassword({ token: "t", new_password: "new-password" });
  // @ts-expect-error display_name: the command says displayName.
  await market.users.updateDisplayName(actor, { display_name: "A" });
  const message: SendMessageInput = { listingId: id, receiverId: id, content: "Hello" };
  // @ts-expect-error listing_id: the command says listingId.
  await market.messages.send(actor, { listing_id: id, receiverId: id, content: "Hello" });
  // @ts-expect-error isAgent is a boolean.
  await market.messages.send(actor, { ...message, isAgent: "yes" });
  // @ts-expect-error content is required.
  await market.messages.send(actor, { listingId: id, receiverId: id });
  // @ts-expect-error user_id: the query says userId.
  await market.messages.list(actor, { user_id: id });
  // @ts-expect-error user_id: the query says userId.
  await market.listings.search(actor, { user_id: id });
  // @ts-expect-error account_type: the command says accountType.
  await market.profiles.sync(actor, { id, email: "a@example.com", account_type: "business" });
  // @ts-expect-error accountType is personal or business.
  await market.profiles.sync(actor, { id, email: "a@example.com", accountType: "enterprise" });
  // @ts-expect-error user_id: the query says userId.
  await market.profiles.getLimit({ user_id: id });
  // @ts-expect-error name is a string.
  await market.apiKeys.create(actor, { name: 5 });

  // @ts-expect-error capabilities moved to the HTTP adapter.
  market.meta.capabilities();
}
