/**
 * The listing and message operations a page form also performs: create (/post), edit and delete
 * (my listings), send a message and reply (inbox), search (the browse page's query). MCP takes
 * part wherever a tool stands for the operation.
 */
import fc from "fast-check";
import { expect } from "vitest";
import { call } from "../support/http.js";
import {
  allText,
  extraFields,
  hostileField,
  hostileText,
  numberText,
  orValid,
  wrongType,
} from "./hostile.js";
import {
  type Answer,
  accepted,
  api,
  encode,
  encodeFields,
  mcp,
  openForm,
  page,
  postForm,
  submit,
} from "./wire.js";
import { asText, CATEGORY, expectAlike, isBlank, newListing, surfaceCase, type World } from "./world.js";

const listingFields = fc.record({
  title: orValid(fc.constantFrom("Data audit", "  Data audit  "), hostileField()),
  description: orValid(fc.constantFrom("We audit data platforms.", "a".repeat(19_999)), hostileField()),
  category: orValid(fc.constant(CATEGORY), hostileField()),
  condition: orValid(fc.constant(""), hostileField()),
  contact_email: orValid(fc.constantFrom("", "sales@acme.io"), hostileField()),
  price: fc.option(fc.oneof({ weight: 3, arbitrary: numberText }, { weight: 1, arbitrary: wrongType })),
  extra: extraFields,
});
type ListingFields = typeof listingFields extends fc.Arbitrary<infer T> ? T : never;

/** The form's fields: every listing field present, a blank one meaning none. */
const formOf = ({ extra, price, ...fields }: ListingFields): Record<string, string> => ({
  ...extra,
  ...Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, asText(value)])),
  price: price === null ? "" : asText(price),
  expires_at: "",
  images: "",
});

/** The JSON command a form's fields mean (create: a blank condition takes the default; edit: it is cleared). */
function bodyOf({ extra, ...f }: ListingFields, edit: boolean): Record<string, unknown> {
  const condition = edit || !isBlank(f.condition) ? { condition: f.condition } : {};
  return {
    ...extra,
    title: f.title,
    description: f.description,
    category: f.category,
    price: f.price,
    ...condition,
    contact_email: isBlank(f.contact_email) ? null : f.contact_email,
    images: [],
    expires_at: null,
  };
}

const textual = (f: ListingFields) =>
  allText([f.title, f.description, f.category, f.condition, f.contact_email, f.price ?? ""]);

/** Whether the listing is there, asked over the API. */
async function exists(base: string, id: string): Promise<boolean> {
  const reply = await call(base, "GET", `/api/listings/${id}`);
  expect([200, 404], `GET listing ${id}`).toContain(reply.status);
  return reply.status === 200;
}

const create = surfaceCase("create a listing (/post)", listingFields, async (w, fields) => {
  const { author } = w;
  const form = formOf(fields);
  const onPage = await submit(w.base, author.web, { page: "/post", action: "/post" }, form);
  const body = bodyOf(fields, false);
  const overApi = await api(w.base, "POST", "/api/listings", { apiKey: author.apiKey, body });
  const overMcp = await mcp(w.base, author.apiKey, "create_listing", body);
  return expectAlike("create", fields, {
    page: textual(fields) ? accepted(onPage) : undefined,
    api: overApi,
    mcp: overMcp,
  });
});

const whose = fc.constantFrom("own", "own", "own", "other's");

const edit = surfaceCase(
  "edit a listing (my listings)",
  fc.record({ whose, fields: listingFields }),
  async (w, { whose, fields }) => {
    const target = (own: string) => (whose === "own" ? own : w.owner.listingId);
    const id = target(w.edited.page);
    // The token comes from the author's own edit page: another's is not shown to them.
    const from = { page: `/my/listings/${w.edited.page}/edit`, action: `/my/listings/${w.edited.page}/edit` };
    const onPage = await submit(w.base, w.author.web, from, formOf(fields), `/my/listings/${id}/edit`);
    const body = bodyOf(fields, true);
    const apiId = target(w.edited.api);
    const overApi = await api(w.base, "PATCH", `/api/listings/${apiId}`, { apiKey: w.author.apiKey, body });
    const mcpId = target(w.edited.mcp);
    const overMcp = await mcp(w.base, w.author.apiKey, "update_listing", { ...body, id: mcpId });
    return expectAlike(`edit ${whose}`, fields, {
      page: textual(fields) ? accepted(onPage) : undefined,
      api: overApi,
      mcp: overMcp,
    });
  },
);

/** A listing to delete: a fresh one of the author's, the owner's, or a hostile path segment. */
const doomed = fc.oneof(fc.constantFrom("own", "other's"), hostileText(8_000));

const remove = surfaceCase("delete a listing (my listings)", doomed, async (w, target) => {
  const ids = async () => {
    if (target === "own") return [await newListing(w.base, w.author), await newListing(w.base, w.author)];
    return target === "other's" ? [w.owner.listingId, w.owner.listingId] : [target, target];
  };
  const [pageId = "", apiId = ""] = await ids();
  const mcpId = target === "own" ? await newListing(w.base, w.author) : apiId;
  // A form's token is bound to the session, not to one form: any page's will do.
  const from = { page: "/account", action: "/account/profile" };
  await submit(w.base, w.author.web, from, {}, `/my/listings/${encode(pageId)}/delete`);
  const overApi = await api(w.base, "DELETE", `/api/listings/${encode(apiId)}`, { apiKey: w.author.apiKey });
  const overMcp = await mcp(w.base, w.author.apiKey, "delete_listing", { id: mcpId });
  if (target === "own" || target === "other's") {
    const left = [await exists(w.base, pageId), await exists(w.base, apiId), await exists(w.base, mcpId)];
    expect(left, `after deleting ${target}: [page, API, MCP] still there`).toEqual(
      Array(3).fill(target !== "own"),
    );
  }
  expect(await exists(w.base, w.owner.listingId), "the owner's listing survives").toBe(true);
  // The page reports a listing already gone as deleted (a form sent twice), so only MCP is held
  // to the API's error; "", "." and ".." are no path segment, so the API's URL names another route.
  const segment = !["", ".", ".."].includes(target);
  return expectAlike("delete", target, { api: overApi, mcp: segment ? overMcp : undefined });
});

