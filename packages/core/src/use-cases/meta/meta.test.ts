import { createMarketplace, type Settings } from "@psm/core";
import { createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";

function capabilities(settings: Partial<Settings> = {}) {
  return createMarketplace(createTestDeps({ settings })).meta.capabilities();
}

const CATEGORIES = [
  { value: "strategic-consulting", label: "Strategic Consulting", display_slug: "consulting" },
  { value: "software-development", label: "Software Development", display_slug: "development" },
  { value: "digital-marketing", label: "Digital Marketing", display_slug: "marketing" },
  { value: "ux-ui-design", label: "UX/UI Design", display_slug: "design" },
  { value: "staffing-hr", label: "Staffing & HR", display_slug: "staffing" },
  { value: "data-analytics", label: "Data & Analytics", display_slug: "data" },
  { value: "cybersecurity", label: "Cybersecurity", display_slug: "security" },
  { value: "artificial-intelligence", label: "Artificial Intelligence", display_slug: "ai" },
  { value: "legal-consulting", label: "Legal Consulting", display_slug: "legal" },
  { value: "financial-services", label: "Financial Services", display_slug: "finance" },
];

function authOf(doc: ReturnType<typeof capabilities>, method: string, path: string): string | undefined {
  return doc.capabilities.find((c) => c.method === method && c.path === path)?.auth;
}

describe("meta.capabilities", () => {
  it("carries version 1.2.0, the ten categories and both authentication methods", () => {
    const doc = capabilities();
    expect(doc.version).toBe("1.2.0");
    expect(doc.categories).toEqual(CATEGORIES);
    expect(doc.authentication.map((a) => a.header).sort()).toEqual(["Authorization", "X-API-Key"]);
    expect(doc.changes_from_1_0_2.length).toBeGreaterThan(0);
    expect(typeof doc.name).toBe("string");
  });

  it("strict mode: no open gaps, messages and profile writes need a key or JWT", () => {
    const doc = capabilities();
    expect(doc.security_mode).toBe("strict");
    expect(doc.known_gaps).toEqual([]);
    expect(authOf(doc, "GET", "/api/messages")).toBe("key-or-jwt");
    expect(authOf(doc, "POST", "/api/messages")).toBe("key-or-jwt");
    expect(authOf(doc, "POST", "/api/profiles/sync")).toBe("key-or-jwt");
    expect(authOf(doc, "POST", "/api/profiles/limit")).toBe("key-or-jwt");
  });

  it("legacy mode: lists the two re-opened gaps and makes those endpoints public", () => {
    const doc = capabilities({ securityMode: "legacy" });
    expect(doc.security_mode).toBe("legacy");
    expect(doc.known_gaps).toHaveLength(3);
    expect(doc.known_gaps.some((gap) => gap.includes("/api/messages"))).toBe(true);
    expect(doc.known_gaps.some((gap) => gap.includes("/api/profiles/sync"))).toBe(true);
    expect(doc.known_gaps.some((gap) => gap.includes("GET /api/profiles") && gap.includes("email"))).toBe(
      true,
    );
    expect(authOf(doc, "GET", "/api/messages")).toBe("public");
    expect(authOf(doc, "POST", "/api/messages")).toBe("public");
    expect(authOf(doc, "POST", "/api/profiles/sync")).toBe("public");
    expect(authOf(doc, "POST", "/api/profiles/limit")).toBe("public");
  });

  it("describes every route of the interface with its auth rule", () => {
    const doc = capabilities();
    const expected: [string, string, string][] = [
      ["GET", "/api/capabilities", "public"],
      ["GET", "/api/listings", "public"],
      ["POST", "/api/listings", "key-or-jwt"],
      ["GET", "/api/listings/{id}", "public"],
      ["PATCH", "/api/listings/{id}", "key-or-jwt"],
      ["DELETE", "/api/listings/{id}", "key-or-jwt"],
      ["POST", "/api/listings/{id}/view", "public"],
      ["POST", "/api/auth/signup", "public"],
      ["POST", "/api/auth/login", "public"],
      ["POST", "/api/auth/reset-password", "public"],
      ["POST", "/api/auth/update-password", "public"],
      ["GET", "/api/keys", "key-or-jwt"],
      ["POST", "/api/keys", "key-or-jwt"],
      ["DELETE", "/api/keys/{id}", "key-or-jwt"],
      ["GET", "/api/profiles", "public"],
      ["GET", "/api/profiles/admin", "public"],
      ["GET", "/api/profiles/limit", "public"],
      ["PUT", "/api/users/update", "jwt"],
      ["POST", "/api/parse-pdf", "key-or-jwt"],
      ["GET", "/api/admin/posts", "admin"],
      ["DELETE", "/api/admin/posts", "admin"],
      ["DELETE", "/api/admin/posts/{id}", "admin"],
      ["GET", "/api/admin/users", "admin"],
      ["DELETE", "/api/admin/users", "admin"],
      ["DELETE", "/api/admin/users/{id}", "admin"],
    ];
    for (const [method, path, auth] of expected) {
      expect({ method, path, auth: authOf(doc, method, path) }).toEqual({ method, path, auth });
    }
  });

  it("lists the 1.2.0 changes", () => {
    const changes = capabilities().changes_from_1_0_2.filter((line) => line.startsWith("1.2.0: "));
    for (const topic of ["email_verified", "verify-email", "deactivates the API keys", "NUL", "display name"])
      expect(
        changes.some((line) => line.includes(topic)),
        topic,
      ).toBe(true);
    expect(changes.some((line) => line.includes("Idempotency-Key"))).toBe(true);
    expect(changes.some((line) => line.includes("Cache-Control: no-store"))).toBe(true);
  });

  it("says, in both modes, that an admin's API key acts as admin outside /api/admin", () => {
    for (const securityMode of ["strict", "legacy"] as const) {
      const doc = capabilities({ securityMode });
      const key = doc.authentication.find((a) => a.header === "X-API-Key");
      expect(key?.how_obtained).toMatch(/admin's key acts as admin outside \/api\/admin/);
      const create = doc.capabilities.find((c) => c.name === "create_api_key");
      expect(create?.description).toContain("admin");
    }
  });

  it("reports the configured slot limits", () => {
    const doc = capabilities({ slots: { personal: 2, business: 5, admin: 10 } });
    expect(doc.limits).toMatchObject({
      slots_personal: 2,
      slots_business: 5,
      slots_admin: 10,
      min_password_length: 6,
    });
  });
});
