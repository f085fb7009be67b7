import { createMarketplace } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { credentialsOf, resolveCaller } from "./credentials.js";

describe("the one credential resolver", () => {
  it("reads X-API-Key, a Bearer JWT, and a Bearer psm_ key as a key", () => {
    expect(credentialsOf(new Headers({ "x-api-key": "psm_abc" }))).toEqual({ apiKey: "psm_abc" });
    expect(credentialsOf(new Headers({ authorization: "Bearer eyJ.x.y" }))).toEqual({ bearer: "eyJ.x.y" });
    expect(credentialsOf(new Headers({ authorization: "bearer psm_abc" }))).toEqual({ apiKey: "psm_abc" });
    expect(credentialsOf(new Headers({ "x-api-key": "psm_a", authorization: "Bearer psm_b" }))).toEqual({
      apiKey: "psm_a",
      bearer: "psm_b",
    });
    expect(() => credentialsOf(new Headers({ authorization: "Basic Zm9v" }))).toThrow(/authorization/);
  });

  it("resolves a key sent either way to its user, nothing to anonymous, a bad one to an authError", async () => {
    const m = createMarketplace(createTestDeps());
    await m.auth.signUp({ email: "ada@example.com", password: "secret-password" });
    const { token } = await m.auth.logIn({ email: "ada@example.com", password: "secret-password" });
    const actor = await m.auth.authenticate({ bearer: token });
    const { secret } = await m.apiKeys.create(actor, { name: "agent" });
    const presented: Record<string, string>[] = [
      { "x-api-key": secret },
      { authorization: `Bearer ${secret}` },
      { authorization: `Bearer ${token}` },
    ];
    for (const headers of presented) {
      const caller = await resolveCaller(m, new Headers(headers));
      expect(caller.actor.kind).toBe("user");
      expect(caller.authError).toBeUndefined();
    }
    expect((await resolveCaller(m, new Headers())).actor.kind).toBe("anonymous");
    const bad = await resolveCaller(m, new Headers({ authorization: "Bearer psm_nope" }));
    expect(bad.actor.kind).toBe("anonymous");
    expect(bad.authError).toMatchObject({ code: "unauthenticated" });
  });
});
