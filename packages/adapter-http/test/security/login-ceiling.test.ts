/**
 * Nobody can lock an owner out (decisions.md, rate limits): failures spread over many client
 * addresses bring an account to its ceiling of 100 failures an hour, and still a correct password
 * from an address that has not itself reached its own failure limit logs in; guessing from many
 * addresses stays bounded by the ceiling, each new address getting one guess past it (past the
 * ceiling, one failure is an address's whole allowance for its 15 minutes). The
 * addresses are generated: IPv4 spreads, and IPv6 spreads over /64s with a new address in its
 * /64 for every guess.
 */
import { describe, expect, test } from "vitest";
import { createRateLimitHooks } from "../../src/index.js";
import { target } from "./support/target.js";

/** mulberry32: a small seeded generator, so a failing spread can be replayed by its seed. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A client network: where each of its requests comes from. */
interface Network {
  name: string;
  /** The address of its n-th request. */
  address(n: number): string;
}

const hex16 = (random: () => number) => Math.floor(random() * 0x10000).toString(16);

/** `count` distinct networks of one kind: single IPv4 addresses, or IPv6 /64s. */
function spread(kind: "ipv4" | "ipv6", count: number, seed: number): Network[] {
  const random = generator(seed);
  const networks = new Map<string, Network>();
  while (networks.size < count) {
    if (kind === "ipv4") {
      const ip = [198, 51, 100 + Math.floor(random() * 4), 1 + Math.floor(random() * 254)].join(".");
      networks.set(ip, { name: ip, address: () => ip });
    } else {
      const prefix = `2001:db8:${hex16(random)}:${hex16(random)}`;
      const within = generator(seed ^ networks.size);
      networks.set(prefix, {
        name: `${prefix}::/64`,
        address: () => `${prefix}:${[0, 1, 2, 3].map(() => hex16(within)).join(":")}`,
      });
    }
  }
  return [...networks.values()];
}

const SEEDS = [1, 27, 4_242];

describe.each(SEEDS.flatMap((seed) => (["ipv4", "ipv6"] as const).map((kind) => ({ kind, seed }))))(
  "failures spread over 20 $kind networks (seed $seed)",
  ({ kind, seed }) => {
    const setUp = async () => {
      const t = target({ config: { rateLimit: createRateLimitHooks() } });
      const owner = await t.signUp();
      let sent = 0;
      const logIn = async (network: Network, password: string) =>
        (
          await t.request("POST", "/api/auth/login", {
            ip: network.address(sent++),
            body: { email: owner.email, password },
          })
        ).status;
      const [home, ...others] = spread(kind, 61, seed ^ 0x5eed);
      const attackers = others.slice(0, 20);
      const fresh = others.slice(20);
      for (const network of attackers) {
        for (let i = 0; i < 5; i++) expect(await logIn(network, `guess-${i}`), network.name).toBe(401);
      }
      return { t, owner, logIn, home: home!, attackers, fresh };
    };

    test("the account is at its ceiling, and the owner's correct password still logs in from any address of theirs", async () => {
      const { owner, logIn, home, fresh } = await setUp();
      expect(await logIn(home, owner.password)).toBe(200);
      expect(await logIn(home, owner.password)).toBe(200);
      // Past the ceiling one failure is an address's whole allowance: a typo closes that address
      // for its window (that is what keeps guessing slow), and any other still lets the owner in.
      const [cafe, office] = fresh;
      expect(await logIn(cafe!, "a-typo")).toBe(429);
      expect(await logIn(cafe!, owner.password)).toBe(429);
      expect(await logIn(office!, owner.password)).toBe(200);
    });

    test("guessing stays bounded: the spreading networks are refused unheard, and a new one gets one guess", async () => {
      const { t, owner, logIn, attackers, fresh } = await setUp();
      const heard = () => t.hasher.calls.verify;
      const before = heard();
      // Every network that spent its own 5 failures is refused, the right password too, unheard.
      for (const network of attackers) {
        expect(await logIn(network, "guess-more")).toBe(429);
        expect(await logIn(network, owner.password)).toBe(429);
      }
      expect(heard() - before).toBe(0);
      // Past the ceiling a wrong guess is refused (429, never 401) and spends that network's own
      // limit at once: 40 new networks trying 5 guesses each get 40 guesses heard, not 200.
      for (const network of fresh) {
        const statuses = [];
        for (let i = 0; i < 5; i++) statuses.push(await logIn(network, `late-guess-${i}`));
        expect(statuses, network.name).toEqual([429, 429, 429, 429, 429]);
        expect(await logIn(network, owner.password), network.name).toBe(429);
      }
      expect(heard() - before).toBe(fresh.length);
    });
  },
);
