/**
 * Defers `make` to its first call and keeps the result: a query built by drizzle once (about
 * 60–200 µs of CPU a build for a wide table) and then only executed with its parameters.
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/**
 * One value per shape, each made on first use: a query built once for each combination of its
 * optional parts (a filter present or not, a direction) rather than on every call.
 */
export function lazyPerShape<A extends readonly (string | boolean)[], T>(
  make: (...shape: A) => T,
): (...shape: A) => T {
  const made = new Map<string, T>();
  return (...shape) => {
    const key = shape.join(":");
    let value = made.get(key);
    if (value === undefined) {
      value = make(...shape);
      made.set(key, value);
    }
    return value;
  };
}
