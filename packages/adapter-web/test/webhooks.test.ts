import { type Actor, MAX_WEBHOOKS_PER_USER } from "@psm/core";
import { describe, expect, it } from "vitest";
import { h1, type LogLine, type Member, type Page, webHarness } from "./harness.js";

const HOOK = "https://hooks.example.com/psm";
const FORM = { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:3000" };
const HOUR_MS = 60 * 60 * 1000;

/** The secret a page shows once, or undefined. */
function secretOf(html: string): string | undefined {
  return /id="new-secret"[^>]*value="(whsec_[A-Za-z0-9+/=]+)"/.exec(html)?.[1];
}

/** The text of the page's error beside `field`, or undefined. */
function fieldError(html: string, field: string): string | undefined {
  const found = new RegExp(`id="${field}-error"><span class="visually-hidden">Error: </span>([^<]*)<`).exec(
    html,
  );
  return found?.[1];
}

/** The page's rows of deliveries, as the text of their cells. */
function deliveryRows(html: string): string[][] {
  const table = /<th scope="col">Event id<\/th>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1] ?? "";
  return [...table.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...(row[1] ?? "").matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) =>
      (cell[1] ?? "").replace(/<[^>]+>/g, "").trim(),
    ),
  );
}

async function hooksOf(h: ReturnType<typeof webHarness>, actor: Actor) {
  return (await h.m.webhooks.list(actor, { limit: 100 })).items;
}

/** A member with one webhook made through the page, and its page. */
async function withWebhook(h: ReturnType<typeof webHarness>, member?: Member) {
  const { browser, actor } = member ?? (await h.signedIn());
  const made = await browser.submit(await browser.get("/account/webhooks"), "/account/webhooks", {
    url: HOOK,
    "type.message.received": "yes",
  });
  expect(made.status, made.html.slice(0, 500)).toBe(201);
  const [webhook] = await hooksOf(h, actor);
  if (!webhook) throw new Error("no webhook made");
  const path = `/account/webhooks/${webhook.id}`;
  return { browser, actor, webhook, path, secret: secretOf(made.html) ?? "", page: await browser.get(path) };
}

