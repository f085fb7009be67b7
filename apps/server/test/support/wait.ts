/** Waiting on what a server does in its own time: a value to appear, or an attempt to succeed. */

/**
 * Polls `probe` every 50 ms until it returns a value other than undefined.
 * The limit is generous: it bounds a hang, it does not measure speed.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  options: { timeoutMs?: number; context?: () => string } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const context = options.context?.() ?? "";
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${context ? `\n${context}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Retries `attempt` until `done` holds for its outcome, at most `tries` times,
 * `gapMs` apart, and returns the last outcome (the test asserts on it).
 */
export async function eventually<T>(
  attempt: () => Promise<T>,
  done: (outcome: T) => boolean,
  tries = 100,
  gapMs = 50,
): Promise<T> {
  let outcome = await attempt();
  for (let i = 1; i < tries && !done(outcome); i++) {
    await new Promise((resolve) => setTimeout(resolve, gapMs));
    outcome = await attempt();
  }
  return outcome;
}
