import type { Context, MiddlewareHandler } from "hono";

/**
 * The rate-limit classes of decisions.md; every operation of every surface belongs to one.
 * `confirm` is a signed-in caller proving their password again (change password): login-like,
 * so its failures count as failed logins of that account.
 */
export type RateClass = "read" | "write" | "login" | "confirm" | "signup" | "reset" | "upload";

/**
 * The limiter of each class, as middleware: every surface runs the same ones, so a form and the
 * API call it mirrors share one quota. A hook reads `actor`, `clientIp`, `rateLimitClass` and,
 * for login, `body` (its `email`); it refuses by throwing MarketplaceError `rate_limited`, and
 * the login-like hooks count a failure when the answer is 401. A missing class is not limited.
 */
// biome-ignore lint/suspicious/noExplicitAny: each surface's own environment carries the variables the hooks read
export type RateLimitHooks = Partial<Record<RateClass, MiddlewareHandler<any>>>;

/**
 * The one limiter runner: runs `answer` inside the limiters of `classes`, outermost first, as a
 * route runs inside its middleware. The answer becomes `c.res` within the innermost `next`, so a
 * limiter that looks at the response after `next` (login failures) sees it. `classes` is bounded
 * by the caller (a JSON-RPC batch is counted before it is run).
 */
export async function runLimited(
  c: Context,
  classes: readonly RateClass[],
  hooks: RateLimitHooks | undefined,
  answer: () => Promise<unknown>,
): Promise<Response> {
  const run = async (index: number): Promise<void> => {
    const klass = classes[index];
    if (klass === undefined) {
      const response = await answer();
      // Hono's `next` resolves to its context, not a Response: only an answer of its own is kept.
      if (response instanceof Response) c.res = response;
      return;
    }
    const hook = hooks?.[klass];
    c.set("rateLimitClass", klass);
    if (hook === undefined) return run(index + 1);
    await hook(c, () => run(index + 1));
  };
  await run(0);
  return c.res;
}
