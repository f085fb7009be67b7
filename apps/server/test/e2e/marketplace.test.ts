import { afterAll, beforeAll, describe } from "vitest";
import { BACKENDS, MODES, reportSkippedPostgres } from "../support/backends.js";
import { startWorld, type World } from "../support/world.js";
import { adminScenario } from "./scenario/admin.js";
import { authScenario } from "./scenario/auth.js";
import { documentScenario } from "./scenario/documents.js";
import { errorsTableScenario } from "./scenario/errors-table.js";
import { eventScenario } from "./scenario/events.js";
import { keyScenario } from "./scenario/keys.js";
import { listingEditScenario } from "./scenario/listing-edits.js";
import { listingScenario } from "./scenario/listings.js";
import { messageScenario } from "./scenario/messages.js";
import { metaScenario } from "./scenario/meta.js";
import { profileScenario } from "./scenario/profiles.js";

// The whole interface over real HTTP against the compiled server, once per
// backend and security mode. One server per cell: its scenarios share it and
// each signs up the users it needs, so they do not depend on one another.
const cells = BACKENDS.flatMap((backend) => MODES.map((mode) => ({ backend, mode })));
const starting = new Map<string, Promise<World>>();

reportSkippedPostgres("the end-to-end scenario");

// A start is mostly module loading and migrations, so the cells' servers
// start side by side rather than one after another.
beforeAll(() => {
  for (const { backend, mode } of cells) {
    const world = startWorld(backend, mode);
    world.catch(() => {}); // reported by the cell that awaits it
    starting.set(`${backend}/${mode}`, world);
  }
});

afterAll(async () => {
  await Promise.allSettled([...starting.values()].map(async (world) => (await world).stop()));
});

describe.each(cells)("$backend, $mode mode", ({ backend, mode }) => {
  let running: World | undefined;
  const world = (): World => {
    if (!running) throw new Error("the server did not start (see beforeAll)");
    return running;
  };
  beforeAll(async () => {
    running = await starting.get(`${backend}/${mode}`);
  });

  metaScenario(mode, world);
  authScenario(world);
  keyScenario(world);
  listingScenario(world);
  listingEditScenario(world);
  messageScenario(mode, world);
  eventScenario(world);
  profileScenario(mode, world);
  documentScenario(world);
  adminScenario(world);
  errorsTableScenario(mode, world);
});
