import type { Clock } from "../../ports/clock.js";

/** A Clock that moves only when a test says so. */
export interface TestClock extends Clock {
  advance(ms: number): void;
  set(date: Date): void;
}

/** The default start of every test clock. */
export const TEST_EPOCH = new Date("2026-01-01T00:00:00.000Z");

/** A manual clock starting at `start` (2026-01-01T00:00:00.000Z by default). */
export function createTestClock(start: Date = TEST_EPOCH): TestClock {
  let ms = start.getTime();
  return {
    // A new Date each time, so a caller mutating it cannot move the clock.
    now: () => new Date(ms),
    advance(by: number) {
      ms += by;
    },
    set(date: Date) {
      ms = date.getTime();
    },
  };
}