describe("webhooks page: create", () => {
  it("explains webhooks, creates one, shows its secret once with a copy button, and lists it", async () => {
    const logs: LogLine[] = [];
    const h = webHarness({ logs });
    const { browser, actor } = await h.signedIn();
    const account = await browser.get("/account");
    expect(account.html).toContain('<a href="/account/webhooks">webhooks</a>');
    const page = await browser.get("/account/webhooks");
    expect(page.status).toBe(200);
    expect(h1(page.html)).toBe("Webhooks");
    expect(page.html).toContain("Standard Webhooks</a>");
    expect(page.html).toContain('<a href="/docs">API documentation</a>');
    expect(page.html).toContain("You have no webhooks.");
    // One labelled box per type a webhook may receive; never webhook.test.
    expect(page.html).toContain('<label for="type-message-received"><code>message.received</code></label>');
    expect(page.html).toContain('name="type.saved_search.matched"');
    expect(page.html).not.toContain('name="type.webhook.test"');
    expect(page.html).toMatch(/<input[^>]*id="url"[^>]*type="url"/);

    const shown = await browser.submit(page, "/account/webhooks", {
      url: HOOK,
      "type.message.received": "yes",
      "type.listing.created": "yes",
      description: "CRM inbox",
    });
    expect(shown.status).toBe(201);
    expect(shown.location).toBeNull();
    expect(shown.headers.get("cache-control")).toBe("no-store");
    expect(shown.html).toContain("Your webhook is created.");
    expect(shown.html).toContain('data-copy="new-secret"');
    expect(shown.html).toContain("this is the only time it is shown");
    const secret = secretOf(shown.html) ?? "";
    expect(secret).toMatch(/^whsec_/);
    const [stored] = await hooksOf(h, actor);
    expect(stored?.url).toBe(HOOK);
    expect(stored?.types).toEqual(["listing.created", "message.received"]);
    expect(stored?.description).toBe("CRM inbox");
    expect(stored?.secrets[0]?.value).toBe(secret);
    expect(shown.html).toContain(`<a href="/account/webhooks/${stored?.id}">Open its page</a>`);
    // Never in a cookie or a log line.
    for (const line of shown.headers.getSetCookie()) expect(line).not.toContain(secret.slice(6));
    expect(JSON.stringify(logs)).not.toContain(secret.slice(6));

    const listed = await browser.get("/account/webhooks");
    expect(listed.html).not.toContain(secret);
    expect(listed.html).toContain(`href="/account/webhooks/${stored?.id}">${HOOK}</a>`);
    expect(listed.html).toContain(
      "<li><code>listing.created</code></li><li><code>message.received</code></li>",
    );
    expect(listed.html).toContain("CRM inbox");
    expect(listed.html).toContain('<span class="badge badge-active">Enabled</span>');

    // The same form again: no second webhook, and no secret; it is told the webhook exists.
    const resent = await browser.submit(page, "/account/webhooks", {
      url: HOOK,
      "type.message.received": "yes",
      "type.listing.created": "yes",
      description: "CRM inbox",
    });
    expect(resent.status).toBe(303);
    expect(secretOf(resent.html)).toBeUndefined();
    const told = await browser.follow(resent);
    expect(told.html).toContain("This form already created your webhook");
    expect(told.html).not.toContain(secret);
    expect(await hooksOf(h, actor)).toHaveLength(1);
  });

  it("refuses a forbidden URL, an invalid one and no type beside the fields, making nothing", async () => {
    const h = webHarness();
    const { browser, actor } = await h.signedIn();
    const page = await browser.get("/account/webhooks");
    for (const url of ["http://127.0.0.1:8080/hook", "http://169.254.169.254/latest", "http://localhost/x"]) {
      const refused = await browser.submit(page, "/account/webhooks", {
        url,
        "type.listing.deleted": "yes",
        description: "kept",
      });
      expect(refused.status).toBe(400);
      expect(fieldError(refused.html, "url")).toContain(
        "private, loopback, link-local and metadata addresses (such as 127.0.0.1",
      );
      expect(refused.html).toContain('<a href="#url">URL may not receive webhooks');
      // What was typed and ticked is kept.
      expect(refused.html).toContain(`value="${url}"`);
      expect(refused.html).toContain('value="kept"');
      expect(refused.html).toMatch(/id="type-listing-deleted"[^>]*checked/);
      expect(secretOf(refused.html)).toBeUndefined();
    }
    // Both problems of one form are told at once.
    const both = await browser.submit(page, "/account/webhooks", { url: "not a url" });
    expect(both.status).toBe(400);
    expect(fieldError(both.html, "url")).toBe("URL must be an absolute URL");
    expect(fieldError(both.html, "types")).toBe("Event types must name at least one event type");
    // The summary's link reaches the first box of the group, which a browser can focus.
    expect(both.html).toContain('<a href="#type-listing-created">Event types must name');
    expect(both.html).toMatch(/<fieldset id="types"[^>]*aria-describedby="types-hint types-error"/);
    const crafted = await browser.submit(page, "/account/webhooks", {
      url: HOOK,
      "type.webhook.test": "yes",
    });
    expect(crafted.status).toBe(400);
    expect(fieldError(crafted.html, "types")).toBe("Event types must each be one of those listed");
    expect(await hooksOf(h, actor)).toEqual([]);

    // The corrected form (the same token) makes its webhook.
    const fixed = await browser.submit(page, "/account/webhooks", {
      url: HOOK,
      "type.listing.deleted": "yes",
    });
    expect(fixed.status).toBe(201);
    expect((await hooksOf(h, actor)).map((w) => w.types)).toEqual([["listing.deleted"]]);
  });

  it(`refuses an eleventh webhook: at most ${MAX_WEBHOOKS_PER_USER}`, async () => {
    const h = webHarness();
    const { browser, actor } = await h.signedIn();
    for (let i = 0; i < MAX_WEBHOOKS_PER_USER; i++) {
      await h.m.webhooks.create(actor, { url: `${HOOK}/${i}`, types: ["listing.created"] });
    }
    const page = await browser.get("/account/webhooks");
    expect(page.html).toContain("You have 10 webhooks, the most you may have");
    const refused = await browser.submit(page, "/account/webhooks", {
      url: `${HOOK}/11`,
      "type.listing.created": "yes",
    });
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('<a href="#limit">You already have 10 webhooks');
    expect(refused.html).toMatch(/<p class="field-error" id="limit">.*delete one to create another/);
    expect(await hooksOf(h, actor)).toHaveLength(MAX_WEBHOOKS_PER_USER);
  });
});

