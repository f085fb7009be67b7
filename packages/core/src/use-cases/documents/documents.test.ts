import { type Deps, MarketplaceError } from "@psm/core";
import { createStubDocumentParser, createTestDeps } from "@psm/core/testing";
import { describe, expect, it } from "vitest";
import { ANON, expectCode, setupWith } from "../../testing/use-case-kit.js";

/** A marketplace on `deps` with doc@example.com signed in as `actor`. */
async function signedIn<D extends Deps>(deps: D) {
  const kit = setupWith(deps);
  const { actor } = await kit.signUpAndLogIn("doc@example.com");
  return { ...kit, actor };
}

const PDF = {
  bytes: new TextEncoder().encode("%PDF-1.7 hello"),
  filename: "offer.pdf",
  declaredType: "application/pdf",
};

describe("documents.parse", () => {
  it("passes the upload to the parser, naming the caller, and returns its extraction", async () => {
    const { deps, market, actor } = await signedIn(createTestDeps());
    const parsed = await market.documents.parse(actor, { ...PDF, caller: "someone else" });
    if (actor.kind !== "user") throw new Error("signed in");
    // The caller is the signed-in account, whatever the input claims: per-caller bounds key on it.
    expect(deps.documents.inputs).toEqual([{ ...PDF, caller: actor.user.id }]);
    expect(deps.documents.inputs[0]?.bytes).toBe(PDF.bytes);
    expect(parsed).toMatchObject({
      title: "Data platform audit",
      category: "data-analytics",
      price: 4800,
      contactEmail: "sales@example.com",
    });
  });

  it("accepts an API-key caller", async () => {
    const { deps, market, actor } = await signedIn(createTestDeps());
    const { secret } = await market.apiKeys.create(actor, {});
    const keyActor = await market.auth.authenticate({ apiKey: secret });
    await expect(market.documents.parse(keyActor, PDF)).resolves.toHaveProperty("title");
    expect(deps.documents.inputs).toHaveLength(1);
  });

  it("requires a signed-in caller and then never reaches the parser", async () => {
    const { deps, market } = await signedIn(createTestDeps());
    await expectCode(market.documents.parse(ANON, PDF), "unauthenticated");
    expect(deps.documents.inputs).toHaveLength(0);
  });

  it("lets the parser's own errors through unchanged", async () => {
    const documents = {
      async parse(): Promise<never> {
        throw new MarketplaceError("unsupported_document");
      },
    };
    const { market, actor } = await signedIn(createTestDeps({ documents }));
    await expectCode(
      market.documents.parse(actor, { bytes: new Uint8Array([0, 1, 2]) }),
      "unsupported_document",
    );
  });

  it("returns whatever the configured parser extracts", async () => {
    const parser = createStubDocumentParser({ title: "Custom", price: null });
    const { market, actor } = await signedIn(createTestDeps({ documents: parser }));
    await expect(market.documents.parse(actor, PDF)).resolves.toMatchObject({ title: "Custom", price: null });
  });
});
