import { reportSkippedPostgres } from "../support/backends.js";
import { useWebSuite } from "../support/web-suite.js";
import { eightJourneys } from "./scenario/eight-journeys.js";

// The eight journeys in a real browser with JavaScript off: every form
// posts and redirects without a script (a double click on "Publish" makes one
// listing). axe-core needs scripts, so it runs in journeys-with-javascript.test.ts.

reportSkippedPostgres("the browser journeys without JavaScript");
const suite = useWebSuite();

suite.describeSites((backend, site) => eightJourneys(backend, false, suite, site));