describe("a webhook's page", () => {
  it("shows its settings and saves an edit; a forbidden URL is refused beside the field", async () => {
    const h = webHarness();
    const { browser, actor, path, page } = await withWebhook(h);
    expect(page.status).toBe(200);
    expect(h1(page.html)).toBe("Webhook");
    expect(page.html).toContain(`<dd class="webhook-url">${HOOK}</dd>`);
    expect(page.html).toContain("No deliveries yet");
    // The edit form starts from what is stored.
    expect(page.html).toMatch(/id="type-message-received"[^>]*checked/);
    expect(page.html).not.toMatch(/id="type-listing-created"[^>]*checked/);

    const refused = await browser.submit(page, `${path}/edit`, {
      url: "http://127.0.0.1/x",
      "type.listing.updated": "yes",
    });
    expect(refused.status).toBe(400);
    expect(fieldError(refused.html, "url")).toContain("are not allowed");
    expect(refused.html).toMatch(/id="type-listing-updated"[^>]*checked/);

    const saved = await browser.submit(page, `${path}/edit`, {
      url: "https://other.example.com/in",
      "type.listing.updated": "yes",
      "type.listing.deleted": "yes",
      description: "Ops",
    });
    expect(saved.location).toBe(path);
    const after = await browser.follow(saved);
    expect(after.html).toContain("Your changes to the webhook are saved.");
    expect(after.html).toContain('<dd class="webhook-url">https://other.example.com/in</dd>');
    const [stored] = await hooksOf(h, actor);
    expect(stored?.url).toBe("https://other.example.com/in");
    expect(stored?.types).toEqual(["listing.updated", "listing.deleted"]);
    expect(stored?.description).toBe("Ops");
  });

  it("turns off and on, and tells who turned it off and why", async () => {
    const h = webHarness();
    const { browser, actor, path, page } = await withWebhook(h);
    expect(page.html).toContain(`action="${path}/test"`);
    const off = await browser.submit(page, `${path}/enabled`, { enabled: "false" });
    const offPage = await browser.follow(off);
    expect(offPage.html).toContain("The webhook is off");
    expect(offPage.html).toContain('<span class="badge badge-paused">Off by you</span>');
    // No test of a webhook that is off; the button turns it on.
    expect(offPage.html).not.toContain(`action="${path}/test"`);
    expect(offPage.html).toMatch(/name="enabled" value="true"/);
    expect((await browser.get("/account/webhooks")).html).toContain("Off by you");
    expect((await hooksOf(h, actor))[0]?.enabled).toBe(false);

    const on = await browser.submit(offPage, `${path}/enabled`, { enabled: "true" });
    expect((await browser.follow(on)).html).toContain('<span class="badge badge-active">Enabled</span>');
    expect((await hooksOf(h, actor))[0]?.enabled).toBe(true);

    // A receiver that answers 410 turns it off: the page gives the relay's reason.
    h.deps.webhookTransport.answer({ kind: "gone", status: 410 });
    await h.m.webhooks.test(actor, { id: (await hooksOf(h, actor))[0]?.id ?? "" });
    await h.m.webhooks.relay();
    const gone = await browser.get(path);
    expect(gone.html).toContain(
      '<span class="badge badge-expired">Turned off</span><span class="state-reason">: The receiver answered 410 Gone</span>',
    );
    expect((await browser.get("/account/webhooks")).html).toContain("The receiver answered 410 Gone");
  });

  it("sends a test event once per form, and the log shows its delivery", async () => {
    const h = webHarness();
    const { browser, path, page } = await withWebhook(h);
    const sent = await browser.submit(page, `${path}/test`);
    expect(sent.location).toBe(path);
    expect((await browser.follow(sent)).html).toContain("A test event is on its way");
    // A resent form writes no second event.
    await browser.submit(page, `${path}/test`);
    await h.m.webhooks.relay();
    expect(h.deps.webhookTransport.sent).toHaveLength(1);
    const eventId = h.deps.webhookTransport.sent[0]?.id ?? "";
    expect(eventId).toMatch(/^evt_/);

    const log = await browser.get(path);
    expect(deliveryRows(log.html)).toEqual([
      ["1 Jan 2026, 00:00 UTC", "webhook.test", eventId, "Succeeded", "1", "200", "—None"],
    ]);
  });

  it("rotates the secret: shown once, the old one signing 24 hours more", async () => {
    const h = webHarness();
    const { browser, actor, path, page, secret } = await withWebhook(h);
    expect(page.html).toContain("One secret signs each delivery.");
    const rotated = await browser.submit(page, `${path}/rotate`);
    expect(rotated.status).toBe(201);
    expect(rotated.location).toBeNull();
    expect(rotated.headers.get("cache-control")).toBe("no-store");
    expect(rotated.html).toContain("The webhook’s secret is rotated.");
    const fresh = secretOf(rotated.html) ?? "";
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(secret);
    expect(rotated.html).toContain("The old secret keeps signing beside it for 24 hours, until");
    expect(rotated.html).toContain("2 Jan 2026, 00:00 UTC");
    for (const line of rotated.headers.getSetCookie()) expect(line).not.toContain(fresh.slice(6));
    const [stored] = await hooksOf(h, actor);
    expect(stored?.secrets.map((s) => s.value)).toEqual([fresh, secret]);

    // Shown once: the page again has no value; a resent form rotates nothing.
    const again = await browser.get(path);
    expect(again.html).not.toContain(fresh);
    expect(again.html).toContain("the previous secret also signs until");
    const resent = await browser.submit(page, `${path}/rotate`);
    expect(resent.status).toBe(303);
    expect(secretOf(resent.html)).toBeUndefined();
    expect((await browser.follow(resent)).html).toContain("This form already rotated the secret");
    expect((await hooksOf(h, actor))[0]?.secrets.map((s) => s.value)).toEqual([fresh, secret]);
  });

  it("replays the events since the chosen time, counted from the marketplace's clock", async () => {
    const h = webHarness();
    const { browser, actor, webhook, path, page } = await withWebhook(h);
    expect(page.html).toContain('<option value="3600" selected="">The last hour</option>');
    await h.m.webhooks.test(actor, { id: webhook.id });
    await h.m.webhooks.relay();
    h.deps.clock.advance(2 * HOUR_MS);

    const hour = await browser.submit(page, `${path}/replay`, { since_seconds: "3600" });
    expect((await browser.follow(hour)).html).toContain(
      "No events of this webhook’s types happened since then.",
    );
    const form = await browser.get(path);
    const day = await browser.submit(form, `${path}/replay`, { since_seconds: "86400" });
    expect((await browser.follow(day)).html).toContain("1 event is queued to be delivered again.");
    await h.m.webhooks.relay();
    const sent = h.deps.webhookTransport.sent;
    expect(sent).toHaveLength(2);
    expect(sent[1]?.id).toBe(sent[0]?.id);
    expect(deliveryRows((await browser.get(path)).html)).toHaveLength(2);

    const crafted = await browser.submit(await browser.get(path), `${path}/replay`, { since_seconds: "99" });
    expect((await browser.follow(crafted)).html).toContain("Choose from the list how far back to replay.");
  });

  it("pages through the delivery log, newest first", async () => {
    const h = webHarness();
    const { browser, actor, webhook, path } = await withWebhook(h);
    const events: string[] = [];
    for (let i = 0; i < 23; i++) {
      events.push((await h.m.webhooks.test(actor, { id: webhook.id })).eventId);
      h.deps.clock.advance(1000);
    }
    await h.m.webhooks.relay({ fanOutBatch: 100, batchSize: 0 });
    const first = await browser.get(path);
    const rows = deliveryRows(first.html);
    expect(rows).toHaveLength(20);
    expect(rows.map((row) => row[2])).toEqual(events.slice(3).reverse());
    const next = /href="([^"]*\?cursor=[^"]+)" rel="next">Older deliveries/.exec(first.html)?.[1] ?? "";
    expect(next).toContain(path);
    const second = await browser.get(next.replaceAll("&amp;", "&"));
    expect(deliveryRows(second.html).map((row) => row[2])).toEqual(events.slice(0, 3).reverse());
    expect(second.html).not.toContain('rel="next"');
  });

  it("deletes after a confirmation step", async () => {
    const h = webHarness();
    const { browser, actor, path, page } = await withWebhook(h);
    expect(page.html).toContain(`<a class="button button-danger" href="${path}/delete">Delete webhook</a>`);
    const confirm = await browser.get(`${path}/delete`);
    expect(h1(confirm.html)).toBe("Delete this webhook?");
    expect(confirm.html).toContain(HOOK);
    expect(await hooksOf(h, actor)).toHaveLength(1);
    const deleted = await browser.submit(confirm, `${path}/delete`);
    expect(deleted.location).toBe("/account/webhooks");
    expect((await browser.follow(deleted)).html).toContain("The webhook is deleted.");
    expect(await hooksOf(h, actor)).toEqual([]);
    expect((await browser.get(path)).status).toBe(404);
    // A resent form finds it gone, which is what was asked.
    const resent = await browser.submit(confirm, `${path}/delete`);
    expect((await browser.follow(resent)).html).toContain("The webhook is deleted.");
  });
});