const message = surfaceCase(
  "send a message (listing page)",
  fc.record({ content: hostileField(), extra: extraFields }),
  async (w, { content, extra }) => {
    const listing = w.owner.listingId;
    const from = { page: `/listings/${listing}`, action: `/listings/${listing}/messages` };
    const onPage = await submit(w.base, w.author.web, from, { ...extra, content: asText(content) });
    const body = { ...extra, listing_id: listing, receiver_id: w.owner.id, content };
    const overApi = await api(w.base, "POST", "/api/messages", { apiKey: w.author.apiKey, body });
    const overMcp = await mcp(w.base, w.author.apiKey, "send_message", body);
    return expectAlike("message", content, {
      page: typeof content === "string" ? accepted(onPage) : undefined,
      api: overApi,
      mcp: overMcp,
    });
  },
);

/** The owner answers the author: about the owner's listing, the author's, a stranger's, none. */
const replyFields = (w: World) =>
  fc.record({
    listing_id: orValid(
      fc.constantFrom(w.owner.listingId, w.author.listingId),
      fc.oneof(fc.constantFrom(w.stranger.listingId, "0190a3b4-5c6d-7e8f-9012-3456789abcde"), hostileField()),
    ),
    receiver_id: orValid(fc.constant(w.author.id), fc.oneof(fc.constant(w.owner.id), hostileField())),
    content: orValid(fc.constant("Yes, March is free."), hostileField()),
  });

const reply = surfaceCase("reply (inbox)", replyFields, async (w, fields) => {
  const form = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, asText(value)]));
  const onPage = await submit(w.base, w.owner.web, { page: "/inbox", action: "/inbox/reply" }, form);
  const overApi = await api(w.base, "POST", "/api/messages", { apiKey: w.owner.apiKey, body: fields });
  const overMcp = await mcp(w.base, w.owner.apiKey, "send_message", fields);
  return expectAlike("reply", fields, {
    page: allText(Object.values(fields)) ? accepted(onPage) : undefined,
    api: overApi,
    mcp: overMcp,
  });
});

const search = surfaceCase("search (the browse page's query)", hostileText(8_000), async (w, q) => {
  const onPage = await page(w.base, { cookie: "" }, `/?${encodeFields({ q })}`);
  const overApi = await api(w.base, "GET", `/api/listings?${encodeFields({ search: q })}`);
  const overMcp = await mcp(w.base, w.author.apiKey, "search_listings", { search: q });
  return expectAlike("search", q, { page: onPage.status < 400, api: overApi, mcp: overMcp });
});

/** What a create sent twice under one key, then that key with another title, came to on one surface. */
export interface KeyedCreates {
  /** "one listing" when both copies named the same listing. */
  copies: string;
  /** The answer to the key reused with other content: a status for the page, an outcome otherwise. */
  reuse: number | string | undefined;
}

const listingId = (answer: Answer) => (answer.body as { listing?: { id?: unknown } } | null)?.listing?.id;

function sameTwice(answers: Answer[], named: (answer: Answer) => unknown): string {
  const [first, second] = answers.map(named);
  return typeof first === "string" && first === second ? "one listing" : `${first} then ${second}`;
}

/** A create sent twice under one key (the page's: its form's token), then the key with another title. */
export async function keyedCreates(w: World): Promise<Record<"page" | "api" | "mcp", KeyedCreates>> {
  const titles = (surface: string) => [`Keyed ${surface}`, `Keyed ${surface}`, `Other ${surface}`];
  const fields = (title: string) => ({ title, description: "Sent twice", category: CATEGORY });
  const form = await openForm(w.base, w.author.web, { page: "/post", action: "/post" });
  const onPage: Answer[] = [];
  const overApi: Answer[] = [];
  const overMcp: Answer[] = [];
  for (const title of titles("page")) onPage.push(await postForm(w.base, form, "/post", fields(title)));
  for (const title of titles("API")) {
    const headers = { "Idempotency-Key": "contract-api" };
    overApi.push(
      await api(w.base, "POST", "/api/listings", { apiKey: w.author.apiKey, body: fields(title), headers }),
    );
  }
  for (const title of titles("MCP")) {
    const args = { ...fields(title), idempotency_key: "contract-mcp" };
    overMcp.push(await mcp(w.base, w.author.apiKey, "create_listing", args));
  }
  return {
    page: { copies: sameTwice(onPage, (answer) => answer.location), reuse: onPage[2]?.status },
    api: { copies: sameTwice(overApi, listingId), reuse: overApi[2]?.outcome },
    mcp: { copies: sameTwice(overMcp, listingId), reuse: overMcp[2]?.outcome },
  };
}

/** Every listing and message case, in the order they run. */
export const listingCases = [create, edit, remove, message, reply, search];
