/** The soak's mixed traffic: many client loops, each acting as one user of the pool. */
import {
  type Action,
  churn,
  create,
  createKey,
  deactivateKey,
  logIn,
  message,
  pauseOrResume,
  read,
  remove,
  type Soaker,
  view,
  type World,
} from "./soak-actions.js";

export type { Soaker, World };

const terms = ["consult", "audit", "package"];

// Relative weights: mostly reads and views, a steady trickle of writes, and a
// little of the expensive work (argon2id logins and sign-ups in churn).
const ACTIONS: [weight: number, action: Action][] = [
  [18, read("page", () => "/api/listings")],
  [10, read("search", () => `/api/listings?search=${terms[Math.floor(Math.random() * terms.length)]}`)],
  [5, read("category", () => "/api/listings?category=software-development")],
  [10, read("get", (w) => `/api/listings/${w.targets[Math.floor(Math.random() * w.targets.length)]}`)],
  [5, read("messages", () => "/api/messages?type=sent", true)],
  [20, view],
  [10, create],
  [4, pauseOrResume],
  [3, remove],
  [6, message],
  [3, createKey],
  [1, deactivateKey],
  [1, logIn],
  [0.5, churn],
];
const TOTAL = ACTIONS.reduce((sum, [weight]) => sum + weight, 0);

function pickAction(): Action {
  let roll = Math.random() * TOTAL;
  for (const [weight, action] of ACTIONS) {
    roll -= weight;
    if (roll < 0) return action;
  }
  return view;
}

/** Runs `clients` loops until `until` (ms since epoch); client n acts as user n modulo the pool. */
export async function runTraffic(world: World, clients: number, until: number): Promise<void> {
  const loop = async (n: number) => {
    const me = world.users[n % world.users.length];
    if (!me) return;
    while (Date.now() < until) await pickAction()(world, me);
  };
  await Promise.all(Array.from({ length: clients }, (_, n) => loop(n)));
}
