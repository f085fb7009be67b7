/**
 * A/B of two builds of the server in one run, for effects smaller than these machines' drift
 * (issue 30: "no endpoint slower than before, A/B in one run"). Both servers run at once on
 * copies of one seeded SQLite database; each round drives every row on both, in turn (the order
 * flipped every round), so that each pair of figures comes from the same minute. Prints, per row,
 * each build's median req/s and server CPU per request, and the paired ratios head/base of CPU
 * per request: their median and whether every round agreed.
 * Run after `pnpm build` in both checkouts:
 *   node bench/ab.ts --base ../other/apps/server/bin/psm-server.js
 *     [--head apps/server/bin/psm-server.js] [--only "<row substrings, separated by |>"]
 *     [--rounds 8] [--duration 2] [--listings 20000]
 *     [--base-node-args="<flags>"] [--head-node-args="<flags>"]  (after the image's own flags)
 *     [--base-env="K=V ..."] [--head-env="K=V ..."]  (instead of the image's environment)
 */
import "./support/ts-resolve.ts";

await import("./support/ab-run.js");
