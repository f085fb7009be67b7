/**
 * A small service that embeds the marketplace core: its own storage (given),
 * its own mailer (kept in memory) and no document parsing. Everything comes
 * from the published packages, so this file compiles against what npm users get.
 */
import { createArgon2Hasher } from "@psm/adapter-argon2";
import {
  createJwtTokenService,
  createMarketplace,
  createUuidV7Generator,
  DEFAULT_SLOTS,
  type DocumentParser,
  type Listing,
  type Mail,
  type Mailer,
  type Marketplace,
  MarketplaceError,
  type Message,
  type PasswordHasher,
  type Repositories,
  systemClock,
  type UserView,
  webCryptoRandom,
} from "@psm/core";

/** A Mailer that keeps every mail it is handed: a real service would send them. */
export interface MemoryMailer extends Mailer {
  readonly sent: Mail[];
}

/** The service's mailer: the `Mailer` port is one method. */
export function createMemoryMailer(): MemoryMailer {
  const sent: Mail[] = [];
  return {
    sent,
    async send(mail) {
      sent.push(mail);
    },
  };
}

/** This service takes no uploads: the `DocumentParser` port, refusing everything. */
const noDocuments: DocumentParser = {
  async parse() {
    throw new MarketplaceError("unsupported_document", "This service does not read documents");
  },
};

/** What the service is built from. */
export interface ServiceOptions {
  /** Where data lives: `openSqliteStorage(...).repositories`, or in-memory ones in tests. */
  repos: Repositories;
  /** At least 32 bytes; signs the session tokens. */
  jwtSecret: string;
  /** argon2id (`@psm/adapter-argon2`) unless given. */
  hasher?: PasswordHasher;
}

/** The embedded marketplace and the mailer it writes to. */
export interface Service {
  market: Marketplace;
  mailer: MemoryMailer;
}

/** Builds the marketplace on the given storage, with this service's own mailer and hasher. */
export function createService(options: ServiceOptions): Service {
  const mailer = createMemoryMailer();
  const market = createMarketplace({
    repos: options.repos,
    mailer,
    documents: noDocuments,
    hasher: options.hasher ?? createArgon2Hasher(),
    tokens: createJwtTokenService(options.jwtSecret, systemClock),
    clock: systemClock,
    ids: createUuidV7Generator(webCryptoRandom),
    random: webCryptoRandom,
    settings: { securityMode: "strict", slots: DEFAULT_SLOTS, publicUrl: "https://embed.example" },
  });
  return { market, mailer };
}

/** What the scenario did, for the caller to check. */
export interface ScenarioResult {
  seller: UserView;
  buyer: UserView;
  listing: Listing;
  found: Listing[];
  message: Message;
  inbox: Message[];
  mailsSent: number;
}

const PASSWORD = "correct horse battery staple";

/**
 * Two users sign up and log in; the seller lists a service, the buyer finds
 * it and writes about it, and the seller reads the inbox. Then one mail round
 * delivers the queued address-verification mails.
 */
export async function runScenario(market: Marketplace): Promise<ScenarioResult> {
  const seller = await market.auth.signUp({
    email: "seller@example.com",
    password: PASSWORD,
    displayName: "Seller",
  });
  const buyer = await market.auth.signUp({ email: "buyer@example.com", password: PASSWORD });

  const sellerLogin = await market.auth.logIn({ email: "seller@example.com", password: PASSWORD });
  const buyerLogin = await market.auth.logIn({ email: "buyer@example.com", password: PASSWORD });
  const sellerActor = await market.auth.authenticate({ bearer: sellerLogin.token });
  const buyerActor = await market.auth.authenticate({ bearer: buyerLogin.token });

  const listing = await market.listings.create(sellerActor, {
    title: "Data pipeline audit",
    description: "Two weeks with your data team: lineage, costs and failure modes, with a written report.",
    category: "data-analytics",
    price: 4800,
  });
  const found = await market.listings.search(buyerActor, { search: "pipeline", category: "data-analytics" });

  const message = await market.messages.send(buyerActor, {
    listingId: listing.id,
    receiverId: seller.id,
    content: "Could the audit start next month?",
  });
  const inbox = await market.messages.list(sellerActor, { type: "received" });

  const report = await market.mail.dispatchDue();
  return { seller, buyer, listing, found: found.items, message, inbox: inbox.items, mailsSent: report.sent };
}
