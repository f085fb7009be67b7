/**
 * Webhooks and notification settings over MCP, with the SDK's real client over Streamable HTTP:
 * an agent manages a webhook end to end (create with its secret shown once, test, read the
 * delivery log after the relay ran, rotate, replay, delete) and reads and changes the settings.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { beforeAll, describe, expect, it } from "vitest";
import { type Harness, harness } from "./support/harness.js";

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

type Structured = Record<string, unknown> & { code?: string };

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    structuredContent?: Structured;
  };
  return { error: result.isError === true, body: result.structuredContent ?? {} };
}

describe("webhook tools", () => {
  it("create, test, read the log, rotate, replay and delete, as the API does", async () => {
    const member = await h.member("hooks");
    const client = await h.overHttp({ "X-API-Key": member.key });
    try {
      const created = await call(client, "create_webhook", {
        url: "https://hooks.example.com/agent",
        types: ["listing.created"],
        description: "agent",
      });
      expect(created.error).toBe(false);
      const webhook = created.body.webhook as { id: string; enabled: boolean; types: string[] };
      expect(webhook).toMatchObject({ enabled: true, types: ["listing.created"] });
      expect(created.body.secret).toMatch(/^whsec_/);

      const test = await call(client, "test_webhook", { id: webhook.id });
      expect(test.body.event_id).toMatch(/^evt_/);
      await h.marketplace.webhooks.relay();
      const log = await call(client, "list_webhook_deliveries", { id: webhook.id });
      expect(log.body.deliveries).toMatchObject([
        { event_id: test.body.event_id, type: "webhook.test", state: "succeeded", attempts: 1 },
      ]);

      const rotated = await call(client, "rotate_webhook_secret", { id: webhook.id });
      expect(rotated.body.secret).toMatch(/^whsec_/);
      expect(rotated.body.secret).not.toBe(created.body.secret);

      const replay = await call(client, "replay_webhook", { id: webhook.id, since: "2020-01-01T00:00:00Z" });
      expect(replay.body).toEqual({ queued: 1, more: false });

      const listed = await call(client, "list_webhooks");
      expect((listed.body.webhooks as { id: string }[]).map((w) => w.id)).toEqual([webhook.id]);
      expect(JSON.stringify(listed.body)).not.toContain("whsec_");

      expect((await call(client, "delete_webhook", { id: webhook.id })).body).toEqual({ success: true });
      const gone = await call(client, "get_webhook", { id: webhook.id });
      expect(gone).toMatchObject({ error: true, body: { code: "webhook_not_found" } });
    } finally {
      await client.close();
    }
  });

  it("refuses a private URL with the same code as the API, naming the argument", async () => {
    const member = await h.member("ssrf");
    const client = await h.overHttp({ "X-API-Key": member.key });
    try {
      const refused = await call(client, "create_webhook", {
        url: "http://169.254.169.254/latest/meta-data",
        types: ["listing.created"],
      });
      expect(refused).toMatchObject({ error: true, body: { code: "webhook_url_forbidden" } });
      const invalid = await call(client, "create_webhook", {
        url: "ftp://x.example.com/",
        types: ["listing.created"],
      });
      expect(invalid).toMatchObject({ error: true, body: { code: "invalid_input" } });
      expect(String(invalid.body.error)).toMatch(/^url: /);
    } finally {
      await client.close();
    }
  });
});

describe("notification settings tools", () => {
  it("read the defaults and change one setting", async () => {
    const member = await h.member("mails");
    const client = await h.overHttp({ "X-API-Key": member.key });
    try {
      expect((await call(client, "get_notification_settings")).body).toEqual({
        message_mail: "instant",
        saved_search_mail: "daily",
      });
      expect((await call(client, "update_notification_settings", { message_mail: "off" })).body).toEqual({
        message_mail: "off",
        saved_search_mail: "daily",
      });
      const bad = await call(client, "update_notification_settings", { saved_search_mail: "weekly" });
      expect(bad).toMatchObject({ error: true, body: { code: "invalid_input" } });
      expect(String(bad.body.error)).toMatch(/^saved_search_mail: /);
    } finally {
      await client.close();
    }
  });
});