describe("webhooks pages: who may see them", () => {
  it("another user's webhook and an unknown id are the 404 page, and no form of theirs acts on it", async () => {
    const h = webHarness();
    const owner = await withWebhook(h);
    const other = await h.signedIn();
    for (const path of [
      owner.path,
      `${owner.path}/delete`,
      "/account/webhooks/0190a4a8-3b9c-7def-8000-000000000000",
      "/account/webhooks/not-a-uuid",
    ]) {
      const page = await other.browser.get(path);
      expect(page.status, path).toBe(404);
      expect(page.html).toContain("We could not find what you were looking for.");
      expect(page.html).not.toContain(HOOK);
    }
    // Their own valid form tokens, posted at the owner's webhook.
    const theirs = await other.browser.get("/account/webhooks");
    const token = /name="_csrf" value="([^"]+)"/.exec(theirs.html)?.[1] ?? "";
    for (const [action, fields] of [
      ["edit", { url: "https://evil.example.com/", "type.listing.created": "yes" }],
      ["enabled", { enabled: "false" }],
      ["test", {}],
      ["rotate", {}],
      ["replay", { since_seconds: "3600" }],
    ] as const) {
      const body = new URLSearchParams({ _csrf: token, ...fields }).toString();
      const refused = await other.browser.post(`${owner.path}/${action}`, body, FORM);
      expect(refused.status, action).toBe(404);
    }
    const [stored] = await hooksOf(h, owner.actor);
    expect(stored?.url).toBe(HOOK);
    expect(stored?.enabled).toBe(true);
    expect(stored?.secrets).toHaveLength(1);
    await h.m.webhooks.relay();
    expect(h.deps.webhookTransport.sent).toEqual([]);
  });

  it("refuses a form posted without its token, and sends an anonymous visitor to log in", async () => {
    const h = webHarness();
    const { browser, actor, path } = await withWebhook(h);
    for (const [action, body] of [
      ["/account/webhooks", `url=${encodeURIComponent(HOOK)}&type.listing.created=yes`],
      [`${path}/rotate`, ""],
      [`${path}/delete`, "_csrf=forged"],
    ] as const) {
      const refused = await browser.post(action, body, FORM);
      expect(refused.status, action).toBe(403);
      expect(refused.html).toContain("This form has expired");
    }
    expect(await hooksOf(h, actor)).toHaveLength(1);
    expect((await hooksOf(h, actor))[0]?.secrets).toHaveLength(1);

    const visitor = h.browser();
    for (const at of ["/account/webhooks", path]) {
      const sent = await visitor.get(at);
      expect(sent.status).toBe(303);
      expect(sent.location).toBe(`/login?next=${encodeURIComponent(at)}`);
    }
  });

  it("escapes a hostile URL and description everywhere the pages show them", async () => {
    const h = webHarness();
    const { browser, actor } = await h.signedIn();
    const hostile = `<script>alert("x")</script>&amp;`;
    const url = `https://hooks.example.com/?q=${hostile}`;
    const made = await browser.submit(await browser.get("/account/webhooks"), "/account/webhooks", {
      url,
      "type.listing.created": "yes",
      description: hostile,
    });
    expect(made.status).toBe(201);
    const [webhook] = await hooksOf(h, actor);
    const pages: Page[] = [
      made,
      await browser.get("/account/webhooks"),
      await browser.get(`/account/webhooks/${webhook?.id}`),
      await browser.get(`/account/webhooks/${webhook?.id}/delete`),
    ];
    for (const shown of pages) {
      expect(shown.html).not.toContain("<script>alert");
      expect(shown.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;amp;");
    }
  });
});
