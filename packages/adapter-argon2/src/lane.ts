/**
 * Runs at most `limit` tasks at once; the rest wait in arrival order. With a
 * `queue`, at most `queue.max` wait: one more is refused at once with the
 * error `queue.refuse` makes, and its task never runs.
 */
export function createLane(limit: number, queue?: { max: number; refuse: () => Error }) {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError("argon2 hasher: a concurrency must be a positive integer");
  }
  // A queue bound that is not a count (NaN, -1) would never refuse: no bound at all.
  if (queue && (!Number.isInteger(queue.max) || queue.max < 0)) {
    throw new RangeError("argon2 hasher: a queue must be a non-negative integer");
  }
  let active = 0;
  const waiting: (() => void)[] = [];
  // A finished task hands its slot straight to the next in line, so a caller
  // arriving in between cannot take it too and run one over the limit.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < limit) active++;
    else if (queue && waiting.length >= queue.max) throw queue.refuse();
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}
