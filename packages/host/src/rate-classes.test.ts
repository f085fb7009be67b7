import { Hono, type MiddlewareHandler } from "hono";
import { describe, expect, it } from "vitest";
import { type RateClass, runLimited } from "./rate-classes.js";

describe("runLimited", () => {
  it("runs the limiters of the classes outermost first, then the answer, which the limiters see", async () => {
    const seen: string[] = [];
    const hook =
      (name: RateClass): MiddlewareHandler =>
      async (c, next) => {
        seen.push(`${name}:${c.get("rateLimitClass")}`);
        await next();
        seen.push(`${name} saw ${c.res.status}`);
      };
    const app = new Hono();
    app.post("/", (c) =>
      runLimited(c, ["read", "write", "upload"], { read: hook("read"), upload: hook("upload") }, async () =>
        c.json({ ok: true }, 201),
      ),
    );
    const res = await app.request("/", { method: "POST" });
    expect(res.status).toBe(201);
    expect(seen).toEqual(["read:read", "upload:upload", "upload saw 201", "read saw 201"]);
  });

  it("an answer of Hono's next() (its context) is not taken for a response", async () => {
    const app = new Hono();
    app.use((c, next) => runLimited(c, ["read"], undefined, next));
    app.get("/", (c) => c.text("page"));
    expect(await (await app.request("/")).text()).toBe("page");
  });
});
