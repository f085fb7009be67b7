import { describe, expect, it } from "vitest";
import { h1, webHarness } from "./harness.js";

/** A harness with two listings, only one of them titled with "kube". */
async function twoListings() {
  const h = webHarness();
  await h.author("kube@example.com", { title: "Kubernetes audit" });
  await h.author("brand@example.com", { title: "Brand design", category: "ux-ui-design" });
  return h;
}

describe("/?search=, the API's name for the title search", () => {
  it("redirects permanently to the page's own query, which shows the search's results", async () => {
    const h = await twoListings();
    const b = h.browser();
    const moved = await b.get("/?search=kube");
    expect(moved.status).toBe(301);
    expect(moved.location).toBe("/?q=kube");
    const page = await b.get(moved.location ?? "");
    expect(page.status).toBe(200);
    expect(h1(page.html)).toBe("Search results");
    expect(page.html).toContain("Kubernetes audit");
    expect(page.html).not.toContain("Brand design");
    // The search box shows what was searched, so the next search starts from it.
    expect(page.html).toMatch(/<input[^>]*name="q"[^>]*value="kube"/);
  });

  it("keeps the rest of the query, lets q win over search, and drops an empty search", async () => {
    const h = await twoListings();
    const b = h.browser();
    const cases = [
      ["/?search=kube&category=cybersecurity", "/?q=kube&category=cybersecurity"],
      ["/?category=cybersecurity&search=k%C3%BCbe", "/?q=k%C3%BCbe&category=cybersecurity"],
      ["/?q=brand&search=kube", "/?q=brand"],
      ["/?q=&search=kube", "/?q=kube"],
      ["/?search=", "/"],
      ["/?search=&category=ux-ui-design", "/?category=ux-ui-design"],
    ] as const;
    for (const [from, to] of cases) {
      const moved = await b.get(from);
      expect([moved.status, moved.location], from).toEqual([301, to]);
    }
  });

  it("leaves q alone and the API's own search parameter with the API", async () => {
    const h = await twoListings();
    const page = await h.browser().get("/?q=kube");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Kubernetes audit");
    const api = await h.app.request("/api/listings?search=kube", { headers: { accept: "application/json" } });
    expect(api.status).toBe(200);
    const { items } = (await api.json()) as { items: { title: string }[] };
    expect(items.map((l) => l.title)).toEqual(["Kubernetes audit"]);
  });
});

describe("/: one search box (q), category with counts, price range and sort", () => {
  async function catalog() {
    const h = webHarness();
    await h.author("pen@example.com", {
      title: "Pentest offer",
      description: "Penetration Testing for SaaS Startups",
      category: "cybersecurity",
      price: 4800,
    });
    await h.author("audit@example.com", {
      title: "Cloud audit",
      description: "Penetration tests included.",
      category: "software-development",
      price: 900,
    });
    await h.author("brand@example.com", { title: "Brand design", category: "ux-ui-design", price: null });
    return h;
  }
  const titles = (html: string) => [...html.matchAll(/<h3[^>]*>\s*<a[^>]*>([^<]+)<\/a>/g)].map((m) => m[1]);

  it("finds words in descriptions and counts the matches per category beside the filter", async () => {
    const h = await catalog();
    const page = await h.browser().get("/?q=penetration");
    expect(page.status).toBe(200);
    expect(page.html).toContain("Pentest offer");
    expect(page.html).toContain("Cloud audit");
    expect(page.html).not.toContain("Brand design");
    expect(page.html).toMatch(/<option value="cybersecurity"[^>]*>Cybersecurity \(1\)<\/option>/);
    expect(page.html).toMatch(/<option value="ux-ui-design"[^>]*>UX\/UI Design \(0\)<\/option>/i);
  });

  it("keeps price range and sort in the URL and in the form", async () => {
    const h = await catalog();
    const page = await h.browser().get("/?min_price=100&max_price=5000&sort=price_asc");
    expect(titles(page.html)).toEqual(["Cloud audit", "Pentest offer"]);
    expect(page.html).toMatch(/<input[^>]*name="min_price"[^>]*value="100"/);
    expect(page.html).toMatch(/<option value="price_asc" selected[^>]*>/);
    const bad = await h.browser().get("/?min_price=cheap");
    expect(bad.status).toBe(400);
    expect(bad.html).toMatch(/id="min_price-error"[\s\S]*Search could not run: must be a number/);
  });

  it("suggests removing a filter when nothing matches", async () => {
    const h = await catalog();
    const page = await h.browser().get("/?q=penetration&category=ux-ui-design&max_price=10");
    expect(page.html).toContain("No listings match.");
    expect(page.html).toContain('href="/?q=penetration&amp;max_price=10">Search all categories</a>');
    expect(page.html).toContain(
      'href="/?q=penetration&amp;category=ux-ui-design">Remove the price range</a>',
    );
    expect(page.html).toContain('href="/?category=ux-ui-design&amp;max_price=10">Remove the words');
  });
});
