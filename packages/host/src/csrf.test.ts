import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { checkFormToken, isFormBinding, issueFormToken, newFormBinding, originCheck } from "./csrf.js";

describe("form tokens", () => {
  it("are accepted for their own binding only, once per nonce", () => {
    const binding = newFormBinding();
    expect(isFormBinding(binding)).toBe(true);
    const token = issueFormToken(binding);
    const nonce = checkFormToken(binding, token);
    expect(nonce).toBe(token.split(".")[0]);
    expect(issueFormToken(binding).split(".")[0]).not.toBe(nonce);
    expect(checkFormToken(newFormBinding(), token)).toBeNull();
    expect(checkFormToken(undefined, token)).toBeNull();
  });

  it("refuse forgeries of every shape", () => {
    const binding = newFormBinding();
    const [nonce = "", tag = ""] = issueFormToken(binding).split(".");
    const flipped = `${tag.slice(0, -1)}${tag.endsWith("A") ? "B" : "A"}`;
    // The same bytes spelled with other unused low bits in the last character.
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const respelled = `${tag.slice(0, -1)}${alphabet[alphabet.indexOf(tag.at(-1) ?? "A") ^ 1]}`;
    for (const forged of [
      undefined,
      "",
      nonce,
      `${nonce}.`,
      `${nonce}.${flipped}`,
      `${nonce}.${respelled}`,
      `${nonce}x.${tag}`,
      `${tag}.${nonce}`,
    ]) {
      expect(checkFormToken(binding, forged), String(forged)).toBeNull();
    }
  });
});

describe("originCheck", () => {
  const app = new Hono();
  app.use(originCheck("https://market.example"));
  app.post("/form", (c) => c.text("ok"));
  const post = (headers: Record<string, string>) =>
    app.request("https://market.example/form", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: "a=1",
    });

  it("lets this site's forms through and refuses another site's", async () => {
    expect((await post({ origin: "https://market.example" })).status).toBe(200);
    expect((await post({ origin: "https://evil.example" })).status).toBe(403);
  });
});
