import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@psm/core";
import { describe, expect, test } from "vitest";
import { webHarness } from "./harness.js";

interface Doc {
  paths: Record<string, Record<string, { operationId: string; requestBody?: { content: object } }>>;
}

describe("/openapi.json with the pages mounted", () => {
  test("documents the mailed-link pages as before, and no other page", async () => {
    const h = webHarness();
    const doc = (await (await h.app.request("/openapi.json")).json()) as Doc;
    const operations = (path: string) =>
      Object.fromEntries(
        Object.entries(doc.paths[path] ?? {}).map(([method, op]) => [method, op.operationId]),
      );
    expect(operations("/reset-password")).toEqual({ get: "resetPasswordPage", post: "resetPasswordSubmit" });
    expect(operations("/verify-email")).toEqual({ get: "verifyEmailPage", post: "verifyEmailSubmit" });
    expect(operations("/unsubscribe")).toEqual({ get: "unsubscribePage", post: "unsubscribeSubmit" });
    expect(doc.paths["/reset-password"]?.post?.requestBody?.content).toMatchObject({
      "application/x-www-form-urlencoded": {
        schema: {
          properties: { new_password: { minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH } },
          required: ["token", "new_password", "confirm_password"],
        },
      },
    });
    const pages = Object.keys(doc.paths).filter((path) => !path.startsWith("/api/"));
    expect(pages.sort()).toEqual(
      [
        "/docs",
        "/docs/scalar.js",
        "/healthz",
        "/openapi.json",
        "/readyz",
        "/reset-password",
        "/unsubscribe",
        "/verify-email",
      ].sort(),
    );
  });
});
