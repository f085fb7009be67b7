import { createMarketplace, MarketplaceError } from "@psm/core";
import { createStubDocumentParser, createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { ANON, expectCode, KIT_PASSWORD as PASSWORD } from "../../testing/use-case-kit.js";

async function signedIn() {
  const deps = createTestDeps();
  const market = createMarketplace(deps);
  await market.auth.signUp({ email: "doc@example.com", password: PASSWORD });
  const { token } = await market.auth.logIn({ email: "doc@example.com", password: PASSWORD });
  const actor = await market.auth.authenticate({ bearer: token });
  return { deps, market, actor };
}

const PDF = {
  bytes: new TextEncoder().encode("%PDF-1.7 hello"),
  filename: "offer.pdf",
  declaredType: "application/pdf",
};

describe("documents.parse", () => {
  it("passes the upload to the parser and returns its extraction", async () => {
    const { deps, market, actor } = await signedIn();
    const parsed = await market.documents.parse(actor, PDF);
    expect(deps.documents.inputs).toEqual([PDF]);
    expect(deps.documents.inputs[0]?.bytes).toBe(PDF.bytes);
    expect(parsed).toMatchObject({
      title: "Data platform audit",
      category: "data-analytics",
      price: 4800,
      contactEmail: "sales@example.com",
    });
  });

  it("accepts an API-key caller", async () => {
    const { deps, market, actor } = await signedIn();
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expect(market.documents.parse(keyActor, PDF)).resolves.toHaveProperty("title");
    expect(deps.documents.inputs).toHaveLength(1);
  });

  it("requires a signed-in caller and then never reaches the parser", async () => {
    const { deps, market } = await signedIn();
    await expectCode(market.documents.parse(ANON, PDF), "unauthenticated");
    expect(deps.documents.inputs).toHaveLength(0);
  });

  it("lets the parser's own errors through unchanged", async () => {
    const documents = {
      async parse(): Promise<never> {
        throw new MarketplaceError("unsupported_document");
      },
    };
    const deps = createTestDeps({ documents });
    const market = createMarketplace(deps);
    await market.auth.signUp({ email: "doc@example.com", password: PASSWORD });
    const { token } = await market.auth.logIn({ email: "doc@example.com", password: PASSWORD });
    const actor = await market.auth.authenticate({ bearer: token });
    await expectCode(
      market.documents.parse(actor, { bytes: new Uint8Array([0, 1, 2]) }),
      "unsupported_document",
    );
  });

  it("returns whatever the configured parser extracts", async () => {
    const deps = createTestDeps({ documents: createStubDocumentParser({ title: "Custom", price: null }) });
    const market = createMarketplace(deps);
    await market.auth.signUp({ email: "doc@example.com", password: PASSWORD });
    const { token } = await market.auth.logIn({ email: "doc@example.com", password: PASSWORD });
    const actor = await market.auth.authenticate({ bearer: token });
    await expect(market.documents.parse(actor, PDF)).resolves.toMatchObject({ title: "Custom", price: null });
  });
});
