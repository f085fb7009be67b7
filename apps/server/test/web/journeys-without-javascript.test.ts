import { beforeAll, describe } from "vitest";
import { BACKENDS, reportSkippedPostgres } from "../support/backends.js";
import { useWebSuite } from "../support/web-suite.js";
import type { World } from "../support/world.js";
import { eightJourneys } from "./scenario/eight-journeys.js";

// The eight journeys in a real browser with JavaScript off: every form
// posts and redirects without a script (a double click on "Publish" makes one
// listing). axe-core needs scripts, so it runs in journeys-with-javascript.test.ts.

reportSkippedPostgres("the browser journeys without JavaScript");
const suite = useWebSuite();

describe.each(BACKENDS)("the web interface on %s", (backend) => {
  let site: World;
  beforeAll(async () => {
    site = await suite.site(backend);
  });

  eightJourneys(backend, false, suite, () => site);
});
