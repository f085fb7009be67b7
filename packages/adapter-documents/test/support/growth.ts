/** The fastest of `runs` timings of `work()`, in milliseconds: the least disturbed by other load. */
async function fastest(work: () => unknown, runs: number): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

/**
 * How much longer `work` takes on an input four times larger: about 4 when it is linear, about
 * 16 when it is quadratic. Compared within one test, so a slow machine slows both sides alike.
 * `n` doubles (up to 16 n) until the smaller input takes a measurable 2 ms, so that a quadratic
 * cost with a small constant still shows; the smaller side is floored at `floorMs` so that timer
 * noise cannot fake growth. When the first step grows too much, one more step (4n to 16n) is
 * measured and the smaller growth counts: super-linear work grows at every step, while the
 * one-time cliff of an input outgrowing the young generation or a CPU cache shows at one only.
 */
export async function growth(
  work: (input: string) => unknown,
  make: (n: number) => string,
  n: number,
  floorMs = 0.5,
  linearBelow = 8,
): Promise<number> {
  let size = n;
  await work(make(size)); // warm up: compile the regexes, fill the caches
  let a = await fastest(() => work(make(size)), 3);
  while (a < 2 && size < 16 * n) {
    size *= 2;
    const input = make(size);
    a = await fastest(() => work(input), 3);
  }
  const large = make(4 * size);
  const b = await fastest(() => work(large), 3);
  const first = b / Math.max(a, floorMs);
  if (first < linearBelow) return first;
  const larger = make(16 * size);
  const c = await fastest(() => work(larger), 3);
  return Math.min(first, c / Math.max(b, floorMs));
}
